//! What the server learns of the machine it runs on: the address phones
//! reach a listener by (and the links' [`base_url`]), and how many files
//! the process may open.

use std::net::{IpAddr, SocketAddr};

/// The address others reach a listener on `addr` by: itself, unless it
/// listens on every interface, then this machine's address on the network:
/// the one a packet to the internet would leave from, or with no default
/// route (an offline hotspot), the first interface's other than loopback.
/// `None` when there is none: no phone could reach the links.
pub fn reachable(addr: SocketAddr) -> Option<SocketAddr> {
    if !addr.ip().is_unspecified() {
        return Some(addr);
    }
    let probe = std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| s.connect("192.0.2.1:9").map(|_| s))
        .and_then(|s| s.local_addr())
        .ok()
        .map(|local| local.ip())
        .filter(|ip| !ip.is_loopback() && !ip.is_unspecified());
    let interfaces = || {
        let mut ips: Vec<IpAddr> = if_addrs::get_if_addrs()
            .unwrap_or_default()
            .into_iter()
            .map(|interface| interface.ip())
            .filter(|ip| !ip.is_loopback() && !ip.is_unspecified())
            .collect();
        // An IPv4 address first: what people type, and what every phone
        // on a hotspot has.
        ips.sort_by_key(|ip| ip.is_ipv6());
        ips.into_iter().next()
    };
    probe
        .or_else(interfaces)
        .map(|ip| SocketAddr::new(ip, addr.port()))
}

/// How many files this process may open at once (`ulimit -n`), if known,
/// and how many it could raise that to (its hard limit), if bounded.
#[cfg(unix)]
fn file_limits() -> Option<(u64, Option<u64>)> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the limit into the struct it is given.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
    let bounded = |n: libc::rlim_t| (n != libc::RLIM_INFINITY).then_some(n);
    (read == 0)
        .then(|| bounded(limit.rlim_cur).map(|cur| (cur, bounded(limit.rlim_max))))
        .flatten()
}

/// How many files this process may open at once (`ulimit -n`), if known.
pub fn file_limit() -> Option<u64> {
    #[cfg(unix)]
    return file_limits().map(|(soft, _)| soft);
    #[cfg(not(unix))]
    None
}

/// Raises this process's limit on open files (the soft one) to `wanted`,
/// or as near as its hard limit allows: the limit before and after, when
/// it was raised.
#[cfg(unix)]
fn raise_file_limit(wanted: u64) -> Option<(u64, u64)> {
    let (soft, hard) = file_limits()?;
    let raised = hard.map_or(wanted, |hard| wanted.min(hard));
    if raised <= soft {
        return None;
    }
    let limit = libc::rlimit {
        rlim_cur: raised,
        rlim_max: hard.unwrap_or(libc::RLIM_INFINITY),
    };
    // SAFETY: setrlimit reads the struct it is given.
    let set = unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &limit) };
    (set == 0).then_some((soft, raised))
}

#[cfg(not(unix))]
fn raise_file_limit(_wanted: u64) -> Option<(u64, u64)> {
    None
}

/// The file descriptors the server keeps beside its connections' own.
const SPARE_FILES: u64 = 32;

/// How many connections to take at once when `wanted` are asked for: as
/// many as this process may open files for, beside the log, the tokens,
/// the runtime and stdio, once its file limit is raised for them as far
/// as its hard limit allows; and what to say of it: the limit raised,
/// and why fewer connections, when fewer.
pub fn connections(wanted: u64) -> (u64, Vec<String>) {
    let mut said = Vec::new();
    let files_wanted = wanted.saturating_add(SPARE_FILES);
    if let Some((before, after)) = raise_file_limit(files_wanted) {
        said.push(format!(
            "raised the files this process may open from {before} to {after} (ulimit -n), for {wanted} connections"
        ));
    }
    if let Some(files) = file_limit() {
        let fits = files.saturating_sub(SPARE_FILES).max(1);
        if fits < wanted {
            said.push(format!(
                "at most {fits} connections at once, not {wanted}: this process may open {files} files (ulimit -n), and may not raise that; for {wanted}, start it where ulimit -n allows {files_wanted} (raise the hard limit as root, or in /etc/security/limits.conf)"
            ));
            return (fits, said);
        }
    }
    (wanted, said)
}

/// Why the links have no base address.
#[derive(Debug, thiserror::Error)]
pub enum BaseError {
    /// A `--public-url` that is not an HTTP URL with a host.
    #[error(
        "--public-url: expected an http:// or https:// URL with a host, such as http://192.168.1.20:8062/, but found {url:?}"
    )]
    Malformed { url: String },
    /// A server on every interface of a machine with no address but
    /// loopback.
    #[error(
        "expected a network address other than loopback for the links, as --listen {listen} serves the network, but found none (no phone can reach 127.0.0.1); give the address the phones reach with --public-url URL, such as --public-url {scheme}://192.168.1.20:{port}/"
    )]
    Unreachable {
        listen: SocketAddr,
        scheme: &'static str,
        port: u16,
    },
}

/// The base of every link: `public` as given (ending in `/`), or
/// `scheme://ADDRESS/` for the address phones reach the listener `bound`
/// (asked for as `listen`) by.
pub fn base_url(
    public: Option<&str>,
    tls: bool,
    listen: SocketAddr,
    bound: SocketAddr,
) -> Result<String, BaseError> {
    if let Some(url) = public {
        let rest = url
            .strip_prefix("http://")
            .or_else(|| url.strip_prefix("https://"));
        let host = rest.map(|r| r.split('/').next().unwrap_or_default());
        if host.is_none_or(str::is_empty) || url.contains(['#', '?', ' ']) {
            return Err(BaseError::Malformed {
                url: url.to_owned(),
            });
        }
        let slash = if url.ends_with('/') { "" } else { "/" };
        return Ok(format!("{url}{slash}"));
    }
    let scheme = if tls { "https" } else { "http" };
    match reachable(bound) {
        Some(addr) => Ok(format!("{scheme}://{addr}/")),
        None => Err(BaseError::Unreachable {
            listen,
            scheme,
            // The port given, or the default one for a port picked freely.
            port: match listen.port() {
                0 => 8062,
                port => port,
            },
        }),
    }
}
