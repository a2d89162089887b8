//! A TLS server that answers slowly: a byte of its TLS records at a time, every 20 ms. Each
//! socket read of a client then gets a byte well within any read timeout, so only a limit on
//! the whole answer ends the client's wait.

use std::io::{Read as _, Write as _};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use rustls_pki_types::pem::PemObject as _;

use crate::rsyslog::Certificates;

/// What the server waits for before it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The client speaks first (HTTP): the answer follows the first request read.
    AfterRequest,
    /// The server speaks first (an SMTP greeting): the answer follows the handshake.
    AfterHandshake,
}

/// Starts the server on 127.0.0.1 with the test certificates' `server.pem`: it takes one
/// connection and trickles `answer` over it once `turn` comes. Returns its port and its
/// thread, which ends when the answer is out or the client goes.
pub fn trickling_tls_server(
    certificates: &Certificates,
    turn: Turn,
    answer: Vec<u8>,
) -> (u16, JoinHandle<()>) {
    let chain: Vec<_> =
        rustls_pki_types::CertificateDer::pem_file_iter(certificates.dir.join("server.pem"))
            .expect("the server certificate")
            .collect::<Result<_, _>>()
            .expect("the server certificate");
    let key = rustls_pki_types::PrivateKeyDer::from_pem_file(certificates.dir.join("server.key"))
        .expect("the server key");
    let config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("TLS versions")
    .with_no_client_auth()
    .with_single_cert(chain, key)
    .expect("a server configuration");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let port = listener.local_addr().expect("the port").port();
    let server = std::thread::spawn(move || {
        let Ok((mut tcp, _)) = listener.accept() else {
            return;
        };
        let _ = tcp.set_read_timeout(Some(Duration::from_secs(5)));
        let mut tls = rustls::ServerConnection::new(Arc::new(config)).expect("TLS");
        let ready = match turn {
            Turn::AfterRequest => {
                let mut request = [0u8; 4096];
                rustls::Stream::new(&mut tls, &mut tcp)
                    .read(&mut request)
                    .is_ok()
            }
            Turn::AfterHandshake => {
                while tls.is_handshaking() {
                    if tls.complete_io(&mut tcp).is_err() {
                        return;
                    }
                }
                true
            }
        };
        if !ready {
            return;
        }
        tls.writer().write_all(&answer).expect("the answer");
        let mut records = Vec::new();
        while tls.wants_write() {
            tls.write_tls(&mut records).expect("the records");
        }
        for byte in records {
            if tcp.write_all(&[byte]).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    (port, server)
}
