//! Two `cardio serve` processes on one PostgreSQL database and one S3-compatible bucket, behind
//! nothing but their two ports, as a clinic network runs them: a session made on one is good on
//! the other, a recording uploaded to one is read back (waveform, PDF, ZIP) from the other, the
//! sign-in limit counts the attempts made on both, killing one in the middle of an upload loses
//! nothing the other serves, the recordings are in the bucket and not on either disk, and an
//! instance given another data key refuses to start. And `cardio blobs migrate` copies a local
//! store into a bucket, verifying every hash there, and `cardio predict` reads a bucket's objects
//! and prefixes as it reads files.
//!
//! Needs `$TEST_POSTGRES_URL` and `$TEST_S3_SERVER` (both set by `make test`); see
//! `cardio_testkit` for what happens when they are missing.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use cardio_server::platform::blobs::BlobStore;

const KEY: &str = "5f0c2a7e9b1d4c3a8e6f2b0d9c7a5e3f1b8d6c4a2e0f9b7d5c3a1e8f6b4d2c0a";
const OTHER_KEY: &str = "0a2c4d6b8f1e3a5c7d9b2f4e6a8c0d1b3f5e7a9c2d4b6f8e0a1c3d5b7f9e2a4c";
const BUCKET: &str = "cardio-two";
const PASSWORD: &str = "secret-pass";

/// A process killed when dropped.
#[derive(Debug)]
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardio-two-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The S3 server on a free port, with the test's bucket made; returns its endpoint.
fn start_s3(server: &Path) -> (Running, String) {
    let port = free_port();
    let child = Command::new(server)
        .args(["-H", "127.0.0.1", "-p", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the S3 test server starts");
    let endpoint = format!("http://127.0.0.1:{port}");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match ureq::put(&format!("{endpoint}/{BUCKET}")).call() {
            Ok(_) => break,
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(200)),
            Err(err) => panic!("the S3 test server did not answer: {err}"),
        }
    }
    (Running(child), endpoint)
}

/// The standard AWS variables that point a client at the test's S3 server.
fn s3_env(endpoint: &str) -> [(&'static str, &str); 5] {
    [
        ("AWS_ENDPOINT_URL", endpoint),
        ("AWS_ACCESS_KEY_ID", "cardio-test"),
        ("AWS_SECRET_ACCESS_KEY", "cardio-test"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_ALLOW_HTTP", "true"),
    ]
}

/// A throwaway PostgreSQL database on the test server; returns its URL and the name to drop.
fn create_database(server_url: &str) -> (String, String) {
    let name = format!("cardio_two_{}", uuid_like());
    run_sql(server_url, &format!("CREATE DATABASE \"{name}\""));
    let base = server_url.rsplit_once('/').map_or(server_url, |(b, _)| b);
    (format!("{base}/{name}"), name)
}

fn uuid_like() -> String {
    format!(
        "{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    )
}

fn run_sql(url: &str, sql: &str) {
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        use sqlx::Connection as _;
        let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query(sql).execute(&mut conn).await.unwrap();
        conn.close().await.unwrap();
    });
}

/// `cardio serve` with the shared database, bucket and key; returns it once it listens.
fn start_instance(
    database_url: &str,
    endpoint: &str,
    key: &str,
    data_dir: &Path,
    blob_url: &str,
) -> Result<(Running, String), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardio"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("DATABASE_URL", database_url)
        .env("CARDIO_DATA_DIR", data_dir)
        .env("CARDIO_WEB_DIR", data_dir.join("no-web-app"))
        .env("CARDIO_BLOB_URL", blob_url)
        .env("CARDIO_DATA_KEY", key)
        .envs(s3_env(endpoint))
        .env("RUST_LOG", "warn")
        .env_remove("RUST_BACKTRACE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    for line in stdout.lines() {
        let line = line.unwrap();
        if let Some(url) = line.strip_prefix("cardio listening on ") {
            return Ok((Running(child), url.to_owned()));
        }
    }
    let mut errors = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut errors)
        .unwrap();
    let _ = child.wait();
    Err(errors)
}

/// A response's status and body, whatever the status.
fn call(request: ureq::Request, body: Option<&serde_json::Value>) -> (u16, ureq::Response) {
    let result = match body {
        Some(body) => request
            .set("Content-Type", "application/json")
            .send_string(&body.to_string()),
        None => request.call(),
    };
    match result {
        Ok(response) => (response.status(), response),
        Err(ureq::Error::Status(status, response)) => (status, response),
        Err(err) => panic!("request failed: {err}"),
    }
}

/// `GET url` with the session cookie: status and response.
fn get(url: &str, cookie: &str) -> (u16, ureq::Response) {
    call(ureq::get(url).set("Cookie", cookie), None)
}

fn json(response: ureq::Response) -> serde_json::Value {
    serde_json::from_str(&response.into_string().unwrap()).unwrap()
}

fn bytes(response: ureq::Response) -> Vec<u8> {
    let mut out = Vec::new();
    response.into_reader().read_to_end(&mut out).unwrap();
    out
}

/// A multipart body with one `file` part, and its content type.
fn multipart(name: &str, content: &[u8]) -> (String, Vec<u8>) {
    let boundary = "cardio-two-instances-boundary";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\
         Content-Type: text/csv\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(content);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// Uploads an ECG to `base` with `cookie`; returns the analysis id.
fn upload_ecg(base: &str, cookie: &str, name: &str, content: &[u8]) -> String {
    let (content_type, body) = multipart(name, content);
    let response = ureq::post(&format!("{base}/api/predict/ecg/upload"))
        .set("Cookie", cookie)
        .set("Content-Type", &content_type)
        .send_bytes(&body);
    let response = match response {
        Ok(response) => response,
        Err(ureq::Error::Status(status, response)) => {
            panic!(
                "upload answered {status}: {}",
                response.into_string().unwrap()
            )
        }
        Err(err) => panic!("upload failed: {err}"),
    };
    json(response)["analysis_id"].as_str().unwrap().to_owned()
}

/// The keys under `prefix` in the bucket (S3 ListObjectsV2).
fn bucket_keys(endpoint: &str, prefix: &str) -> Vec<String> {
    let listing = ureq::get(&format!("{endpoint}/{BUCKET}?list-type=2&prefix={prefix}"))
        .call()
        .unwrap()
        .into_string()
        .unwrap();
    listing
        .split("<Key>")
        .skip(1)
        .filter_map(|part| part.split_once("</Key>").map(|(key, _)| key.to_owned()))
        .collect()
}

#[test]
fn two_instances_share_sessions_recordings_and_limits_through_one_database_and_one_bucket() {
    let Some(server) = cardio_testkit::s3_server() else {
        return;
    };
    let Some(postgres) = cardio_testkit::postgres_url() else {
        return;
    };
    let (_s3, endpoint) = start_s3(&server);
    let (database_url, database) = create_database(&postgres);
    let (dir_a, dir_b) = (temp_dir("a"), temp_dir("b"));
    let shared = format!("s3://{BUCKET}/clinic");
    let (a, url_a) = start_instance(&database_url, &endpoint, KEY, &dir_a, &shared).unwrap();
    let (b, url_b) = start_instance(&database_url, &endpoint, KEY, &dir_b, &shared).unwrap();

    // Each names itself and the bucket.
    let health_a = json(ureq::get(&format!("{url_a}/api/health")).call().unwrap());
    let health_b = json(ureq::get(&format!("{url_b}/api/health")).call().unwrap());
    assert_eq!(
        (health_a["blobs"].as_str(), health_b["blobs"].as_str()),
        (Some("s3"), Some("s3"))
    );
    assert_eq!(health_a["database"], "postgres");
    assert_ne!(health_a["instance"], health_b["instance"]);

    // Sign up on A; the session works on B.
    let email = format!("ana-{}@clinic.test", std::process::id());
    let signup = serde_json::json!({
        "full_name": "Ana Ruiz", "email": email, "password": PASSWORD, "role": "doctor"
    });
    let (status, response) = call(
        ureq::post(&format!("{url_a}/api/auth/signup")),
        Some(&signup),
    );
    assert_eq!(status, 201);
    let cookie = response
        .all("set-cookie")
        .into_iter()
        .map(|c| c.split(';').next().unwrap().to_owned())
        .collect::<Vec<_>>()
        .join("; ");
    assert!(!cookie.is_empty(), "the sign-up sets a session cookie");
    let (status, me) = get(&format!("{url_b}/api/auth/me"), &cookie);
    assert_eq!(status, 200);
    assert_eq!(json(me)["email"], email.as_str());

    // Upload on A; read the waveform, the PDF and the ZIP on B.
    let ecg = cardio_testkit::signals::realistic_ecg_csv(30.0);
    let id = upload_ecg(&url_a, &cookie, "lead-ii.csv", &ecg);
    let (status, waveform) = get(
        &format!("{url_b}/api/analyses/{id}/waveform?start_s=0&duration_s=5"),
        &cookie,
    );
    assert_eq!(status, 200);
    let waveform = json(waveform);
    assert_eq!(waveform["duration_s"].as_f64(), Some(30.0), "{waveform}");
    assert!(
        waveform["channels"][0]["samples"]
            .as_array()
            .is_some_and(|s| s.len() > 100),
        "{waveform}"
    );
    let (status, pdf) = get(&format!("{url_b}/api/analyses/{id}/report.pdf"), &cookie);
    assert_eq!(status, 200);
    assert!(bytes(pdf).starts_with(b"%PDF-"));
    let (status, zip) = get(&format!("{url_b}/api/reports/export.zip"), &cookie);
    assert_eq!(status, 200);
    let zip = bytes(zip);
    assert!(zip.starts_with(b"PK"));
    let pdf_name = format!("reports/analyses/{id}.pdf");
    assert!(
        zip.windows(pdf_name.len())
            .any(|w| w == pdf_name.as_bytes()),
        "the ZIP made on B holds the report of the recording uploaded to A"
    );

    // The storage figures (the first account administers the installation) count the bucket.
    let (status, storage) = get(&format!("{url_b}/api/system/storage"), &cookie);
    assert_eq!(status, 200);
    let storage = json(storage);
    assert_eq!(
        storage["blob_store"],
        format!("s3://{BUCKET}/clinic").as_str()
    );
    assert_eq!(storage["blob_files"], 1, "{storage}");

    // The bucket, not either disk, holds the recording.
    let sha = BlobStore::hash(&ecg);
    let keys = bucket_keys(&endpoint, "clinic/");
    assert!(
        keys.contains(&format!("clinic/{}/{sha}", &sha[..2])),
        "{keys:?}"
    );
    assert!(keys.contains(&"clinic/cardio-store.json".to_owned()));
    for dir in [&dir_a, &dir_b] {
        assert!(
            !dir.join("blobs").exists(),
            "no blob folder in {}",
            dir.display()
        );
        let stray: Vec<_> = cardio_testkit::files_under(dir)
            .into_iter()
            .filter(|p| std::fs::read(p).is_ok_and(|b| b == ecg))
            .collect();
        assert!(stray.is_empty(), "{stray:?}");
    }

    // The sign-in limit counts attempts made on both: five wrong passwords, alternating, and
    // the sixth attempt is refused wherever it is made, even with the right password.
    let wrong = serde_json::json!({"email": email, "password": "not-the-password"});
    for attempt in 0..5 {
        let base = if attempt % 2 == 0 { &url_a } else { &url_b };
        let (status, _) = call(ureq::post(&format!("{base}/api/auth/login")), Some(&wrong));
        assert_eq!(status, 401, "attempt {attempt}");
    }
    let right = serde_json::json!({"email": email, "password": PASSWORD});
    let (status, refused) = call(ureq::post(&format!("{url_b}/api/auth/login")), Some(&right));
    assert_eq!(status, 429);
    assert_eq!(
        json(refused)["detail"],
        "Too many failed attempts. Please try again later."
    );

    // Kill A in the middle of an upload: B keeps serving, and everything acknowledged is there.
    let big = cardio_testkit::signals::realistic_ecg_csv(240.0);
    let (content_type, body) = multipart("interrupted.csv", &big);
    let host = url_a.trim_start_matches("http://").to_owned();
    let mut stream = TcpStream::connect(&host).unwrap();
    write!(
        stream,
        "POST /api/predict/ecg/upload HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    stream.write_all(&body[..body.len() / 2]).unwrap();
    stream.flush().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    drop(a);
    drop(stream);
    let (status, list) = get(&format!("{url_b}/api/analyses"), &cookie);
    assert_eq!(status, 200);
    let list = json(list);
    let ids: Vec<&str> = list["items"]
        .as_array()
        .or(list.as_array())
        .unwrap()
        .iter()
        .filter_map(|a| a["id"].as_str())
        .collect();
    assert_eq!(
        ids,
        [id.as_str()],
        "the acknowledged upload, and nothing half made"
    );
    let (status, _) = get(
        &format!("{url_b}/api/analyses/{id}/waveform?start_s=10&duration_s=5"),
        &cookie,
    );
    assert_eq!(status, 200);
    let second = upload_ecg(
        &url_b,
        &cookie,
        "after.csv",
        &cardio_testkit::signals::realistic_ecg_csv(20.0),
    );
    assert_ne!(second, id);

    // An instance given another key refuses to start, naming the store and both fingerprints.
    let errors =
        start_instance(&database_url, &endpoint, OTHER_KEY, &temp_dir("c"), &shared).unwrap_err();
    assert!(
        errors.contains(&format!(
            "is not the key the blob store s3://{BUCKET}/clinic is written with"
        )),
        "{errors}"
    );
    assert!(errors
        .contains("every instance that shares a store must be given the same CARDIO_DATA_KEY"));

    // A bucket that does not exist is named as such.
    let errors = start_instance(
        &database_url,
        &endpoint,
        KEY,
        &temp_dir("d"),
        "s3://no-such-bucket/clinic",
    )
    .unwrap_err();
    assert!(
        errors.contains(
            "the blob store s3://no-such-bucket/clinic cannot be used: blob store (S3): the bucket \
             of s3://no-such-bucket/clinic does not exist: create it first"
        ),
        "{errors}"
    );

    drop(b);
    run_sql(
        &postgres,
        &format!("DROP DATABASE IF EXISTS \"{database}\" WITH (FORCE)"),
    );
}

/// `cardio blobs migrate` with the test's S3 environment.
fn migrate(data_dir: &Path, endpoint: &str, key: &str, to: &str) -> (i32, String) {
    migrate_with(data_dir, endpoint, key, &["--to", to])
}

fn migrate_with(data_dir: &Path, endpoint: &str, key: &str, args: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_cardio"))
        .args(["blobs", "migrate"])
        .args(args)
        .env("CARDIO_DATA_DIR", data_dir)
        .env("CARDIO_DATA_KEY", key)
        .envs(s3_env(endpoint))
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), text)
}

#[test]
fn a_local_store_migrates_into_a_bucket_and_every_hash_is_verified_there() {
    let Some(server) = cardio_testkit::s3_server() else {
        return;
    };
    let (_s3, endpoint) = start_s3(&server);
    let data = temp_dir("migrate");
    let key = cardio_server::platform::blobs::DataKey::parse(KEY).unwrap();
    let store = BlobStore::with_key(&data, Some(key.clone()));
    let clear = BlobStore::with_key(&data, Some(key)).with_encryption(false);
    let ecg = cardio_testkit::signals::realistic_ecg_csv(10.0);
    let names = [
        store.put(&ecg).unwrap(),
        clear.put(b"a clear blob from before encryption").unwrap(),
    ];
    let to = format!("s3://{BUCKET}/archive");

    let (code, text) = migrate(&data, &endpoint, KEY, &to);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.starts_with(&format!(
            "2 blobs from {} to {to}: 2 copied (",
            data.join("blobs").display()
        )),
        "{text}"
    );
    assert!(
        text.contains(
            "0 already there; 2 verified (decrypted, SHA-256 equal to the name), 0 failed"
        ),
        "{text}"
    );
    let keys = bucket_keys(&endpoint, "archive/");
    for name in &names {
        assert!(
            keys.contains(&format!("archive/{}/{name}", &name[..2])),
            "{keys:?}"
        );
    }

    // Again: nothing to send, everything checked again.
    let (code, text) = migrate(&data, &endpoint, KEY, &to);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(": 0 copied (0 bytes), 2 already there; 2 verified"),
        "{text}"
    );

    // A file altered on disk is reported, not copied, and the command fails.
    let altered = data.join("blobs").join(&names[1][..2]).join(&names[1]);
    std::fs::write(&altered, b"a clear blob from before encryptioN").unwrap();
    let (code, text) = migrate(&data, &endpoint, KEY, &to);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("1 verified (decrypted, SHA-256 equal to the name), 1 failed"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{}: the copy to migrate does not verify: stored file {} failed its integrity check",
            names[1], names[1]
        )),
        "{text}"
    );

    // The orphan sweep on a bucket removes what no analysis names once old enough, and only that.
    for (name, value) in s3_env(&endpoint) {
        std::env::set_var(name, value);
    }
    let bucket = cardio_server::platform::blobs::remote::Remote::from_url(&to).unwrap();
    let referenced: std::collections::HashSet<String> = [names[0].clone()].into();
    let now = std::time::SystemTime::now();
    let young = cardio_server::admin::orphans::sweep_bucket(
        &bucket,
        &referenced,
        now - Duration::from_hours(1),
    )
    .unwrap();
    assert_eq!(young.orphans, 0, "younger than the cutoff");
    let swept = cardio_server::admin::orphans::sweep_bucket(
        &bucket,
        &referenced,
        now + Duration::from_hours(1),
    )
    .unwrap();
    assert_eq!(swept.orphans, 1);
    let keys = bucket_keys(&endpoint, "archive/");
    assert!(
        keys.contains(&format!("archive/{}/{}", &names[0][..2], names[0])),
        "{keys:?}"
    );
    assert!(!keys.iter().any(|k| k.ends_with(&names[1])), "{keys:?}");
    assert!(
        keys.contains(&"archive/cardio-store.json".to_owned()),
        "the marker is not a blob"
    );

    // A bucket copied into a second one (a backup of the recordings).
    let copy = format!("s3://{BUCKET}/copy");
    let (code, text) = migrate_with(&data, &endpoint, KEY, &["--from", &to, "--to", &copy]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.starts_with(&format!("1 blobs from {to} to {copy}: 1 copied (")),
        "{text}"
    );
    assert!(text.contains("1 verified"), "{text}");
    assert!(bucket_keys(&endpoint, "copy/").contains(&format!(
        "copy/{}/{}",
        &names[0][..2],
        names[0]
    )));

    // Another key is refused before anything is copied.
    let (code, text) = migrate(
        &data,
        &endpoint,
        OTHER_KEY,
        &format!("s3://{BUCKET}/archive"),
    );
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("is not the key the blob store s3://cardio-two/archive is written with"),
        "{text}"
    );
}

/// `cardio predict ecg ARGS...` with the test's S3 environment: (exit code, stdout, stderr).
fn predict(endpoint: &str, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_cardio"))
        .args(["predict", "ecg"])
        .args(args)
        .envs(s3_env(endpoint))
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A WFDB record (format 16, 1000 adu/mV) of the synthetic ECG: (header, signal file).
fn wfdb_record(name: &str, seconds: f64) -> (Vec<u8>, Vec<u8>) {
    let csv = String::from_utf8(cardio_testkit::signals::realistic_ecg_csv(seconds)).unwrap();
    let mut dat = Vec::new();
    for line in csv.lines().skip(1) {
        let mv: f64 = line.split(',').nth(1).unwrap().parse().unwrap();
        dat.extend_from_slice(&((mv * 1000.0).round() as i16).to_le_bytes());
    }
    let samples = dat.len() / 2;
    let header = format!("{name} 1 250 {samples}\n{name}.dat 16 1000 16 0 0 0 0 II\n");
    (header.into_bytes(), dat)
}

#[test]
fn predict_reads_objects_and_prefixes_of_a_bucket_as_it_reads_files() {
    let Some(server) = cardio_testkit::s3_server() else {
        return;
    };
    let (_s3, endpoint) = start_s3(&server);
    let dir = temp_dir("predict");
    let (header, dat) = wfdb_record("rec", 30.0);
    let files: [(&str, Vec<u8>); 5] = [
        ("a.csv", cardio_testkit::signals::realistic_ecg_csv(30.0)),
        ("b.csv", cardio_testkit::signals::realistic_ecg_csv(12.0)),
        ("rec.hea", header),
        ("rec.dat", dat),
        ("RECORDS", b"rec\n".to_vec()),
    ];
    for (name, bytes) in &files {
        std::fs::write(dir.join(name), bytes).unwrap();
        ureq::put(&format!("{endpoint}/{BUCKET}/study/{name}"))
            .send_bytes(bytes)
            .unwrap();
    }

    // The prefix gives the three recordings in key order, scored as the same files on disk are.
    let local: Vec<String> = ["a.csv", "b.csv", "rec.hea"]
        .iter()
        .map(|n| dir.join(n).display().to_string())
        .collect();
    let local_args: Vec<&str> = local.iter().map(String::as_str).collect();
    let (code, on_disk, errors) = predict(&endpoint, &local_args);
    assert_eq!(code, 0, "{errors}");
    let prefix = format!("s3://{BUCKET}/study/");
    let (code, in_bucket, errors) = predict(&endpoint, &[&prefix]);
    assert_eq!(code, 0, "{errors}");
    let mut expected = on_disk.clone();
    for (path, name) in local.iter().zip(["a.csv", "b.csv", "rec.hea"]) {
        expected = expected.replace(path, &format!("{prefix}{name}"));
    }
    assert_eq!(in_bucket, expected);
    assert_eq!(in_bucket.lines().count(), 4, "{in_bucket}");

    // One object by its key; the shards of the prefix concatenate to the whole run.
    let (code, one, _) = predict(&endpoint, &[&format!("{prefix}b.csv")]);
    assert_eq!(code, 0);
    assert_eq!(one.lines().nth(1), in_bucket.lines().nth(2));
    let shards: String = (0..2)
        .map(|k| predict(&endpoint, &[&prefix, "--shard", &format!("{k}/2")]).1)
        .collect();
    assert_eq!(shards, in_bucket);

    // Nothing under a prefix is an error naming it.
    let (code, _, errors) = predict(&endpoint, &[&format!("s3://{BUCKET}/no-such-study/")]);
    assert_eq!(code, 2);
    assert!(
        errors.contains(&format!(
            "s3://{BUCKET}/no-such-study/: no object of that name and no recording under it"
        )),
        "{errors}"
    );
}
