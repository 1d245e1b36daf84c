//! Who may reach the studio: a request must name the studio's own address
//! as its `Host` (and as its `Origin`, when it has one), against a web page
//! that points a name it owns at 127.0.0.1 (DNS rebinding), and carry the
//! token printed at start: in `Authorization: Bearer TOKEN`, in the
//! studio's cookie (`sunfold-studio-PORT`, set when the first page is
//! opened by its address), or in `?token=` for the first page alone.

use crate::serve::ApiError;
use axum::http::{HeaderMap, header};
use std::net::{IpAddr, SocketAddr};
use subtle::ConstantTimeEq;

/// The studio's own address, and its token.
#[derive(Clone, Debug)]
pub struct Access {
    /// The address the studio listens on (its port as bound).
    pub listen: SocketAddr,
    /// The secret printed in the address at start.
    pub token: String,
}

impl Access {
    /// The names of this studio that a browser may send as `Host`, in
    /// words, for a refusal.
    fn own(&self) -> String {
        let port = self.listen.port();
        let ip = self.listen.ip();
        if ip.is_loopback() {
            format!("{} or localhost:{port}", self.listen)
        } else if ip.is_unspecified() {
            format!("an IP address or localhost, with port {port}")
        } else {
            self.listen.to_string()
        }
    }

    /// Whether `authority` (`HOST:PORT`, as in `Host`) names this studio:
    /// its port, and its address or `localhost` where it listens on
    /// loopback; any address, never a name but `localhost`, where it
    /// listens on every interface.
    fn names_me(&self, authority: &str) -> bool {
        let (host, port) = match authority.rsplit_once(':') {
            Some((host, port)) if !port.contains(']') => (host, port.parse::<u16>().ok()),
            // No port: the scheme's default.
            _ => (authority, Some(80)),
        };
        if port != Some(self.listen.port()) {
            return false;
        }
        let ip = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host)
            .parse::<IpAddr>()
            .ok();
        let mine = self.listen.ip();
        let local = mine.is_loopback() || mine.is_unspecified();
        match ip {
            None => local && host.eq_ignore_ascii_case("localhost"),
            Some(ip) if mine.is_unspecified() => !ip.is_unspecified(),
            Some(ip) if mine.is_loopback() => ip.is_loopback(),
            Some(ip) => ip == mine,
        }
    }

    /// Refuses a request whose `Host` or `Origin` is not the studio's own.
    pub fn check_origin(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let host = headers
            .get(header::HOST)
            .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned());
        match host {
            Some(host) if self.names_me(host.trim()) => {}
            found => {
                return Err(ApiError::Forbidden(format!(
                    "expected the Host of this studio ({}), but found {}",
                    self.own(),
                    found.map_or("none".to_owned(), |h| format!("{h:?}"))
                )));
            }
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = String::from_utf8_lossy(origin.as_bytes()).into_owned();
            // Only one scheme is served on the studio's port: http, or
            // https under --tls-cert.
            let ok = (origin.strip_prefix("http://"))
                .or_else(|| origin.strip_prefix("https://"))
                .is_some_and(|authority| self.names_me(authority));
            if !ok {
                return Err(ApiError::Forbidden(format!(
                    "expected no Origin or this studio's own (http:// or https://, and {}), but found {origin:?}",
                    self.own()
                )));
            }
        }
        Ok(())
    }

    /// The name of the studio's cookie: one per port, as a browser keeps
    /// one set of cookies for every port of a host.
    pub fn cookie_name(&self) -> String {
        format!("sunfold-studio-{}", self.listen.port())
    }

    /// The `Set-Cookie` value that lets a reload (or the tab opened again)
    /// in: the token, for this studio's every route, never to scripts or
    /// to requests from other sites.
    pub fn cookie(&self) -> String {
        format!(
            "{}={}; HttpOnly; SameSite=Strict; Path=/",
            self.cookie_name(),
            self.token
        )
    }

    /// The token in a query's `token=`.
    pub fn query_token<'q>(&self, query: &'q str) -> Option<&'q str> {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix("token="))
    }

    /// The tokens in the studio's cookie, in `Cookie` headers.
    fn cookie_tokens<'h>(&self, headers: &'h HeaderMap) -> Vec<&'h str> {
        let name = self.cookie_name();
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .filter(|(key, _)| *key == name)
            .map(|(_, value)| value.trim())
            .collect()
    }

    /// Refuses a request without the studio's token: in the header, in
    /// the studio's cookie, or for the first page also in `query`
    /// (`token=TOKEN`). Any of them that holds it lets the request in.
    pub fn check_token(&self, headers: &HeaderMap, query: Option<&str>) -> Result<(), ApiError> {
        let mut given: Vec<&str> = Vec::new();
        given.extend(crate::serve::edge::bearer(headers));
        given.extend(query.and_then(|q| self.query_token(q)));
        given.extend(self.cookie_tokens(headers));
        let mine = |token: &&str| bool::from(token.as_bytes().ct_eq(self.token.as_bytes()));
        if given.is_empty() {
            Err(ApiError::Unauthorized(
                "expected the header Authorization: Bearer TOKEN, with the token the studio printed at start, but found none".to_owned(),
            ))
        } else if given.iter().any(mine) {
            Ok(())
        } else {
            Err(ApiError::Unauthorized(
                "expected the token the studio printed at start, but found another".to_owned(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(listen: &str) -> Access {
        Access {
            listen: listen.parse().unwrap(),
            token: "t".to_owned(),
        }
    }

    #[test]
    fn a_studio_on_loopback_answers_to_its_port_on_loopback_and_localhost_alone() {
        let a = access("127.0.0.1:8063");
        for ok in [
            "127.0.0.1:8063",
            "localhost:8063",
            "LOCALHOST:8063",
            "[::1]:8063",
        ] {
            assert!(a.names_me(ok), "{ok}");
        }
        for refused in [
            "127.0.0.1:8064",
            "evil.example:8063",
            "192.168.1.2:8063",
            "127.0.0.1",
            "",
            "[::1]",
        ] {
            assert!(!a.names_me(refused), "{refused}");
        }
    }

    #[test]
    fn a_studio_on_every_interface_answers_to_addresses_never_names() {
        let a = access("0.0.0.0:8063");
        assert!(a.names_me("192.168.1.2:8063"));
        assert!(a.names_me("localhost:8063"));
        assert!(!a.names_me("evil.example:8063"));
        assert!(!a.names_me("0.0.0.0:8063"));
    }
}
