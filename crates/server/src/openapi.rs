//! The OpenAPI document, generated from the handlers' annotations (utoipa). The web client's types
//! are generated from it (`make gen-client`), and a test fails when the committed copy is stale.

use utoipa::OpenApi;

use crate::{auth, error::ErrorBody, health};

/// The API description.
#[derive(OpenApi)]
#[openapi(
    info(title = "Cardio API", description = "Cardiovascular screening workstation API."),
    paths(health::health, auth::signup, auth::login, auth::logout, auth::me),
    components(schemas(
        ErrorBody, health::Health, auth::User, auth::Role, auth::SignupRequest, auth::LoginRequest
    )),
    tags((name = "health"), (name = "auth", description = "Accounts and sessions"))
)]
pub struct ApiDoc;

/// The document as pretty JSON, with a trailing newline (the committed form).
pub fn json() -> String {
    let mut text = ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serialises");
    text.push('\n');
    text
}
