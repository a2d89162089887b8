//! The TLS client configuration of an SSL socket appender (log4j2's `SslConfiguration`): the
//! trust store that must sign the server's certificate, the key store with the client's own
//! certificate and key, the protocol versions and `verifyHostName`.
//!
//! Stores are PKCS12 files (p12-keystore) or PEM files (an l4rs extension: certificates and,
//! for a key store, a PKCS#8, PKCS#1 or SEC1 key). JKS is refused with the command that
//! converts it, as no maintained Rust crate reads it.

use std::sync::Arc;

use l4rs_config::model::{SslSpec, StorePassword, StoreSpec};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};

use crate::AppenderBuildError;

/// Runs the TLS handshake with `host` over `tcp`; a failure reads as Java's
/// `SSLHandshakeException`. The read timeout set on `tcp` bounds the whole handshake (a server
/// that sends its records a byte at a time cannot stretch it), and is set again afterwards.
pub(crate) fn handshake(
    config: &Arc<ClientConfig>,
    host: &str,
    tcp: std::net::TcpStream,
) -> std::io::Result<rustls::StreamOwned<rustls::ClientConnection, std::net::TcpStream>> {
    use std::io::{Error, ErrorKind};
    let server_name = ServerName::try_from(host.to_string())
        .map_err(|error| Error::new(ErrorKind::InvalidInput, error))?;
    let connection = rustls::ClientConnection::new(Arc::clone(config), server_name)
        .map_err(|error| Error::new(ErrorKind::InvalidData, error))?;
    let budget = tcp.read_timeout()?;
    let deadline = budget.map(|budget| std::time::Instant::now() + budget);
    let mut stream = rustls::StreamOwned::new(connection, tcp);
    let handshake_error = |error: Error| {
        let error = if matches!(error.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) {
            Error::new(
                ErrorKind::TimedOut,
                "the handshake did not end within the read timeout",
            )
        } else {
            error
        };
        Error::new(
            error.kind(),
            format!("javax.net.ssl.SSLHandshakeException: {error}"),
        )
    };
    while stream.conn.is_handshaking() {
        while stream.conn.wants_write() {
            let (conn, sock) = (&mut stream.conn, &mut stream.sock);
            retrying(|| conn.write_tls(sock)).map_err(handshake_error)?;
        }
        if !stream.conn.wants_read() {
            // Still handshaking with nothing to send or read: a state rustls should never be
            // in; failing beats spinning.
            return Err(handshake_error(Error::other(
                "the handshake stalled with nothing to send or read",
            )));
        }
        if let Some(deadline) = deadline {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return Err(handshake_error(ErrorKind::TimedOut.into()));
            }
            stream.sock.set_read_timeout(Some(left))?;
        }
        let (conn, sock) = (&mut stream.conn, &mut stream.sock);
        let read = retrying(|| conn.read_tls(sock)).map_err(handshake_error)?;
        if read == 0 {
            return Err(handshake_error(Error::new(
                ErrorKind::UnexpectedEof,
                "the server closed the connection during the handshake",
            )));
        }
        if let Err(error) = stream.conn.process_new_packets() {
            // The alert that says why (an unknown CA, a bad certificate) still goes out.
            let _ = stream.conn.write_tls(&mut stream.sock);
            return Err(handshake_error(Error::new(ErrorKind::InvalidData, error)));
        }
    }
    while stream.conn.wants_write() {
        let (conn, sock) = (&mut stream.conn, &mut stream.sock);
        retrying(|| conn.write_tls(sock)).map_err(handshake_error)?;
    }
    stream.sock.set_read_timeout(budget)?;
    Ok(stream)
}

/// Calls `io`, again when a signal interrupted it (a handshake's deadline still bounds the
/// loop: each read's limit is what is left of it).
fn retrying<T>(mut io: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    loop {
        match io() {
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            done => return done,
        }
    }
}

/// The system's certificate authorities, which a server is verified with when an appender
/// that speaks TLS without `<Ssl>` (SMTP's `smtps`, Http's `https`) has none: Java uses the
/// JVM's, which on Debian are these.
const SYSTEM_CERTIFICATES: &str = "/etc/ssl/certs/ca-certificates.crt";

/// An `<Ssl>` that trusts the system's certificate authorities and checks no host name.
pub(crate) fn system_trust() -> SslSpec {
    SslSpec {
        protocol: None,
        key_store: None,
        trust_store: Some(StoreSpec {
            location: Some(SYSTEM_CERTIFICATES.to_string()),
            password: StorePassword::None,
            store_type: "PEM".to_string(),
            position: None,
        }),
        verify_host_name: false,
    }
}

/// What a loaded store holds.
struct Store {
    certificates: Vec<CertificateDer<'static>>,
    key: Option<PrivateKeyDer<'static>>,
}

/// The rustls client configuration `spec` describes; an error in log4j2's words (the store
/// that failed and why) when a store cannot be loaded.
pub(crate) fn client_config(
    appender: &str,
    spec: &SslSpec,
) -> Result<Arc<ClientConfig>, AppenderBuildError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let Some(trust) = &spec.trust_store else {
        return Err(AppenderBuildError::Socket {
            message: format!("SSL appender {appender} has no TrustStore: there is no default trust store to verify the server's certificate with"),
            help: Some("add <TrustStore location=\"ca.pem\" type=\"PEM\"/> (or a PKCS12 file) holding the certificate that signed the receiver's".into()),
        });
    };
    let trusted = load(trust)?;
    let mut roots = RootCertStore::empty();
    for certificate in trusted.certificates {
        roots
            .add(certificate)
            .map_err(|error| store_error(trust, &error.to_string()))?;
    }
    if roots.is_empty() {
        return Err(store_error(trust, "the trust store holds no certificate"));
    }
    let versions: &[&rustls::SupportedProtocolVersion] = match spec.protocol.as_deref() {
        Some(p) if p.eq_ignore_ascii_case("TLSv1.2") => &[&rustls::version::TLS12],
        Some(p) if p.eq_ignore_ascii_case("TLSv1.3") => &[&rustls::version::TLS13],
        _ => rustls::ALL_VERSIONS,
    };
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_protocol_versions(versions)
        .map_err(|error| AppenderBuildError::Socket {
            message: format!(
                "Failed to initialize the SSLContext for appender {appender}: {error}"
            ),
            help: None,
        })?;
    let verifier = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider)
        .build()
        .map_err(|error| AppenderBuildError::Socket {
            message: format!(
                "Failed to initialize the TrustManagerFactory for appender {appender}: {error}"
            ),
            help: None,
        })?;
    let builder = if spec.verify_host_name {
        builder.with_webpki_verifier(verifier)
    } else {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyHostName(verifier)))
    };
    let config = match &spec.key_store {
        None => builder.with_no_client_auth(),
        Some(key_store) => {
            let own = load(key_store)?;
            let Some(key) = own.key else {
                return Err(store_error(key_store, "the key store holds no private key"));
            };
            builder
                .with_client_auth_cert(own.certificates, key)
                .map_err(|error| {
                    store_error(
                        key_store,
                        &format!("The key cannot be recovered (e.g. the given password is wrong): {error}"),
                    )
                })?
        }
    };
    Ok(Arc::new(config))
}

/// log4j2's words for a store that could not be loaded.
fn store_error(store: &StoreSpec, cause: &str) -> AppenderBuildError {
    let location = store.location.as_deref().unwrap_or("null");
    AppenderBuildError::Socket {
        message: format!(
            "Something is wrong with the format of the keystore or the given password for location {location}: {cause}"
        ),
        help: Some(format!(
            "check that {location} is a {} file and that its password is the one configured",
            store.store_type
        )),
    }
}

/// The password `store` names, read now.
fn password(store: &StoreSpec) -> Result<String, AppenderBuildError> {
    match &store.password {
        StorePassword::None => Ok(String::new()),
        StorePassword::Literal(password) => Ok(password.clone()),
        StorePassword::Environment(variable) => {
            std::env::var(variable).map_err(|_| AppenderBuildError::Socket {
                message: format!(
                    "Could not configure KeyStore: the environment variable {variable} is not set"
                ),
                help: Some(format!(
                    "set {variable} to the store's password, or use password=\"…\""
                )),
            })
        }
        StorePassword::File(file) => std::fs::read_to_string(file)
            .map(|text| text.lines().next().unwrap_or("").to_string())
            .map_err(|error| AppenderBuildError::Socket {
                message: format!(
                    "Could not configure KeyStore: cannot read the password file {file}: {}",
                    crate::os_reason(&error)
                ),
                help: Some("name a readable file whose first line is the password".into()),
            }),
    }
}

/// Loads a PKCS12 or PEM store.
fn load(store: &StoreSpec) -> Result<Store, AppenderBuildError> {
    let Some(location) = &store.location else {
        return Err(AppenderBuildError::Socket {
            message: "java.io.IOException: The location is null".into(),
            help: Some("give <KeyStore>/<TrustStore> a location=\"…\"".into()),
        });
    };
    let path = location
        .strip_prefix("file://")
        .or_else(|| location.strip_prefix("file:"))
        .unwrap_or(location);
    // Refused before the file is read: converting it is the fix whether it exists or not.
    refuse_java_only(store, path)?;
    let data = std::fs::read(path).map_err(|error| AppenderBuildError::Socket {
        message: format!(
            "The keystore file {location} is not found: {}",
            crate::os_reason(&error)
        ),
        help: Some("name an existing, readable store file in location".into()),
    })?;
    load_bytes(store, path, &data)
}

/// JKS and JCEKS, which no maintained Rust crate reads.
fn refuse_java_only(store: &StoreSpec, path: &str) -> Result<(), AppenderBuildError> {
    let kind = store.store_type.to_ascii_uppercase();
    if kind == "JKS" || kind == "JCEKS" {
        return Err(AppenderBuildError::Socket {
            message: format!(
                "KeyStore type {} for location {} is not supported by l4rs",
                store.store_type,
                store.location.as_deref().unwrap_or(path)
            ),
            help: Some(format!("convert it: keytool -importkeystore -srckeystore {path} -destkeystore store.p12 -deststoretype PKCS12, then use type=\"PKCS12\"")),
        });
    }
    Ok(())
}

/// Reads the store `store` describes from `data`, the contents of the file at `path`.
fn load_bytes(store: &StoreSpec, path: &str, data: &[u8]) -> Result<Store, AppenderBuildError> {
    refuse_java_only(store, path)?;
    let location = store.location.as_deref().unwrap_or(path);
    match store.store_type.to_ascii_uppercase().as_str() {
        "PKCS12" | "P12" | "PFX" => load_pkcs12(store, data),
        "PEM" => load_pem(store, data),
        other => Err(AppenderBuildError::Socket {
            message: format!("No Provider supports a KeyStoreSpi implementation for the specified type {other} for location {location}"),
            help: Some("use type=\"PKCS12\" or type=\"PEM\"".into()),
        }),
    }
}

fn load_pkcs12(store: &StoreSpec, data: &[u8]) -> Result<Store, AppenderBuildError> {
    let password = password(store)?;
    let keystore = p12_keystore::KeyStore::from_pkcs12(data, &password)
        .map_err(|error| store_error(store, &error.to_string()))?;
    let mut certificates = Vec::new();
    let mut key = None;
    if let Some((_, chain)) = keystore.private_key_chain() {
        key = Some(PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
            chain.key().to_vec(),
        )));
        certificates.extend(
            chain
                .chain()
                .iter()
                .map(|c| CertificateDer::from(c.as_der().to_vec())),
        );
    }
    for (_, entry) in keystore.entries() {
        if let p12_keystore::KeyStoreEntry::Certificate(certificate) = entry {
            certificates.push(CertificateDer::from(certificate.as_der().to_vec()));
        }
    }
    Ok(Store { certificates, key })
}

fn load_pem(store: &StoreSpec, data: &[u8]) -> Result<Store, AppenderBuildError> {
    let certificates = CertificateDer::pem_slice_iter(data)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| store_error(store, &error.to_string()))?;
    let key = PrivateKeyDer::from_pem_slice(data).ok();
    Ok(Store { certificates, key })
}

/// log4j2's `verifyHostName="false"` (its default): the chain must lead to a trusted
/// certificate, but the server's certificate need not name the host.
#[derive(Debug)]
struct AnyHostName(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyHostName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// Reads `data` as a store of `store_type` with `password`: what the fuzz target
/// `tls_stores` and the property test drive. The number of certificates found, or the error.
#[cfg(any(test, fuzzing))]
pub(crate) fn read_store(data: &[u8], store_type: &str, password: &str) -> Result<usize, String> {
    let store = StoreSpec {
        location: Some("fuzzed".into()),
        password: StorePassword::Literal(password.into()),
        store_type: store_type.into(),
        position: None,
    };
    load_bytes(&store, "fuzzed", data)
        .map(|store| store.certificates.len())
        .map_err(|error| error.to_string())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::read_store;

    proptest! {
        /// Whatever a store file holds, reading it is a result, never a panic.
        #[test]
        fn any_bytes_read_as_a_store_are_a_result(
            data in proptest::collection::vec(any::<u8>(), 0..512),
            pem_prefix in any::<bool>(),
        ) {
            let mut data = data;
            if pem_prefix {
                let mut pem = b"-----BEGIN CERTIFICATE-----\n".to_vec();
                pem.extend_from_slice(&data);
                data = pem;
            }
            for store_type in ["PKCS12", "PEM", "JKS", "other"] {
                let _ = read_store(&data, store_type, "changeit");
            }
        }
    }

    #[test]
    fn store_contents_that_are_not_a_store_are_errors_in_log4j2s_words() {
        assert_eq!(read_store(b"no pem here", "PEM", ""), Ok(0));
        let error = read_store(b"not der", "PKCS12", "x").unwrap_err();
        assert!(
            error.starts_with("Something is wrong with the format of the keystore or the given password for location fuzzed"),
            "{error}"
        );
        assert!(read_store(b"", "JKS", "")
            .unwrap_err()
            .contains("not supported by l4rs"));
    }
}
