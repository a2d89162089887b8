//! `<Socket>` and `<Syslog>` (log4j2's `SocketAppender` and `SyslogAppender`): events sent to a
//! receiver over TCP, TLS or UDP, or (an l4rs extension) RELP.
//!
//! Like the file appenders, a socket appender is a name, a layout and a share of a manager
//! from a process-wide registry, keyed as log4j2 names its managers (`TCP:host:port`,
//! `TLS:host:port`, `UDP:host:port`; l4rs's `RELP:host:port`, `RELP-TLS:host:port`):
//! appenders that name the same receiver share one connection, and a reconfiguration that
//! keeps the receiver keeps the connection.

use std::fmt;
use std::net::ToSocketAddrs;
use std::sync::Arc;
use std::time::Duration;

use l4rs_config::model::{SocketProtocol, SocketSpec};
use l4rs_core::{Layout, LogEvent};

use crate::file_manager::WriteError;
use crate::managed::{AppenderManager, ManagedAppender};
use crate::registry::{Managed, Registry};
use crate::AppenderBuildError;

mod reconnect;
mod relp;
pub(crate) mod resolve;
mod tcp;
pub(crate) mod tls;
mod udp;

pub(crate) use tcp::DEFAULT_WRITE_TIMEOUT;

/// The socket managers of the process, by log4j2's manager name.
pub(crate) static SOCKET_MANAGERS: Registry<String, SocketManager> = Registry::new();

/// A TCP/TLS connection, a UDP socket or a RELP session.
pub(crate) enum SocketManager {
    Tcp(Arc<tcp::TcpManager>),
    Udp(udp::UdpManager),
    Relp(Arc<relp::RelpManager>),
}

impl Managed for SocketManager {
    fn flush(&self) {
        if let SocketManager::Tcp(manager) = self {
            let _ = manager.flush();
        }
    }

    fn close(&self) {
        match self {
            SocketManager::Tcp(manager) => manager.close(),
            SocketManager::Udp(manager) => manager.close(),
            SocketManager::Relp(manager) => manager.close(),
        }
    }
}

impl AppenderManager for SocketManager {
    fn key(&self) -> &str {
        match self {
            SocketManager::Tcp(manager) => manager.name(),
            SocketManager::Udp(manager) => manager.name(),
            SocketManager::Relp(manager) => manager.name(),
        }
    }

    fn destination(&self) -> String {
        self.key().to_string()
    }

    fn write_event(&self, _: &LogEvent<'_>, bytes: &[u8], flush: bool) -> Result<(), WriteError> {
        match self {
            SocketManager::Tcp(manager) => manager.write(bytes, flush),
            SocketManager::Udp(manager) => manager.write(bytes),
            SocketManager::Relp(manager) => manager.write(bytes),
        }
    }

    fn flush_appender(&self) -> Result<(), WriteError> {
        match self {
            SocketManager::Tcp(manager) => manager.flush(),
            SocketManager::Udp(_) | SocketManager::Relp(_) => Ok(()),
        }
    }

    // A receiver should get an old configuration's events when it stops, not with the new
    // one's first full buffer.
    const FLUSHES_ON_STOP: bool = true;

    fn debug_fields(
        &self,
        out: &mut fmt::DebugStruct<'_, '_>,
        flush_each: bool,
        started: bool,
    ) -> fmt::Result {
        out.field("manager", &self.key());
        match self {
            SocketManager::Tcp(manager) => out.field("connected", &manager.is_connected()),
            SocketManager::Relp(manager) => out.field("connected", &manager.is_connected()),
            SocketManager::Udp(_) => out,
        };
        out.field("immediate_flush", &flush_each)
            .field("started", &started)
            .finish()
    }
}

/// Sends events to a receiver, with log4j2's `<Socket>` (and `<Syslog>`) options.
///
/// * `protocol="TCP"` (default) or `"SSL"`: one connection per `host:port`, made when the
///   appender is built and re-made in the background every `reconnectionDelayMillis` (30 s)
///   after it breaks; while it is down, events fail at once (`immediateFail`, default) or wait
///   for the next attempt. Each connection attempt and each write is bounded by
///   `connectTimeoutMillis` (10 s when 0), so a
///   receiver that stops reading costs the caller at most that long per event; the connection
///   is then dropped and re-made.
/// * `protocol="UDP"`: one datagram per event; the receiver's absence is not noticed.
/// * `protocol="RELP"` (an l4rs extension; over TLS with `<Ssl>`): each event is a RELP
///   command the receiver must acknowledge before the append returns; a broken session, a
///   refusal or no acknowledgement within `connectTimeoutMillis` fails the event.
/// * `bufferedIo` with `immediateFlush="false"`: TCP events wait in a `bufferSize` buffer until
///   it is full, a batch ends, the appender is flushed or stopped.
///
/// The event is formatted outside any lock into the thread's reused buffers; plain TCP and UDP
/// send it without allocating. A failed event is an [`l4rs_core::AppendError::Io`] naming the
/// manager (`TCP:host:port`), which the caller reports in log4j2's words.
pub struct SocketAppender {
    core: ManagedAppender<SocketManager>,
}

impl SocketAppender {
    /// Builds the appender named `name`, connecting (or sharing the manager's connection).
    /// Errors: an SSL configuration whose stores cannot be loaded, a UDP host without address.
    pub fn new(
        name: impl Into<String>,
        spec: &SocketSpec,
        layout: Arc<dyn Layout>,
    ) -> Result<SocketAppender, AppenderBuildError> {
        let name = name.into();
        let key = format!(
            "{}:{}:{}",
            spec.protocol.manager_prefix(spec.ssl.is_some()),
            spec.host,
            spec.port
        );
        let tls = match (&spec.ssl, spec.protocol) {
            (Some(ssl), SocketProtocol::Ssl | SocketProtocol::Relp) => {
                Some(tls::client_config(&name, ssl)?)
            }
            (None, SocketProtocol::Ssl) => {
                return Err(AppenderBuildError::Socket {
                    message: format!("SSL appender {name} has no <Ssl> configuration: there is no default trust store to verify the server's certificate with"),
                    help: Some("add <Ssl><TrustStore location=\"ca.pem\" type=\"PEM\"/></Ssl>".into()),
                })
            }
            _ => None,
        };
        let buffered = spec.buffered_io && !spec.immediate_flush;
        let manager = SOCKET_MANAGERS.acquire(&key, || match spec.protocol {
            SocketProtocol::Udp => Ok(SocketManager::Udp(udp::UdpManager::create(
                key.clone(),
                &spec.host,
                spec.port,
                &layout,
            )?)),
            SocketProtocol::Tcp | SocketProtocol::Ssl | SocketProtocol::Relp => {
                // As TcpSocketManagerFactory: a host without an address gives no manager.
                if (spec.host.as_str(), spec.port).to_socket_addrs().is_err() {
                    return Err(AppenderBuildError::Socket {
                        message: format!(
                            "Could not find address of {host}: java.net.UnknownHostException: {host}",
                            host = spec.host
                        ),
                        help: Some(
                            "name a host this machine can resolve, or give its IP address".into(),
                        ),
                    });
                }
                let millis = |ms: u32| (ms > 0).then(|| Duration::from_millis(u64::from(ms)));
                let options = tcp::TcpOptions {
                        name: key.clone(),
                        host: spec.host.clone(),
                        port: spec.port,
                        tls,
                        connect_timeout: millis(spec.connect_timeout_millis)
                            .unwrap_or(DEFAULT_WRITE_TIMEOUT),
                        write_timeout: millis(spec.connect_timeout_millis)
                            .unwrap_or(DEFAULT_WRITE_TIMEOUT),
                        reconnect_delay: Duration::from_millis(
                            u64::try_from(spec.reconnect_delay_millis).unwrap_or(0),
                        ),
                        retry: spec.reconnect_delay_millis > 0,
                        immediate_fail: spec.immediate_fail,
                        buffer_size: if buffered { spec.buffer_size } else { 0 },
                        socket_options: spec.socket_options.clone(),
                    };
                Ok::<_, AppenderBuildError>(if spec.protocol == SocketProtocol::Relp {
                    SocketManager::Relp(relp::RelpManager::create(options))
                } else {
                    SocketManager::Tcp(tcp::TcpManager::create(options, Arc::clone(&layout)))
                })
            }
        })?;
        let shared_unbuffered = match manager.as_ref() {
            SocketManager::Tcp(tcp) => !tcp.is_buffered(),
            SocketManager::Udp(_) | SocketManager::Relp(_) => true,
        };
        let flush_each = !buffered || shared_unbuffered;
        Ok(SocketAppender {
            core: ManagedAppender::new(name, layout, manager, &SOCKET_MANAGERS, flush_each),
        })
    }

    /// The manager's name: `TCP:host:port`, `TLS:host:port` or `UDP:host:port`.
    pub fn manager_name(&self) -> &str {
        self.core.manager.key()
    }

    /// True when the TCP/TLS connection is up (always true for UDP).
    pub fn is_connected(&self) -> bool {
        match self.core.manager.as_ref() {
            SocketManager::Tcp(manager) => manager.is_connected(),
            SocketManager::Relp(manager) => manager.is_connected(),
            SocketManager::Udp(_) => true,
        }
    }
}

crate::managed::managed_appender!(SocketAppender);

/// The fuzz target `tls_stores`: reads `data` as a key or trust store.
#[cfg(fuzzing)]
pub fn fuzz_store(data: &[u8], store_type: &str, password: &str) -> Result<usize, String> {
    tls::read_store(data, store_type, password)
}

/// The fuzz target `relp_frames`: reads `data` as RELP frames from a receiver, in pieces of
/// `piece` bytes.
#[cfg(fuzzing)]
pub fn fuzz_relp_frames(data: &[u8], piece: usize) -> Result<usize, String> {
    relp::fuzz_frames(data, piece)
}

/// Loads what `l4rs check` can judge without connecting: the TLS stores.
pub(crate) fn check(name: &str, spec: &SocketSpec) -> Result<(), AppenderBuildError> {
    if let Some(ssl) = &spec.ssl {
        tls::client_config(name, ssl)?;
    }
    Ok(())
}
