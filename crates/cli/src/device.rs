//! `cardio device simulate`: plays a recording (a dataset record, a CSV, a WAV) as a network device,
//! for tests and demonstrations.
//!
//! It does what a clinic device does with the token the Devices page showed once: a heartbeat
//! (`POST /api/devices/heartbeat`), then the recording (`POST /api/devices/recordings`, multipart,
//! field `file`, optional `sampling_rate`), both with `Authorization: Bearer <token>`; with
//! `--repeat N` it sends it N times, `--every` seconds apart, with a heartbeat before each. It prints
//! one JSON line per recording received (id, analysis result). The token is never printed.
//!
//! ```text
//! cardio device simulate --type ecg --file data/mitdb/100.csv --url http://127.0.0.1:8080 --token cdv_...
//! ```

use std::{path::PathBuf, time::Duration};

use anyhow::{bail, Context};
use clap::{Args, Subcommand, ValueEnum};

/// `cardio device ...`.
#[derive(Args)]
pub struct DeviceArgs {
    #[command(subcommand)]
    command: DeviceCommand,
}

#[derive(Subcommand)]
enum DeviceCommand {
    /// Play a recording as a network device: heartbeat, then push it to the server.
    Simulate(SimulateArgs),
}

/// What the simulated device records.
#[derive(Clone, Copy, ValueEnum)]
enum DeviceKind {
    Ecg,
    Pcg,
    Ppg,
}

#[derive(Args)]
struct SimulateArgs {
    /// The device's type; the server analyses with the type it registered the device with.
    #[arg(long = "type", value_enum)]
    kind: DeviceKind,
    /// The recording (repeat for a WFDB record: the .hea header and its .dat signal file).
    #[arg(long, required = true)]
    file: Vec<PathBuf>,
    /// The server, e.g. http://127.0.0.1:8080.
    #[arg(long, env = "CARDIO_URL", default_value = "http://127.0.0.1:8080")]
    url: String,
    /// The device token shown when the device was registered.
    #[arg(long, env = "CARDIO_DEVICE_TOKEN", hide_env_values = true)]
    token: String,
    /// Samples per second, for a file of bare values.
    #[arg(long)]
    sampling_rate: Option<f64>,
    /// How many times to send the recording.
    #[arg(long, default_value_t = 1)]
    repeat: u32,
    /// Seconds between two sends.
    #[arg(long, default_value_t = 30.0)]
    every: f64,
}

/// Runs `cardio device ...`.
///
/// # Errors
/// A file that cannot be read, a server that cannot be reached or refuses the token or the file.
pub fn run(args: DeviceArgs) -> anyhow::Result<()> {
    match args.command {
        DeviceCommand::Simulate(args) => simulate(&args),
    }
}

fn simulate(args: &SimulateArgs) -> anyhow::Result<()> {
    let files = args
        .file
        .iter()
        .map(|path| {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let name = path.file_name().map_or_else(
                || "recording".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            );
            Ok((name, bytes))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let base = args.url.trim_end_matches('/');
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_mins(1))
        .build();
    let bearer = format!("Bearer {}", args.token.trim());
    let kind = match args.kind {
        DeviceKind::Ecg => "ecg",
        DeviceKind::Pcg => "pcg",
        DeviceKind::Ppg => "ppg",
    };
    for round in 0..args.repeat {
        if round > 0 {
            std::thread::sleep(Duration::from_secs_f64(args.every.max(0.0)));
        }
        call(
            agent
                .post(&format!("{base}/api/devices/heartbeat"))
                .set("Authorization", &bearer)
                .send_bytes(&[]),
            "heartbeat",
        )?;
        let (content_type, body) = multipart(&files, args.sampling_rate);
        let answer = call(
            agent
                .post(&format!("{base}/api/devices/recordings"))
                .set("Authorization", &bearer)
                .set("Content-Type", &content_type)
                .send_bytes(&body),
            "recording",
        )?;
        let received: serde_json::Value =
            serde_json::from_str(&answer).context("the server's answer is not JSON")?;
        let result = &received["analysis"]["result"];
        println!(
            "{}",
            serde_json::json!({
                "type": kind,
                "recording_id": received["id"],
                "device": received["deviceName"],
                "file": received["fileName"],
                "prediction": result["prediction"],
                "confidence": result["confidence"],
                "risk_score": result["risk_score"],
            })
        );
    }
    Ok(())
}

/// The body of a multipart/form-data request with the files and the optional rate.
fn multipart(files: &[(String, Vec<u8>)], sampling_rate: Option<f64>) -> (String, Vec<u8>) {
    let boundary = format!("cardio-device-{}", std::process::id());
    let mut body = Vec::new();
    for (name, bytes) in files {
        let safe = name.replace(['"', '\r', '\n'], "_");
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{safe}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    if let Some(rate) = sampling_rate {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"sampling_rate\"\r\n\r\n{rate}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// The body of a successful answer, or an error with the server's `detail`.
fn call(result: Result<ureq::Response, ureq::Error>, what: &str) -> anyhow::Result<String> {
    match result {
        Ok(response) => response
            .into_string()
            .with_context(|| format!("cannot read the {what} answer")),
        Err(ureq::Error::Status(status, response)) => {
            let text = response.into_string().unwrap_or_default();
            let detail = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v["detail"].as_str().map(str::to_owned))
                .unwrap_or(text);
            bail!("the server refused the {what} ({status}): {detail}")
        }
        Err(err) => Err(anyhow::Error::new(err).context(format!("cannot send the {what}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_multipart_body_holds_each_file_and_the_rate() {
        let (content_type, body) = multipart(
            &[
                ("100.hea".into(), b"h".to_vec()),
                ("100.dat".into(), b"d".to_vec()),
            ],
            Some(250.0),
        );
        let text = String::from_utf8(body).unwrap();
        let boundary = content_type.split("boundary=").nth(1).unwrap();
        assert_eq!(text.matches(&format!("--{boundary}\r\n")).count(), 3);
        assert!(text.contains("filename=\"100.hea\""));
        assert!(text.contains("filename=\"100.dat\""));
        assert!(text.contains("name=\"sampling_rate\"\r\n\r\n250\r\n"));
        assert!(text.ends_with(&format!("--{boundary}--\r\n")));
    }
}
