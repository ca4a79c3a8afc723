//! The address of the client behind a request, as sign-in limits and the audit trail count it.
//!
//! The peer of the TCP connection is the client, unless that peer is one of the proxies named
//! in `--trusted-proxies` (`CARDIO_TRUSTED_PROXIES`): then the client is the right-most address of
//! `X-Forwarded-For` that is not itself a trusted proxy. From any other peer the header is
//! ignored, so nobody can pick the address their failed sign-ins are counted under.

use std::net::{IpAddr, SocketAddr};

use axum::{
    extract::{ConnectInfo, FromRequestParts},
    http::{request::Parts, HeaderMap},
};
use ipnet::IpNet;

use crate::platform::state::AppState;

/// The header a reverse proxy appends the address it received the request from to.
pub const X_FORWARDED_FOR: &str = "x-forwarded-for";

/// Parses one `--trusted-proxies` entry: a network (`10.0.0.0/8`) or one address (`127.0.0.1`).
///
/// # Errors
/// A message naming the entry that is neither.
pub fn parse_trusted_proxy(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("{text:?} is not an IP address or network (e.g. 10.0.0.0/8)"))
}

/// The client's address: `peer` itself, or, when `peer` is a trusted proxy, the right-most
/// untrusted address of `X-Forwarded-For` (all of its entries, in order, over every copy of the
/// header). A header that does not parse is ignored.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let mut hops = Vec::new();
    for value in headers.get_all(X_FORWARDED_FOR) {
        let Ok(text) = value.to_str() else {
            return peer;
        };
        for item in text.split(',') {
            match item.trim().parse::<IpAddr>() {
                Ok(ip) => hops.push(ip),
                Err(_) => return peer,
            }
        }
    }
    // Walk back from the proxy nearest to us; the first address no trusted proxy claims is the
    // client. If every hop is trusted, the left-most is as far as we can see.
    hops.iter()
        .rev()
        .find(|ip| !is_trusted(ip))
        .or_else(|| hops.first())
        .copied()
        .unwrap_or(peer)
}

/// The address of the client that sent the request (`unknown` when the server was not started
/// with connection info, as in tests that do not set it).
pub struct ClientAddr(pub String);

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let addr = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or_else(
                || "unknown".to_owned(),
                |info| {
                    client_ip(info.0.ip(), &parts.headers, &state.config.trusted_proxies)
                        .to_string()
                },
            );
        Ok(Self(addr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn xff(values: &[&'static str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append(X_FORWARDED_FOR, HeaderValue::from_static(v));
        }
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_header_is_ignored_from_a_peer_that_is_not_a_trusted_proxy() {
        let trusted = [parse_trusted_proxy("10.0.0.0/8").unwrap()];
        let headers = xff(&["198.51.100.9"]);
        assert_eq!(
            client_ip(ip("203.0.113.7"), &headers, &trusted),
            ip("203.0.113.7")
        );
        assert_eq!(client_ip(ip("10.0.0.2"), &headers, &[]), ip("10.0.0.2"));
    }

    #[test]
    fn behind_trusted_proxies_the_right_most_untrusted_hop_is_the_client() {
        let trusted = [
            parse_trusted_proxy("10.0.0.0/8").unwrap(),
            parse_trusted_proxy("127.0.0.1").unwrap(),
        ];
        // The client forged the first entry; the proxies appended the rest.
        let headers = xff(&["1.2.3.4, 198.51.100.9", "10.1.1.1"]);
        assert_eq!(
            client_ip(ip("127.0.0.1"), &headers, &trusted),
            ip("198.51.100.9")
        );
        assert_eq!(
            client_ip(ip("10.9.9.9"), &xff(&["10.1.1.1"]), &trusted),
            ip("10.1.1.1")
        );
        assert_eq!(
            client_ip(ip("10.9.9.9"), &HeaderMap::new(), &trusted),
            ip("10.9.9.9")
        );
        assert_eq!(
            client_ip(ip("10.9.9.9"), &xff(&["not-an-ip"]), &trusted),
            ip("10.9.9.9")
        );
    }

    #[test]
    fn proxies_are_addresses_or_networks() {
        assert_eq!(
            parse_trusted_proxy(" 192.168.1.1 ").unwrap().to_string(),
            "192.168.1.1/32"
        );
        assert_eq!(parse_trusted_proxy("::1").unwrap().to_string(), "::1/128");
        assert_eq!(
            parse_trusted_proxy("nope").unwrap_err(),
            "\"nope\" is not an IP address or network (e.g. 10.0.0.0/8)"
        );
    }
}
