//! The edge's flags, shared by `serve` and `studio`: HTTPS, and the limits
//! on slow clients and on connections.

use super::error::CliError;
use crate::serve::edge::{Limits, Pages};
use std::path::PathBuf;
use tokio_rustls::TlsAcceptor;

/// The edge's flags.
#[derive(clap::Args, Debug)]
pub struct EdgeArgs {
    /// Serve HTTPS with this certificate chain (PEM); needs --tls-key.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The certificate's private key (PEM: PKCS#8, PKCS#1 or SEC1).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Seconds a connection may take to send a request's headers, from
    /// when it opens or its last answer ends: this also closes idle
    /// keep-alive connections.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,
    /// Seconds a request may take to send its body, once its headers are in.
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub body_timeout: u64,
    /// Connections open at once, in all; then a new one replaces the one idle
    /// the longest that has no valid link, or when every one has, the oldest
    /// idle one of the link holding the most; a connection with a request
    /// under way is never closed, and when every one is busy a new one is
    /// answered 503 with Retry-After. By default 6 for each page served
    /// (each seat's, each referee's, the board's), as many as a browser
    /// opens, and a quarter more, 128 at the least. The file limit (ulimit -n) is raised for
    /// them as far as its hard limit allows; they are lowered to fit it,
    /// less 32, and the server says so.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_connections: Option<u64>,
    /// Connections open at once from one address (a browser opens up to
    /// six).
    #[arg(long, value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_per_address: u64,
    /// Connections open at once answered for one link (one join link's
    /// token); beyond them, the link's oldest idle connection is closed.
    #[arg(long, value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_per_token: u64,
}

impl EdgeArgs {
    /// The TLS acceptor and the limits the flags ask for, the connections
    /// sized from `pages` when not given; what the limits are, and why,
    /// is said on stderr.
    pub fn edge(&self, pages: Option<&Pages>) -> Result<(Option<TlsAcceptor>, Limits), CliError> {
        let pair = self.tls_cert.as_ref().zip(self.tls_key.as_ref());
        let tls = pair.map(|(c, k)| crate::serve::edge::tls(c, k)).transpose();
        let tls = tls.map_err(|e| CliError::Usage(e.to_string()))?;
        let (limits, said) = Limits::from_flags(
            [self.header_timeout, self.body_timeout],
            self.max_connections,
            [self.max_per_address, self.max_per_token],
            pages,
        );
        for line in said {
            eprintln!("{line}");
        }
        Ok((tls, limits))
    }
}
