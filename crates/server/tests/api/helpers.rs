//! `TestApp`: the application on a throwaway database, a cookie jar, one method per endpoint.

use std::{
    future::Future,
    net::SocketAddr,
    path::PathBuf,
    sync::{Arc, Mutex, OnceLock},
    time::Duration,
};

use axum::{
    body::Body,
    extract::ConnectInfo,
    http::{header, HeaderMap, Method, Request, StatusCode},
    Router,
};
use cardio_server::{
    platform::clock::Clock, platform::config::Config, platform::db::Db,
    recordings::registry::ModelRegistry, AppState,
};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// Everything every test of this binary logged, at TRACE level.
static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();

#[derive(Clone)]
struct LogWriter(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Installs (once) a global TRACE subscriber that writes into memory. A global one, because
/// tracing caches per-callsite interest and a thread-scoped subscriber misses events when tests
/// run in parallel.
fn capture_logs() {
    LOGS.get_or_init(|| {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let writer = LogWriter(buffer.clone());
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("no other subscriber");
        buffer
    });
}

/// The logs captured so far.
pub fn captured_logs() -> String {
    let buffer = LOGS.get().expect("capture_logs ran").lock().unwrap();
    String::from_utf8_lossy(&buffer).into_owned()
}

/// Which database a test runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Generates one `#[tokio::test]` per backend for each listed `async fn name(app: TestApp)`.
#[macro_export]
macro_rules! backend_tests {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    $crate::helpers::run_on($crate::helpers::Backend::Sqlite, super::$name).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    $crate::helpers::run_on($crate::helpers::Backend::Postgres, super::$name).await;
                }
            )*
        }
    };
}

/// Runs a test body on a fresh database of `backend`, then drops the database, also when the
/// body panics (the panic is re-raised after cleanup).
pub async fn run_on<F, Fut>(backend: Backend, test: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(app) = TestApp::spawn(backend, Config::default()).await else {
        return;
    };
    let cleanup = app.cleanup_handle();
    let outcome = tokio::spawn(test(app)).await;
    cleanup.run().await;
    if let Err(err) = outcome {
        std::panic::resume_unwind(err.into_panic());
    }
}

/// What to remove after a test.
pub struct Cleanup {
    db: Db,
    sqlite_dir: Option<PathBuf>,
    postgres: Option<(String, String)>,
}

impl Cleanup {
    /// Closes the pool and removes the database.
    pub async fn run(self) {
        self.db.pool.close().await;
        if let Some(dir) = self.sqlite_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        if let Some((admin_url, name)) = self.postgres {
            let admin = sqlx::PgPool::connect(&admin_url)
                .await
                .expect("admin connection");
            sqlx::query(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                .execute(&admin)
                .await
                .expect("drop test database");
            admin.close().await;
        }
    }
}

/// One field of a multipart upload.
pub struct Part<'a> {
    pub name: &'a str,
    pub file_name: Option<&'a str>,
    pub content_type: Option<&'a str>,
    pub bytes: Vec<u8>,
}

impl<'a> Part<'a> {
    /// A file field named `file`.
    pub fn file(file_name: &'a str, content_type: Option<&'a str>, bytes: Vec<u8>) -> Self {
        Self {
            name: "file",
            file_name: Some(file_name),
            content_type,
            bytes,
        }
    }

    /// A text field.
    pub fn text(name: &'a str, value: &str) -> Self {
        Self {
            name,
            file_name: None,
            content_type: None,
            bytes: value.as_bytes().to_vec(),
        }
    }
}

/// A response, body parsed as JSON when it is JSON.
#[derive(Debug)]
pub struct TestResponse {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
    /// The raw body (for binary responses such as PDFs).
    pub bytes: Vec<u8>,
}

impl TestResponse {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {}", self.text))
    }

    pub fn detail(&self) -> String {
        self.json()["detail"]
            .as_str()
            .unwrap_or_else(|| panic!("no detail in {}", self.text))
            .to_owned()
    }

    pub fn set_cookie(&self) -> Option<String> {
        self.headers
            .get(header::SET_COOKIE)
            .map(|v| v.to_str().unwrap().to_owned())
    }
}

/// The application under test, with a browser-like cookie jar and client address.
#[derive(Clone)]
pub struct TestApp {
    pub router: Router,
    pub db: Db,
    pub config: Config,
    pub backend: Backend,
    pub cookie: Option<String>,
    pub client_addr: SocketAddr,
    pub origin: Option<String>,
    /// The server's clock: `app.clock.advance(..)` lets time pass without sleeping.
    pub clock: Clock,
    sqlite_dir: Option<PathBuf>,
    postgres: Option<(String, String)>,
}

impl TestApp {
    /// The app on a new database; `None` for PostgreSQL when no server is configured.
    pub async fn spawn(backend: Backend, mut config: Config) -> Option<Self> {
        capture_logs();
        let id = uuid::Uuid::new_v4().simple().to_string();
        let dir = std::env::temp_dir().join(format!("cardio-test-{id}"));
        let (url, sqlite_dir, postgres) = match backend {
            Backend::Sqlite => {
                let url = format!("sqlite://{}/cardio.db", dir.display());
                (url, Some(dir.clone()), None)
            }
            Backend::Postgres => {
                let admin_url = cardio_testkit::postgres_url()?;
                let name = format!("cardio_test_{id}");
                let admin = sqlx::PgPool::connect(&admin_url)
                    .await
                    .expect("admin connection");
                sqlx::query(&format!("CREATE DATABASE \"{name}\""))
                    .execute(&admin)
                    .await
                    .expect("create test database");
                admin.close().await;
                let base = admin_url
                    .rsplit_once('/')
                    .map_or(admin_url.as_str(), |(b, _)| b);
                (
                    format!("{base}/{name}"),
                    Some(dir.clone()),
                    Some((admin_url.clone(), name)),
                )
            }
        };
        config.database_url = url;
        config.data_dir = dir;
        config.web_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/api/fixtures/web");
        let db = Db::connect(&config.database_url)
            .await
            .expect("database opens");
        let state = AppState::new(db.clone(), config.clone());
        let clock = state.clock.clone();
        let router = cardio_server::app(state);
        Some(Self {
            router,
            db,
            config,
            backend,
            cookie: None,
            client_addr: "203.0.113.7:40000".parse().unwrap(),
            origin: None,
            clock,
            sqlite_dir,
            postgres,
        })
    }

    /// Rebuilds the router over the same database with another configuration and models (the
    /// cookie jar is kept).
    pub fn rebuild(&mut self, config: Config, models: ModelRegistry) {
        let mut state = AppState::with_models(self.db.clone(), config.clone(), models);
        state.clock = self.clock.clone();
        self.router = cardio_server::app(state);
        self.config = config;
    }

    /// The same signed-in browser in a second tab: requests from both can be in flight at once.
    /// The database is cleaned up once, through the handle [`run_on`] takes from the first.
    pub fn second_tab(&self) -> TestApp {
        self.clone()
    }

    /// What to remove once the test is over.
    pub fn cleanup_handle(&self) -> Cleanup {
        Cleanup {
            db: self.db.clone(),
            sqlite_dir: self.sqlite_dir.clone(),
            postgres: self.postgres.clone(),
        }
    }

    /// Sends a request as a browser would: with the jar's cookie and the test's client address.
    pub async fn request(
        &mut self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> TestResponse {
        self.request_with(method, path, body, &[]).await
    }

    pub async fn request_with(
        &mut self,
        method: Method,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> TestResponse {
        let mut builder = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "127.0.0.1:8080");
        if let Some(cookie) = &self.cookie {
            builder = builder.header(header::COOKIE, cookie.as_str());
        }
        if let Some(origin) = &self.origin {
            builder = builder.header(header::ORIGIN, origin.as_str());
        }
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        let body = match body {
            Some(json) => {
                builder = builder.header(header::CONTENT_TYPE, "application/json");
                Body::from(json.to_string())
            }
            None => Body::empty(),
        };
        self.send(builder.body(body).unwrap()).await
    }

    /// Sends a multipart/form-data POST, as a browser's `FormData` upload does.
    pub async fn upload(&mut self, path: &str, parts: &[Part<'_>]) -> TestResponse {
        self.upload_with(path, parts, &[]).await
    }

    /// [`Self::upload`] with extra headers (a device's `Authorization: Bearer`).
    pub async fn upload_with(
        &mut self,
        path: &str,
        parts: &[Part<'_>],
        headers: &[(&str, &str)],
    ) -> TestResponse {
        let boundary = "----cardio-test-boundary-7MA4YWxkTrZu0gW";
        let mut body = Vec::new();
        for part in parts {
            body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
            let mut disposition = format!("Content-Disposition: form-data; name=\"{}\"", part.name);
            if let Some(file_name) = part.file_name {
                disposition = format!("{disposition}; filename=\"{file_name}\"");
            }
            body.extend_from_slice(disposition.as_bytes());
            body.extend_from_slice(b"\r\n");
            if let Some(content_type) = part.content_type {
                body.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
            }
            body.extend_from_slice(b"\r\n");
            body.extend_from_slice(&part.bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        let mut builder = Request::builder()
            .method(Method::POST)
            .uri(path)
            .header(header::HOST, "127.0.0.1:8080")
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={boundary}"),
            );
        if let Some(cookie) = &self.cookie {
            builder = builder.header(header::COOKIE, cookie.as_str());
        }
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        self.send(builder.body(Body::from(body)).unwrap()).await
    }

    async fn send(&mut self, mut request: Request<Body>) -> TestResponse {
        request
            .extensions_mut()
            .insert(ConnectInfo(self.client_addr));
        let response = self.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let result = TestResponse {
            status,
            headers,
            text: String::from_utf8_lossy(&bytes).into_owned(),
            bytes: bytes.to_vec(),
        };
        listed_error_code(&result);
        self.store_cookie(&result);
        result
    }

    fn store_cookie(&mut self, response: &TestResponse) {
        let Some(set_cookie) = response.set_cookie() else {
            return;
        };
        let pair = set_cookie.split(';').next().unwrap().trim().to_owned();
        if set_cookie.contains("Max-Age=0") {
            self.cookie = None;
        } else {
            self.cookie = Some(pair);
        }
    }

    pub async fn get(&mut self, path: &str) -> TestResponse {
        self.request(Method::GET, path, None).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> TestResponse {
        self.request(Method::POST, path, Some(body)).await
    }

    pub async fn signup(
        &mut self,
        name: &str,
        email: &str,
        password: &str,
        role: &str,
    ) -> TestResponse {
        self.post(
            "/api/auth/signup",
            json!({"full_name": name, "email": email, "password": password, "role": role}),
        )
        .await
    }

    pub async fn login(&mut self, email: &str, password: &str) -> TestResponse {
        self.post(
            "/api/auth/login",
            json!({"email": email, "password": password}),
        )
        .await
    }

    pub async fn logout(&mut self) -> TestResponse {
        self.request(Method::POST, "/api/auth/logout", None).await
    }

    pub async fn me(&mut self) -> TestResponse {
        self.get("/api/auth/me").await
    }

    /// Signs up a doctor with a fresh email and returns that email.
    /// Saves the signed-in user's interface language (the language of their reports and mail).
    pub async fn set_language(&mut self, language: &str) {
        let settings = self
            .request(
                Method::PUT,
                "/api/settings",
                Some(json!({
                    "theme": "auto", "language": language, "notifyTestResults": true,
                    "notifyDeviceAlerts": true, "notifyPatientUpdates": false, "sessionTimeout": "30m",
                })),
            )
            .await;
        assert_eq!(settings.status, StatusCode::OK, "{}", settings.text);
    }

    pub async fn signed_in_doctor(&mut self) -> String {
        let email = format!("doc-{}@clinic.test", uuid::Uuid::new_v4().simple());
        let response = self
            .signup("Ana Ruiz", &email, "secret-pass", "doctor")
            .await;
        assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
        email
    }
}

/// A valid intake form; tests override fields with `merge`.
pub fn patient_form() -> Value {
    json!({
        "firstName": "María",
        "lastName": "López",
        "dateOfBirth": "1961-04-12",
        "gender": "female",
        "phone": "+34 600 123 456",
    })
}

/// `base` with the fields of `changes` replaced.
pub fn merge(mut base: Value, changes: Value) -> Value {
    if let (Some(base), Value::Object(changes)) = (base.as_object_mut(), changes) {
        base.extend(changes);
    }
    base
}

/// The seven clinical parameters at the prototype modal's defaults.
pub fn clinical_form() -> Value {
    json!({
        "age": 50, "chest_pain_type": 0, "cholesterol": 200, "fasting_blood_sugar": 100,
        "exercise_induced_angina": 0, "vessels_colored_by_flourosopy": 0, "thalassemia": 0,
    })
}

impl TestApp {
    pub async fn patch(&mut self, path: &str, body: Value) -> TestResponse {
        self.request(Method::PATCH, path, Some(body)).await
    }

    /// Creates a patient and returns its id.
    pub async fn create_patient(&mut self, form: Value) -> String {
        let response = self.post("/api/patients", form).await;
        assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
        response.json()["id"].as_str().unwrap().to_owned()
    }

    /// A new screening of `patient`; its id.
    pub async fn create_screening(&mut self, patient: &str) -> String {
        let response = self
            .post("/api/screenings", json!({"patient_id": patient}))
            .await;
        assert_eq!(response.status, StatusCode::CREATED, "{}", response.text);
        response.json()["id"].as_str().unwrap().to_owned()
    }

    /// Uploads a 4-minute single-lead ECG (longer than 60 s, so it is read whole, as a Holter);
    /// the analysis id.
    pub async fn upload_long_ecg(&mut self) -> String {
        let response = self
            .upload(
                "/api/predict/ecg/upload",
                &[Part::file(
                    "holter.csv",
                    Some("text/csv"),
                    crate::predict::realistic_ecg_csv(240.0),
                )],
            )
            .await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text);
        response.json()["analysis_id"].as_str().unwrap().to_owned()
    }

    /// The actions of the signed-in user's audit trail, oldest first, as "action entity".
    pub async fn audit_actions(&mut self) -> Vec<String> {
        let response = self.get("/api/audit?limit=500").await;
        assert_eq!(response.status, StatusCode::OK, "{}", response.text);
        let mut actions: Vec<String> = response
            .json()
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                format!(
                    "{} {}",
                    e["action"].as_str().unwrap(),
                    e["entity"].as_str().unwrap()
                )
            })
            .collect();
        actions.reverse();
        actions
    }
}

/// Waits a moment (timestamps are in milliseconds; tests that compare them need a tick).
pub async fn tick() {
    tokio::time::sleep(Duration::from_millis(5)).await;
}

/// Every error any API test provokes carries a code of the table of error sentences
/// (`crates/server/catalogue`), so that the web app can show it in Spanish and French: an
/// unlisted sentence fails the test that provoked it, naming the sentence.
fn listed_error_code(response: &TestResponse) {
    if response.status.as_u16() < 400 {
        return;
    }
    let Ok(body) = serde_json::from_str::<Value>(&response.text) else {
        return;
    };
    let Some(detail) = body.get("detail").and_then(Value::as_str) else {
        return;
    };
    let code = body.get("code").and_then(Value::as_str);
    assert!(
        code.is_some_and(|c| c != cardio_server::platform::error_codes::UNLISTED),
        "the error sentence {detail:?} has no code in crates/server/catalogue/en.json"
    );
}
