//! TLS from a certificate and a key, with rustls and ring.

use super::*;

/// Why a certificate or key cannot serve TLS.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// The file cannot be read.
    #[error("{}: cannot read the {what}: {}", path.display(), crate::log::io_reason(error))]
    Read {
        path: PathBuf,
        what: &'static str,
        error: std::io::Error,
    },
    /// The file holds no PEM section of the kind needed.
    #[error("{}: expected a {what} in PEM ({begin}), but found none", path.display())]
    Missing {
        path: PathBuf,
        what: &'static str,
        begin: &'static str,
    },
    /// The file's PEM does not decode.
    #[error("{}: expected a {what} in PEM, but found malformed PEM ({reason})", path.display())]
    Malformed {
        path: PathBuf,
        what: &'static str,
        reason: String,
    },
    /// rustls refuses the pair: a key that is not the certificate's, or
    /// one it cannot use.
    #[error("{} and {}: expected the private key of the certificate, but found {reason}", cert.display(), key.display())]
    Refused {
        cert: PathBuf,
        key: PathBuf,
        reason: String,
    },
}

/// The TLS acceptor for the certificate chain in the PEM file `cert` and
/// the private key (PKCS#8, PKCS#1 or SEC1) in the PEM file `key`.
pub fn tls(cert: &Path, key: &Path) -> Result<TlsAcceptor, TlsError> {
    use rustls::pki_types::pem::{Error as PemError, PemObject};
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let failed = |path: &Path, what: &'static str, begin: &'static str| {
        let path = path.to_owned();
        move |error: PemError| {
            let path = path.clone();
            match error {
                PemError::Io(error) => TlsError::Read { path, what, error },
                PemError::NoItemsFound => TlsError::Missing { path, what, begin },
                other => TlsError::Malformed {
                    path,
                    what,
                    reason: other.to_string(),
                },
            }
        }
    };
    let certificate = failed(cert, "certificate", "-----BEGIN CERTIFICATE-----");
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(&certificate)?;
    if chain.is_empty() {
        return Err(certificate(PemError::NoItemsFound));
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(failed(
        key,
        "private key",
        "-----BEGIN PRIVATE KEY-----",
    ))?;
    let refused = |error: rustls::Error| TlsError::Refused {
        cert: cert.to_owned(),
        key: key.to_owned(),
        reason: match error {
            rustls::Error::InconsistentKeys(_) => "a key that does not match it".to_owned(),
            other => other.to_string().to_lowercase(),
        },
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(refused)?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(refused)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
