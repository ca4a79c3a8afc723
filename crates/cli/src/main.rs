//! `cardio`: the command-line entry point. Thin: parses flags, sets up logging, calls the crates.
//!
//! - `cardio serve [--addr HOST:PORT]` runs the API and the web app.
//! - `cardio analyze FILE` prints the signal analysis of a recording as JSON.
//! - `cardio convert IN OUT` writes any recording the readers take as EDF+, WFDB or CSV (by OUT's
//!   extension).
//! - `cardio eval signal [--datasets DIR] [--only mitdb,bidmc,ieee,pcg] [--json]` validates the signal
//!   core on the public datasets and prints the tables.
//! - `cardio eval clinical`, `cardio train clinical`, `cardio predict clinical FILE.csv`: the clinical
//!   risk model (validation table, refit of the committed parameters, batch scoring).
//! - `cardio train|eval ecg|pcg|ppg`: refit a signal model / print its card's validation table.
//! - `cardio predict ecg|pcg|ppg FILE... [--sampling-rate HZ] [--format csv|json] [--jobs N]`: the
//!   signal models, files in parallel.
//! - `cardio openapi` prints the OpenAPI document (used by `make gen-client`).
//! - `cardio backup [--keep N]` backs up a SQLite database and the blob store into
//!   `<data dir>/backups/<UTC time>/`; `cardio restore DIR` restores one into an empty data folder.
//! - `cardio blobs migrate --to s3://bucket/prefix` copies the blob store into an S3-compatible
//!   bucket and verifies every hash there.
//! - `cardio admin grant|revoke EMAIL`, `cardio admin list`: who administers the server-wide
//!   settings (same `DATABASE_URL` as `serve`).
//! - `cardio device simulate --type ecg --file F --url URL --token T` plays a recording as a network
//!   device (heartbeat, then the recording pushed with the device's token).

mod admin;
mod analyze;
mod backup;
mod blobs;
mod clinical;
mod convert;
mod datasets;
mod device;
mod eval;
mod gate;
mod inputs;
mod murmur;
mod predict;
mod signal_models;
mod train;

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use anyhow::Context;
use cardio_server::platform::config::{Config, DEFAULT_ADDR, DEFAULT_DATABASE_URL};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "cardio",
    version,
    about = "Cardiovascular screening workstation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API under /api and the web app at /.
    Serve(ServeArgs),
    /// Analyse a recording (ECG, PPG or PCG) and print beats, heart rate, HRV and quality as JSON.
    Analyze(analyze::AnalyzeArgs),
    /// Convert a recording to EDF+ (.edf), WFDB (.hea + .dat) or CSV (.csv), by OUT's extension.
    Convert(convert::ConvertArgs),
    /// Validate against the public datasets and print the tables (`cardio eval signal|clinical`).
    Eval(eval::EvalArgs),
    /// Refit a model's committed parameters from $CARDIO_DATASETS (`cardio train clinical`).
    Train(train::TrainArgs),
    /// Score inputs with a model (`cardio predict clinical FILE.csv`, `cardio predict ecg FILE...`).
    Predict(clinical::PredictArgs),
    /// Print the OpenAPI document as JSON.
    Openapi,
    /// Back up the SQLite database and the blob store into <data dir>/backups/<UTC time>/.
    Backup(backup::BackupArgs),
    /// Restore a backup folder into an empty data folder and a new SQLite database.
    Restore(backup::RestoreArgs),
    /// Network device tools (`cardio device simulate`).
    Device(device::DeviceArgs),
    /// Manage administrators, who alone change server-wide settings (`cardio admin grant EMAIL`).
    Admin(admin::AdminArgs),
    /// Blob store tools (`cardio blobs migrate --to s3://bucket/prefix`).
    Blobs(blobs::BlobsArgs),
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "CARDIO_ADDR", default_value = DEFAULT_ADDR)]
    addr: SocketAddr,
    /// sqlite://PATH or postgres://...; a SQLite file is created on first start.
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true)]
    database_url: String,
    /// Folder for uploads and recordings.
    #[arg(long, env = "CARDIO_DATA_DIR", default_value = "./data")]
    data_dir: PathBuf,
    /// Keep the recordings in an S3-compatible bucket instead of <data dir>/blobs:
    /// s3://bucket/prefix, with AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
    /// AWS_REGION and AWS_ALLOW_HTTP from the environment. Instances sharing a bucket need the same
    /// CARDIO_DATA_KEY.
    #[arg(long, env = "CARDIO_BLOB_URL")]
    blob_url: Option<String>,
    /// Folder of the built web app.
    #[arg(long, env = "CARDIO_WEB_DIR", default_value = "./web/dist")]
    web_dir: PathBuf,
    /// Mark the session cookie Secure (serve over https).
    #[arg(long, env = "CARDIO_SECURE_COOKIES", default_value_t = false)]
    secure_cookies: bool,
    /// Hours a session lasts after sign-in.
    #[arg(long, env = "CARDIO_SESSION_TTL_HOURS", default_value_t = 12)]
    session_ttl_hours: u64,
    /// Extra origins allowed to send state-changing requests (comma-separated).
    #[arg(long, env = "CARDIO_ALLOWED_ORIGINS", value_delimiter = ',')]
    allowed_origins: Vec<String>,
    /// Largest recording upload in MiB (a 24-hour Holter is 50-250 MB); larger uploads are
    /// answered 413.
    #[arg(
        long,
        env = "CARDIO_MAX_UPLOAD_MB",
        default_value_t = cardio_server::platform::config::DEFAULT_MAX_UPLOAD_BYTES / (1024 * 1024)
    )]
    max_upload_mb: usize,
    /// SMTP server for verification and password-reset mail: smtps://user:pass@host:465 (TLS),
    /// smtp://user:pass@host:587?tls=required (STARTTLS) or smtp://host:25 (no TLS); without it,
    /// messages are written to <data dir>/outbox/.
    #[arg(long, env = "CARDIO_SMTP_URL", hide_env_values = true)]
    smtp_url: Option<String>,
    /// The From: address of those messages.
    #[arg(long, env = "CARDIO_MAIL_FROM", default_value = cardio_server::accounts::auth::mail::DEFAULT_FROM)]
    mail_from: String,
    /// The address people reach the web app at, the base of links in messages
    /// [default: http://<addr>].
    #[arg(long, env = "CARDIO_PUBLIC_URL")]
    public_url: Option<String>,
    /// How many backups the daily backup keeps (the newest).
    #[arg(long, env = "CARDIO_BACKUP_KEEP", default_value_t = cardio_server::platform::config::DEFAULT_BACKUP_KEEP)]
    backup_keep: usize,
    /// Reverse proxies (addresses or networks, comma-separated) whose X-Forwarded-For header
    /// names the client; from any other peer the header is ignored.
    #[arg(long, env = "CARDIO_TRUSTED_PROXIES", value_delimiter = ',', value_parser = cardio_server::platform::client_addr::parse_trusted_proxy)]
    trusted_proxies: Vec<cardio_server::ipnet::IpNet>,
    /// Sign-ups allowed per client address an hour.
    #[arg(long, env = "CARDIO_SIGNUPS_PER_HOUR", default_value_t = cardio_server::accounts::auth::rate_limit::MAX_SIGNUPS_PER_CLIENT)]
    signups_per_hour: u32,
}

/// mimalloc instead of the system allocator. glibc's raises its mmap threshold after the first
/// large free, then keeps later large blocks (a 19 MiB Argon2 hash, a decoded recording) in its
/// arenas: 40 sign-ups one after another left the server at 384 MB resident, against 42 MB with a
/// fixed threshold. mimalloc gives freed memory back to the system.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Device(args) => {
            // ureq blocks: off the async executor.
            if let Err(err) = tokio::task::spawn_blocking(move || device::run(args)).await? {
                eprintln!("cardio device: {err:#}");
                std::process::exit(2);
            }
            Ok(())
        }
        Command::Openapi => {
            print!("{}", cardio_server::openapi::json());
            Ok(())
        }
        Command::Serve(args) => serve(args).await,
        Command::Backup(args) => backup::backup(args).await,
        Command::Admin(args) => admin::run(args).await,
        Command::Blobs(args) => {
            // The S3 client runs its own runtime and blocks: off the async executor.
            match tokio::task::spawn_blocking(move || blobs::run(args)).await? {
                Ok(true) => {}
                Ok(false) => std::process::exit(1),
                Err(err) => {
                    eprintln!("cardio blobs: {err:#}");
                    std::process::exit(2);
                }
            }
            Ok(())
        }
        Command::Restore(args) => backup::restore(args).await,
        Command::Analyze(args) => {
            if let Err(err) = analyze::run(&args) {
                eprintln!("cardio analyze: {err:#}");
                std::process::exit(2);
            }
            Ok(())
        }
        Command::Convert(args) => {
            if let Err(err) = convert::run(&args) {
                eprintln!("cardio convert: {err:#}");
                std::process::exit(2);
            }
            Ok(())
        }
        Command::Train(args) => {
            if let Err(err) = train::run(&args) {
                eprintln!("cardio train: {err:#}");
                std::process::exit(2);
            }
            Ok(())
        }
        Command::Predict(args) => {
            match clinical::predict(&args) {
                Ok(true) => {}
                Ok(false) => std::process::exit(1),
                Err(err) => {
                    eprintln!("cardio predict: {err:#}");
                    std::process::exit(2);
                }
            }
            Ok(())
        }
        Command::Eval(args) => {
            match eval::run(&args) {
                Ok(true) => {}
                Ok(false) => std::process::exit(1),
                Err(err) => {
                    eprintln!("cardio eval: {err:#}");
                    std::process::exit(2);
                }
            }
            Ok(())
        }
    }
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .init();
    let config = Config {
        addr: args.addr,
        database_url: args.database_url,
        data_dir: args.data_dir,
        web_dir: args.web_dir,
        secure_cookies: args.secure_cookies,
        session_ttl: Duration::from_secs(args.session_ttl_hours * 3600),
        allowed_origins: args.allowed_origins,
        max_upload_bytes: args.max_upload_mb.saturating_mul(1024 * 1024),
        mail: cardio_server::accounts::auth::mail::MailConfig {
            smtp_url: args.smtp_url,
            from: args.mail_from,
            public_url: args.public_url,
        },
        data_key: backup::data_key_from_env()?,
        blob_url: args.blob_url.filter(|url| !url.trim().is_empty()),
        backup_keep: args.backup_keep,
        trusted_proxies: args.trusted_proxies,
        header_read_timeout: cardio_server::platform::config::DEFAULT_HEADER_READ_TIMEOUT,
        max_connections: cardio_server::platform::config::DEFAULT_MAX_CONNECTIONS,
        signups_per_hour: args.signups_per_hour,
    };
    std::fs::create_dir_all(&config.data_dir).context("cannot create the data folder")?;
    tracing::info!(?config, "starting");
    let app = cardio_server::Application::build(config)
        .await
        .context("cannot start the server")?;
    // Scripts (make run, the e2e runner) read this line to learn the address.
    println!("cardio listening on http://{}", app.local_addr());
    app.run_until_stopped().await.context("server failed")?;
    Ok(())
}
