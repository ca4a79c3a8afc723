//! `cardio admin grant|revoke EMAIL` and `cardio admin list`: who may change the server-wide
//! settings (encryption at rest, backups, storage figures), on the same `DATABASE_URL` as
//! `cardio serve`. The first account of an installation is an administrator already; the last one
//! cannot be revoked. See [`cardio_server::accounts::auth::admin`].

use anyhow::Context;
use cardio_server::{
    accounts::auth::{admin, email::Email},
    platform::config::DEFAULT_DATABASE_URL,
    platform::db::{now_ms, Db},
};

/// Flags of `cardio admin`.
#[derive(clap::Args)]
pub struct AdminArgs {
    #[command(subcommand)]
    action: AdminAction,
    /// sqlite://PATH or postgres://..., the database `cardio serve` uses.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true, global = true)]
    database_url: String,
}

#[derive(clap::Subcommand)]
enum AdminAction {
    /// Make the account with this e-mail address an administrator.
    Grant {
        /// The account's e-mail address.
        email: String,
    },
    /// Stop the account with this e-mail address being an administrator (not the last one).
    Revoke {
        /// The account's e-mail address.
        email: String,
    },
    /// List the administrators, oldest account first.
    List,
}

/// Runs `cardio admin`.
pub async fn run(args: AdminArgs) -> anyhow::Result<()> {
    let db = Db::connect(&args.database_url)
        .await
        .context("cannot open the database")?;
    let result = act(&db, args.action).await;
    db.pool.close().await;
    result
}

async fn act(db: &Db, action: AdminAction) -> anyhow::Result<()> {
    match action {
        AdminAction::Grant { email } => {
            let email = parse_email(&email)?;
            let outcome = admin::grant(db, email.as_str(), now_ms()).await?;
            report(&email, outcome, "is now", "was already");
        }
        AdminAction::Revoke { email } => {
            let email = parse_email(&email)?;
            let outcome = admin::revoke(db, email.as_str(), now_ms()).await?;
            report(&email, outcome, "is no longer", "was not");
        }
        AdminAction::List => {
            for a in admin::list(db).await? {
                println!("{}\t{}", a.email, a.role);
            }
        }
    }
    Ok(())
}

/// Prints what a grant or revoke did: `changed` or `unchanged`, then "an administrator".
fn report(email: &Email, outcome: admin::Outcome, changed: &str, unchanged: &str) {
    let verb = match outcome {
        admin::Outcome::Changed => changed,
        admin::Outcome::Unchanged => unchanged,
    };
    println!("{} {verb} an administrator", email.as_str());
}

fn parse_email(text: &str) -> anyhow::Result<Email> {
    Email::parse(text).map_err(|message| anyhow::anyhow!("{text:?}: {message}"))
}
