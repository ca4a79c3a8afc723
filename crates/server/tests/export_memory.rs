//! Export All is streamed: the memory it holds does not grow with the number of analyses.
//!
//! Its own test binary (one test, so nothing else allocates meanwhile), with a global allocator
//! that records the peak of live heap bytes. The archive of 50 analyses and that of 200 are
//! downloaded chunk by chunk, each chunk dropped at once, as a browser saving to disk does. An
//! archive built in memory would hold every entry, so its peak would grow by about the size of
//! the 150 extra entries; a streamed one stays near the cost of one entry.

use std::net::SocketAddr;

use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{header, Method, Request, StatusCode},
    Router,
};
use cardio_server::{platform::config::Config, platform::db::Db, AppState};
use http_body_util::BodyExt;
use peak_alloc::PeakAlloc;
use serde_json::{json, Value};
use tower::ServiceExt;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

struct Client {
    router: Router,
    cookie: Option<String>,
}

impl Client {
    fn request(&self, method: Method, path: &str, body: Option<&Value>) -> Request<Body> {
        let mut builder = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "127.0.0.1:8080");
        if let Some(cookie) = &self.cookie {
            builder = builder.header(header::COOKIE, cookie.as_str());
        }
        let body = match body {
            Some(json) => {
                builder = builder.header(header::CONTENT_TYPE, "application/json");
                Body::from(json.to_string())
            }
            None => Body::empty(),
        };
        let mut request = builder.body(body).unwrap();
        let addr: SocketAddr = "203.0.113.9:40000".parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(addr));
        request
    }

    async fn post(&mut self, path: &str, body: &Value) -> Value {
        let response = self
            .router
            .clone()
            .oneshot(self.request(Method::POST, path, Some(body)))
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "{path}: {}",
            response.status()
        );
        if let Some(cookie) = response.headers().get(header::SET_COOKIE) {
            let pair = cookie.to_str().unwrap().split(';').next().unwrap();
            self.cookie = Some(pair.to_owned());
        }
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    }

    /// Downloads the archive of everything, dropping each chunk; returns (bytes, peak heap
    /// bytes above the heap in use before the request).
    async fn export_all(&self) -> (usize, usize) {
        let before = HEAP.current_usage();
        HEAP.reset_peak_usage();
        let response = self
            .router
            .clone()
            .oneshot(self.request(Method::GET, "/api/reports/export.zip", None))
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let mut body = response.into_body();
        let mut total = 0;
        while let Some(frame) = body.frame().await {
            if let Ok(data) = frame.unwrap().into_data() {
                total += data.len();
            }
        }
        (total, HEAP.peak_usage().saturating_sub(before))
    }
}

async fn add_clinical_results(client: &mut Client, patient: &str, count: usize) {
    for i in 0..count {
        let form = json!({
            "age": 40 + (i % 30), "chest_pain_type": i % 4, "cholesterol": 180 + i % 90,
            "fasting_blood_sugar": 100, "exercise_induced_angina": i % 2,
            "vessels_colored_by_flourosopy": i % 4, "thalassemia": i % 3, "patient_id": patient,
        });
        client.post("/api/predict/clinical", &form).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_archive_of_200_analyses_takes_no_more_memory_than_that_of_50() {
    let dir = std::env::temp_dir().join(format!("cardio-export-memory-{}", uuid::Uuid::new_v4()));
    let config = Config {
        database_url: format!("sqlite://{}/cardio.db", dir.display()),
        data_dir: dir.clone(),
        ..Config::default()
    };
    let db = Db::connect(&config.database_url).await.unwrap();
    let mut client = Client {
        router: cardio_server::app(AppState::new(db, config)),
        cookie: None,
    };
    client
        .post(
            "/api/auth/signup",
            &json!({"full_name": "Ana Ruiz", "email": "ana@clinic.test",
                    "password": "secret-pass", "role": "doctor"}),
        )
        .await;
    let patient = client
        .post(
            "/api/patients",
            &json!({"firstName": "María", "lastName": "López", "dateOfBirth": "1961-04-12",
                    "gender": "female", "phone": "+34 600 123 456"}),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();

    add_clinical_results(&mut client, &patient, 50).await;
    client.export_all().await; // warm-up: font parsing, statement caches, pool connections
    let (bytes_50, peak_50) = client.export_all().await;
    add_clinical_results(&mut client, &patient, 150).await;
    let (bytes_200, peak_200) = client.export_all().await;

    eprintln!(
        "50 analyses: {bytes_50} bytes streamed, peak +{peak_50} B; \
         200 analyses: {bytes_200} bytes streamed, peak +{peak_200} B"
    );
    assert!(bytes_200 > bytes_50 * 3, "{bytes_50} -> {bytes_200}");
    // Built in memory, the extra 150 entries would add about their size to the peak.
    let extra_output = bytes_200 - bytes_50;
    assert!(
        peak_200 < peak_50 + extra_output / 4,
        "peak grew from {peak_50} to {peak_200} B for {extra_output} more bytes of archive"
    );
    let _ = std::fs::remove_dir_all(dir);
}
