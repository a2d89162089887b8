//! The UDP manager (log4j2's `DatagramSocketManager`): one datagram per event, the layout's
//! header and footer around each (as log4j2's `DatagramOutputStream` sends them).

use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use l4rs_core::Layout;

use crate::file_manager::WriteError;
use crate::AppenderBuildError;

/// One unconnected datagram socket and the receiver's address, resolved once.
pub(crate) struct UdpManager {
    name: String,
    socket: UdpSocket,
    target: SocketAddr,
    header: Vec<u8>,
    footer: Vec<u8>,
    /// Where header, event and footer are put together (only when there is a header or footer).
    datagram: Mutex<Vec<u8>>,
    closed: AtomicBool,
}

impl UdpManager {
    /// Resolves `host` and opens a socket; log4j2's error when the host has no address.
    pub(crate) fn create(
        name: String,
        host: &str,
        port: u16,
        layout: &Arc<dyn Layout>,
    ) -> Result<UdpManager, AppenderBuildError> {
        let target = super::resolve::resolve(host, port)
            .ok()
            .and_then(|addresses| addresses.first().copied())
            .ok_or_else(|| AppenderBuildError::Socket {
                message: format!(
                    "Could not find address of {host} java.net.UnknownHostException: {host}"
                ),
                help: Some("name a host this machine can resolve, or give its IP address".into()),
            })?;
        let local: SocketAddr = if target.is_ipv4() {
            ([0, 0, 0, 0], 0).into()
        } else {
            (std::net::Ipv6Addr::UNSPECIFIED, 0).into()
        };
        let socket = UdpSocket::bind(local).map_err(|error| AppenderBuildError::Socket {
            message: format!(
                "Could not instantiate DatagramSocket to {host}: {}",
                crate::os_reason(&error)
            ),
            help: None,
        })?;
        let header =
            crate::encode::with_encoded(layout.as_ref(), |out| layout.header(out), <[u8]>::to_vec);
        let footer = crate::encode::encoded_footer(layout.as_ref());
        Ok(UdpManager {
            name,
            socket,
            target,
            header,
            footer,
            datagram: Mutex::new(Vec::new()),
            closed: AtomicBool::new(false),
        })
    }

    /// The manager's name, `UDP:host:port`.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Sends one event as one datagram.
    pub(crate) fn write(&self, bytes: &[u8]) -> Result<(), WriteError> {
        if self.closed.load(Ordering::Acquire) {
            return Err(WriteError::Closed);
        }
        let sent = if self.header.is_empty() && self.footer.is_empty() {
            self.socket.send_to(bytes, self.target)
        } else {
            let mut datagram = self.datagram.lock().unwrap_or_else(|e| e.into_inner());
            datagram.clear();
            datagram.extend_from_slice(&self.header);
            datagram.extend_from_slice(bytes);
            datagram.extend_from_slice(&self.footer);
            self.socket.send_to(&datagram, self.target)
        };
        match sent {
            Ok(_) => Ok(()),
            Err(error) => Err(WriteError::Io(io::Error::new(
                error.kind(),
                format!(
                    "Error writing to {} ({})",
                    self.name,
                    crate::os_reason(&error)
                ),
            ))),
        }
    }

    /// Later writes fail.
    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::Release);
    }
}
