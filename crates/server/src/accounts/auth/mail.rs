//! Outgoing mail (email verification, password reset) through a pluggable sender: SMTP when
//! `CARDIO_SMTP_URL` is set (lettre over rustls), otherwise an outbox folder `<data dir>/outbox/`
//! where each message is written as an `.eml` file, so that a single-machine install works without a
//! mail server. The log line names the message (its kind, file and token selector) and never the
//! token's secret part.

use std::path::PathBuf;

use lettre::{
    message::{
        header::{ContentTransferEncoding, ContentType},
        Body, Mailbox,
    },
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
};

use crate::platform::config::Config;
pub use crate::platform::config::{MailConfig, DEFAULT_FROM};

/// The folder under the data dir where messages go when no SMTP server is configured.
pub const OUTBOX_DIR: &str = "outbox";

/// Why a message could not be sent.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The sender or recipient is not a valid mailbox.
    #[error("invalid mail address: {0}")]
    Address(#[from] lettre::address::AddressError),
    /// The message could not be built.
    #[error("cannot build the message: {0}")]
    Build(#[from] lettre::error::Error),
    /// The SMTP server refused the message or could not be reached.
    #[error("SMTP: {0}")]
    Smtp(#[from] lettre::transport::smtp::Error),
    /// The outbox file could not be written.
    #[error("cannot write to the outbox: {0}")]
    Io(#[from] std::io::Error),
}

/// One message to send.
pub struct Mail<'a> {
    /// Recipient address.
    pub to: &'a str,
    /// Subject line.
    pub subject: &'a str,
    /// Plain-text body (ASCII, so that the link stays readable in the raw message).
    pub text: String,
    /// What the message is, for the log and the outbox file name (`verify-email`, ...).
    pub kind: &'static str,
    /// The token's public part (the selector), to tell messages apart in the log.
    pub selector: &'a str,
}

/// The base of links in messages, without a trailing slash.
pub fn public_base(config: &Config) -> String {
    config.mail.public_url.as_deref().map_or_else(
        || format!("http://{}", config.addr),
        |url| url.trim_end_matches('/').to_owned(),
    )
}

/// The body as 7-bit text when it is plain ASCII with lines well under RFC 5322's 998-byte limit,
/// so that links are not quoted-printable encoded (lettre's chooser wraps at 76 characters) and
/// stay whole and clickable in the raw message; anything else is left to lettre to encode.
fn plain_body(text: &str) -> Body {
    let seven_bit = text.is_ascii()
        && !text.contains(['\0', '\r'])
        && text.lines().all(|line| line.len() <= 900);
    if seven_bit {
        let crlf = text.replace('\n', "\r\n");
        Body::dangerous_pre_encoded(crlf.into_bytes(), ContentTransferEncoding::SevenBit)
    } else {
        Body::new(text.to_owned())
    }
}

/// Sends `mail` by SMTP when configured, else writes it into the outbox folder. Returns where it
/// went (the outbox file, or `None` for SMTP).
///
/// # Errors
/// See [`MailError`].
pub async fn send(config: &Config, mail: &Mail<'_>) -> Result<Option<PathBuf>, MailError> {
    let message = Message::builder()
        .from(config.mail.from.parse::<Mailbox>()?)
        .to(mail.to.parse::<Mailbox>()?)
        .subject(mail.subject)
        .header(ContentType::TEXT_PLAIN)
        .body(plain_body(&mail.text))?;
    if let Some(url) = &config.mail.smtp_url {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)?.build();
        transport.send(message).await?;
        tracing::info!(kind = mail.kind, token = mail.selector, "mail sent by SMTP");
        return Ok(None);
    }
    let dir = config.data_dir.join(OUTBOX_DIR);
    tokio::fs::create_dir_all(&dir).await?;
    let name = format!(
        "{}-{}-{}.eml",
        crate::platform::db::now_ms(),
        mail.kind,
        mail.selector
    );
    let path = dir.join(&name);
    tokio::fs::write(&path, message.formatted()).await?;
    tracing::info!(
        kind = mail.kind,
        token = mail.selector,
        file = %path.display(),
        "mail written to the outbox (the link's secret part is only in the file)"
    );
    Ok(Some(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_output_never_shows_the_smtp_password() {
        let config = MailConfig {
            smtp_url: Some("smtps://cardio:hunter2@mail.example.org:465".into()),
            ..MailConfig::default()
        };
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
        assert!(printed.contains("smtps://cardio:***@mail.example.org:465"));
    }

    #[test]
    fn links_use_the_public_url_or_the_listening_address() {
        let mut config = Config::default();
        assert_eq!(public_base(&config), "http://127.0.0.1:8080");
        config.mail.public_url = Some("https://cardio.example.org/".into());
        assert_eq!(public_base(&config), "https://cardio.example.org");
    }

    #[tokio::test]
    async fn without_smtp_the_message_lands_in_the_outbox() {
        let dir = std::env::temp_dir().join(format!("cardio-mail-{}", uuid::Uuid::new_v4()));
        let config = Config {
            data_dir: dir.clone(),
            ..Config::default()
        };
        let mail = Mail {
            to: "ana@clinic.test",
            subject: "Hello",
            text: format!(
                "Open this link, longer than a quoted-printable line:\n\n\
                 http://127.0.0.1:8080/reset-password?token={}.{}\n",
                "a".repeat(24),
                "b".repeat(43)
            ),
            kind: "test",
            selector: "abc",
        };
        let path = send(&config, &mail).await.unwrap().unwrap();
        let raw = std::fs::read_to_string(&path).unwrap();
        assert!(path.starts_with(dir.join(OUTBOX_DIR)));
        assert!(raw.contains("To: ana@clinic.test"), "{raw}");
        assert!(raw.contains("Subject: Hello"), "{raw}");
        let link = format!(
            "http://127.0.0.1:8080/reset-password?token={}.{}\r\n",
            "a".repeat(24),
            "b".repeat(43)
        );
        assert!(raw.contains(&link), "{raw}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A minimal SMTP server on localhost that accepts one message and hands back its DATA.
    async fn fake_smtp_server() -> (u16, tokio::task::JoinHandle<String>) {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = tokio::spawn(async move {
            let (socket, _) = listener.accept().await.unwrap();
            let (read, mut write) = socket.into_split();
            let mut lines = BufReader::new(read).lines();
            write.write_all(b"220 fake ESMTP\r\n").await.unwrap();
            let mut data = String::new();
            let mut in_data = false;
            while let Some(line) = lines.next_line().await.unwrap() {
                if in_data {
                    if line == "." {
                        in_data = false;
                        write.write_all(b"250 queued\r\n").await.unwrap();
                    } else {
                        data.push_str(&line);
                        data.push('\n');
                    }
                    continue;
                }
                let reply: &[u8] = match line.get(..4).unwrap_or("").to_ascii_uppercase().as_str() {
                    "EHLO" | "HELO" => b"250 fake\r\n",
                    "DATA" => {
                        in_data = true;
                        b"354 go ahead\r\n"
                    }
                    "QUIT" => {
                        write.write_all(b"221 bye\r\n").await.unwrap();
                        break;
                    }
                    _ => b"250 ok\r\n",
                };
                write.write_all(reply).await.unwrap();
            }
            data
        });
        (port, server)
    }

    #[tokio::test]
    async fn with_smtp_configured_the_message_goes_to_the_server_and_not_the_outbox() {
        let (port, server) = fake_smtp_server().await;
        let dir = std::env::temp_dir().join(format!("cardio-mail-{}", uuid::Uuid::new_v4()));
        let config = Config {
            data_dir: dir.clone(),
            mail: MailConfig {
                smtp_url: Some(format!("smtp://127.0.0.1:{port}")),
                ..MailConfig::default()
            },
            ..Config::default()
        };
        let mail = Mail {
            to: "ana@clinic.test",
            subject: "Reset your Cardio password",
            text: "Open http://127.0.0.1:8080/reset-password?token=abc.def\n".into(),
            kind: "password-reset",
            selector: "abc",
        };

        let sent = send(&config, &mail).await.unwrap();

        assert_eq!(sent, None);
        let data = tokio::time::timeout(std::time::Duration::from_secs(10), server)
            .await
            .unwrap()
            .unwrap();
        assert!(data.contains("To: ana@clinic.test"), "{data}");
        assert!(
            data.contains("Subject: Reset your Cardio password"),
            "{data}"
        );
        assert!(data.contains("/reset-password?token=abc.def"), "{data}");
        assert!(!dir.join(OUTBOX_DIR).exists());
    }
}
