//! Load generator for the prediction API (`make bench-api`): signs up a doctor on a running
//! `cardio serve`, then keeps `--concurrency` requests in flight until `--total` have completed, and
//! prints p50/p90/p99/max latency and throughput. A reference endpoint (`GET /api/auth/me`: the
//! session lookup every request pays, no model) is measured the same way in the same run, so the
//! prediction's cost is also given as a ratio against it.
//!
//! With `--server-pid` it also reports **throughput per core**: the server process's CPU time per
//! upload (`utime + stime` of `/proc/PID/stat` across the measured uploads) against the model's own
//! CPU time for the same recording, measured in this process first (the committed model run on one
//! thread, `/proc/thread-self/schedstat`), with the decode of the upload counted separately. The
//! ratio server/model says how much the server adds to the work that cannot be avoided.
//!
//! It speaks HTTP/1.1 over keep-alive connections with pre-built request bytes: a load generator
//! that spends little CPU of its own, since on a 2-core machine it shares the cores with the server
//! (the Node generator it replaced used about half a core at this load).
//!
//! ```text
//! cargo run --release -p cardio-server --example load_predict -- --url http://127.0.0.1:8080 \
//!     --files A00001.hea,A00001.mat [--kind ecg] [--concurrency 50] [--total 2000] [--warmup 100]
//! ```

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The load to generate.
#[derive(clap::Parser)]
struct Args {
    /// The server's address (plain http).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// The model to call: `POST /api/predict/{kind}/upload`.
    #[arg(long, default_value = "ecg")]
    kind: String,
    /// The files of one upload, comma-separated (a recording, or a WFDB .hea and its signal file).
    #[arg(long, value_delimiter = ',', required = true)]
    files: Vec<String>,
    /// Requests kept in flight.
    #[arg(long, default_value_t = 50)]
    concurrency: usize,
    /// Requests measured per endpoint.
    #[arg(long, default_value_t = 2000)]
    total: usize,
    /// Uploads sent (and not measured) before the measurement.
    #[arg(long, default_value_t = 100)]
    warmup: usize,
    /// The server's process id: report its CPU time per upload against the model's.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Runs of the model in this process to measure its own CPU time.
    #[arg(long, default_value_t = 1000)]
    model_runs: usize,
    /// Skip the reference endpoint (a shorter run).
    #[arg(long)]
    no_reference: bool,
}

/// CPU time of this thread so far, nanoseconds (`/proc/thread-self/schedstat`, first field).
fn thread_cpu_ns() -> Result<u64, BoxError> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")?;
    Ok(text
        .split_whitespace()
        .next()
        .ok_or("empty schedstat")?
        .parse()?)
}

/// CPU time of process `pid` so far (user + system, every thread, living or gone), milliseconds.
fn process_cpu_ms(pid: u32) -> Result<f64, BoxError> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // Fields after the command name (which may hold spaces) in parentheses: utime is field 14 and
    // stime 15 of the whole line, so the 12th and 13th after the ')'.
    let rest = text.rsplit_once(')').ok_or("malformed stat")?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>()? + fields[12].parse::<u64>()?;
    // USER_HZ is 100 on Linux.
    Ok(ticks as f64 * 10.0)
}

/// The model's own CPU time per recording, and the decode's, milliseconds (mean of `runs`).
fn model_cpu_ms(
    kind: &str,
    files: &[(String, Vec<u8>)],
    runs: usize,
) -> Result<(f64, f64), BoxError> {
    use cardio_server::recordings::{
        predict::upload::{to_recording, Upload, UploadedFile},
        registry::ModelRegistry,
    };
    let registry = ModelRegistry::load();
    let model = match kind {
        "ecg" => registry.ecg,
        "pcg" => registry.pcg,
        "ppg" => registry.ppg,
        other => return Err(format!("unknown kind {other}").into()),
    }
    .map_err(|e| format!("model not loaded: {e}"))?;
    let upload = Upload {
        files: files
            .iter()
            .map(|(name, bytes)| UploadedFile {
                name: name.clone(),
                content_type: None,
                bytes: bytes.clone(),
            })
            .collect(),
        patient_id: None,
        screening_id: None,
        sampling_rate: None,
        site: None,
    };
    // Whole batches between two readings: the kernel's counters may move by a scheduler tick
    // (4 ms here), far coarser than one run.
    let runs = runs.max(1);
    let t0 = thread_cpu_ns()?;
    let mut recording = None;
    for _ in 0..runs {
        recording = Some(to_recording(&upload).map_err(|e| e.to_string())?);
    }
    let t1 = thread_cpu_ns()?;
    let recording = recording.expect("at least one run");
    for _ in 0..runs {
        model.predict(&recording).map_err(|e| format!("{e:?}"))?;
    }
    let t2 = thread_cpu_ns()?;
    let per_run = |ns: u64| ns as f64 / 1e6 / runs as f64;
    Ok((per_run(t2 - t1), per_run(t1 - t0)))
}

/// One HTTP response: status and body.
struct Response {
    status: u16,
    body: Vec<u8>,
    set_cookie: Option<String>,
}

/// Reads one response from a keep-alive connection (Content-Length or chunked bodies).
async fn read_response(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<Response, BoxError> {
    let head_end = loop {
        if let Some(at) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        read_more(stream, buf).await?;
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or("bad status line")?;
    let mut length = None;
    let mut chunked = false;
    let mut set_cookie = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "set-cookie" => set_cookie = value.split(';').next().map(str::to_owned),
            _ => {}
        }
    }
    buf.drain(..head_end);
    let body = if chunked {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(at) = buf.windows(2).position(|w| w == b"\r\n") {
                    break at;
                }
                read_more(stream, buf).await?;
            };
            let size = usize::from_str_radix(
                String::from_utf8_lossy(&buf[..line_end])
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim(),
                16,
            )?;
            buf.drain(..line_end + 2);
            while buf.len() < size + 2 {
                read_more(stream, buf).await?;
            }
            body.extend_from_slice(&buf[..size]);
            buf.drain(..size + 2);
            if size == 0 {
                break body;
            }
        }
    } else {
        let length = length.unwrap_or(0);
        while buf.len() < length {
            read_more(stream, buf).await?;
        }
        buf.drain(..length).collect()
    };
    Ok(Response {
        status,
        body,
        set_cookie,
    })
}

async fn read_more(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<(), BoxError> {
    buf.reserve(16 * 1024);
    if stream.read_buf(buf).await? == 0 {
        return Err("connection closed".into());
    }
    Ok(())
}

fn request(method: &str, path: &str, host: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Content-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

/// A multipart body with every file in a field named `file`; a WFDB header gets a unique comment
/// line so that every upload is a new stored file, as real uploads are.
fn multipart(files: &[(String, Vec<u8>)], boundary: &str, n: usize) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, bytes) in files {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        if name.to_ascii_lowercase().ends_with(".hea") {
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            body.extend_from_slice(format!("# load request {n} {nanos}\n").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    body
}

struct Run {
    label: String,
    n: usize,
    failures: usize,
    first_error: Option<String>,
    seconds: f64,
    latencies_ms: Vec<f64>,
}

impl Run {
    fn quantile(&self, p: f64) -> f64 {
        let i = ((p * self.latencies_ms.len() as f64) as usize).min(self.latencies_ms.len() - 1);
        self.latencies_ms[i]
    }
}

/// Keeps `concurrency` connections busy until `n` requests built by `build` have completed.
async fn run(
    label: &str,
    addr: &str,
    concurrency: usize,
    n: usize,
    build: Arc<dyn Fn(usize) -> Vec<u8> + Send + Sync>,
) -> Result<Run, BoxError> {
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..concurrency {
        let next = next.clone();
        let build = build.clone();
        let addr = addr.to_owned();
        workers.push(tokio::spawn(async move {
            let mut stream = TcpStream::connect(&addr).await?;
            stream.set_nodelay(true)?;
            let mut buf = Vec::new();
            let mut out: Vec<(f64, u16, Vec<u8>)> = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let bytes = build(i);
                let t0 = Instant::now();
                stream.write_all(&bytes).await?;
                let response = read_response(&mut stream, &mut buf).await?;
                out.push((
                    t0.elapsed().as_secs_f64() * 1000.0,
                    response.status,
                    response.body,
                ));
            }
            Ok::<_, BoxError>(out)
        }));
    }
    let mut latencies_ms = Vec::with_capacity(n);
    let mut failures = 0;
    let mut first_error = None;
    for worker in workers {
        for (ms, status, body) in worker.await?? {
            latencies_ms.push(ms);
            if status != 200 {
                failures += 1;
                first_error.get_or_insert_with(|| {
                    format!(
                        "{status} {}",
                        String::from_utf8_lossy(&body)
                            .chars()
                            .take(200)
                            .collect::<String>()
                    )
                });
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    latencies_ms.sort_unstable_by(f64::total_cmp);
    Ok(Run {
        label: label.to_owned(),
        n,
        failures,
        first_error,
        seconds,
        latencies_ms,
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), BoxError> {
    let Args {
        url,
        kind,
        files,
        concurrency,
        total,
        warmup,
        server_pid,
        model_runs,
        no_reference,
    } = <Args as clap::Parser>::parse();
    let addr = url
        .strip_prefix("http://")
        .ok_or("--url must start with http://")?
        .trim_end_matches('/')
        .to_owned();
    let files: Vec<(String, Vec<u8>)> = files
        .iter()
        .filter(|f| !f.is_empty())
        .map(|f| {
            let name = Path::new(f)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            std::fs::read(f).map(|bytes| (name, bytes))
        })
        .collect::<Result<_, _>>()?;
    if files.is_empty() {
        return Err("--files is required (a recording, or a WFDB .hea and its signal file)".into());
    }
    let names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    let files_for_model = files.clone();

    // Sign up a doctor and keep the session cookie.
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH)?.as_nanos();
    let signup = format!(
        r#"{{"full_name":"Load Test","email":"load-{nanos}@bench.test","password":"load-test-pass","role":"doctor"}}"#
    );
    let mut stream = TcpStream::connect(&addr).await?;
    stream
        .write_all(&request(
            "POST",
            "/api/auth/signup",
            &addr,
            "Content-Type: application/json\r\n",
            signup.as_bytes(),
        ))
        .await?;
    let response = read_response(&mut stream, &mut Vec::new()).await?;
    if response.status != 201 {
        return Err(format!(
            "signup: {} {}",
            response.status,
            String::from_utf8_lossy(&response.body)
        )
        .into());
    }
    let cookie = response.set_cookie.ok_or("signup set no cookie")?;

    let boundary = "cardio-load-boundary-7d1f";
    let predict_path = format!("/api/predict/{kind}/upload");
    let predict: Arc<dyn Fn(usize) -> Vec<u8> + Send + Sync> = {
        let (addr, cookie, path) = (addr.clone(), cookie.clone(), predict_path.clone());
        Arc::new(move |i| {
            let body = multipart(&files, boundary, i);
            request(
                "POST",
                &path,
                &addr,
                &format!(
                    "Cookie: {cookie}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\n"
                ),
                &body,
            )
        })
    };
    let reference: Arc<dyn Fn(usize) -> Vec<u8> + Send + Sync> = {
        let bytes = request(
            "GET",
            "/api/auth/me",
            &addr,
            &format!("Cookie: {cookie}\r\n"),
            b"",
        );
        Arc::new(move |_| bytes.clone())
    };

    // The model's own cost first, while the server is idle.
    let model_cost = match server_pid {
        Some(_) => Some(model_cpu_ms(&kind, &files_for_model, model_runs)?),
        None => None,
    };
    run("warmup", &addr, concurrency, warmup, predict.clone()).await?;
    let reference = if no_reference {
        None
    } else {
        Some(run("GET /api/auth/me", &addr, concurrency, total, reference).await?)
    };
    let cpu_before = server_pid.map(process_cpu_ms).transpose()?;
    let predict = run(
        &format!("POST {predict_path}"),
        &addr,
        concurrency,
        total,
        predict,
    )
    .await?;
    let cpu_after = server_pid.map(process_cpu_ms).transpose()?;

    println!(
        "concurrency {concurrency}, {total} requests each, files: {}",
        names.join(" + ")
    );
    println!(
        "endpoint                          req/s     p50 ms   p90 ms   p99 ms   max ms  failures"
    );
    for r in reference.iter().chain([&predict]) {
        println!(
            "{:<32} {:>8.1}  {:>7.1}  {:>7.1}  {:>7.1}  {:>7.1}  {}",
            r.label,
            r.n as f64 / r.seconds,
            r.quantile(0.5),
            r.quantile(0.9),
            r.quantile(0.99),
            r.latencies_ms.last().copied().unwrap_or(f64::NAN),
            r.failures
        );
        if let Some(e) = &r.first_error {
            println!("  first failure: {e}");
        }
    }
    if let Some(reference) = &reference {
        println!(
            "ratio predict/reference: p50 {:.2}x, p99 {:.2}x",
            predict.quantile(0.5) / reference.quantile(0.5),
            predict.quantile(0.99) / reference.quantile(0.99)
        );
    }
    if let (Some((model_ms, decode_ms)), Some(before), Some(after)) =
        (model_cost, cpu_before, cpu_after)
    {
        let server_ms = (after - before) / total as f64;
        println!(
            "server CPU per upload {server_ms:.3} ms; model {model_ms:.3} ms, decode {decode_ms:.3} ms \
             (one thread, mean of {model_runs}); ratio server/model {:.2}x, \
             server/(model + decode) {:.2}x",
            server_ms / model_ms,
            server_ms / (model_ms + decode_ms)
        );
    }
    if predict.failures > 0 {
        std::process::exit(1);
    }
    Ok(())
}
