//! The HTTP/1.1 server loop: accepts connections and serves the [`Router`] on each, with two
//! limits `axum::serve` does not set, so that slow clients cannot pin the server (a slowloris):
//!
//! - a **header-read timeout** ([`Config::header_read_timeout`]): a connection that has not sent
//!   a request's headers in time, or sits idle between keep-alive requests for as long, is
//!   closed (hyper's own timer, which axum leaves unset);
//! - a **connection limit** ([`Config::max_connections`]): at most that many connections are
//!   served at once; the loop stops accepting until one closes, so new ones wait in the kernel's
//!   listen backlog instead of taking memory.
//!
//! On shutdown it stops accepting and lets open connections finish their requests. HTTP/1.1
//! only: browsers speak it to a plain-http server, and a TLS proxy in front terminates HTTP/2.
//!
//! [`Config::header_read_timeout`]: crate::platform::config::Config::header_read_timeout
//! [`Config::max_connections`]: crate::platform::config::Config::max_connections

use std::{future::Future, sync::Arc, time::Duration};

use axum::{
    body::Body,
    extract::{ConnectInfo, Request},
    Router,
};
use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioIo, TokioTimer},
    server::graceful::GracefulShutdown,
    service::TowerToHyperService,
};
use tokio::{net::TcpListener, sync::Semaphore};
use tower::ServiceExt;

/// The limits of [`serve`].
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// See the module documentation.
    pub header_read_timeout: Duration,
    /// See the module documentation.
    pub max_connections: usize,
}

/// Serves `router` on `listener` until `shutdown` completes, then waits for the open connections
/// to finish. Each request carries its peer's address as `ConnectInfo<SocketAddr>`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => permit.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of file descriptors and the like: wait a moment instead of spinning.
                    tracing::warn!(%err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let service = router
            .clone()
            .map_request(move |request: Request<Incoming>| {
                let mut request = request.map(Body::new);
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            });
        let connection =
            builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(%err, "connection ended with an error");
            }
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use std::net::SocketAddr;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    async fn start(limits: Limits) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let router = Router::new().route(
            "/",
            get(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move { peer.ip().to_string() }),
        );
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(serve(listener, router, limits, async {
            let _ = stopped.await;
        }));
        (addr, stop)
    }

    /// Reads until the server closes the connection; what it sent.
    async fn read_to_close(stream: &mut tokio::net::TcpStream) -> String {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes).await;
        String::from_utf8_lossy(&bytes).into_owned()
    }

    #[tokio::test]
    async fn a_connection_that_sends_its_headers_too_slowly_is_closed() {
        let (addr, _stop) = start(Limits {
            header_read_timeout: Duration::from_millis(300),
            max_connections: 16,
        })
        .await;
        let mut slow = tokio::net::TcpStream::connect(addr).await.unwrap();
        slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();

        let closed = tokio::time::timeout(Duration::from_secs(5), read_to_close(&mut slow)).await;

        let answer = closed.expect("closed by the header-read timeout, not left open");
        assert!(!answer.contains("200 OK"), "{answer}");
    }

    #[tokio::test]
    async fn connections_over_the_limit_wait_and_are_served_once_slow_ones_are_dropped() {
        let (addr, _stop) = start(Limits {
            header_read_timeout: Duration::from_millis(300),
            max_connections: 2,
        })
        .await;
        // Two connections that never send anything hold both slots.
        let idle: Vec<_> = connect_idle(addr, 2).await;
        tokio::time::sleep(Duration::from_millis(50)).await;

        let mut third = tokio::net::TcpStream::connect(addr).await.unwrap();
        third
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut first_bytes = [0u8; 1];
        let early =
            tokio::time::timeout(Duration::from_millis(150), third.read(&mut first_bytes)).await;
        assert!(
            early.is_err(),
            "over the limit, nothing is answered while the slots are held"
        );
        let answer = tokio::time::timeout(Duration::from_secs(5), read_to_close(&mut third))
            .await
            .expect("served once the idle connections timed out");

        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
        assert!(
            answer.ends_with("127.0.0.1"),
            "the peer reaches the handler: {answer}"
        );
        drop(idle);
    }

    async fn connect_idle(addr: SocketAddr, n: usize) -> Vec<tokio::net::TcpStream> {
        let mut streams = Vec::new();
        for _ in 0..n {
            streams.push(tokio::net::TcpStream::connect(addr).await.unwrap());
        }
        streams
    }
}
