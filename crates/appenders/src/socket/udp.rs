//! The UDP manager (log4j2's `DatagramSocketManager`): one datagram per event, the layout's
//! header and footer around each (as log4j2's `DatagramOutputStream` sends them).

use std::io;
use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use l4rs_core::Layout;

use crate::file_manager::WriteError;
use crate::AppenderBuildError;

/// One datagram socket connected to the receiver's address, resolved once.
///
/// Connected, the socket is bound by the kernel to the local address its route to the
/// receiver takes (127.0.0.1 for a loopback receiver), where log4j2's `DatagramSocket` is bound
/// to the wildcard address and so receives from anywhere on the machine's networks. Only a
/// receiver the kernel cannot route to when the appender is built leaves it unconnected, bound
/// to the unspecified address of the receiver's family, as log4j2's.
pub(crate) struct UdpManager {
    name: String,
    socket: UdpSocket,
    /// False when the socket could not be connected: each datagram is sent to `target`.
    connected: bool,
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
        let (socket, connected) = open(target).map_err(|error| AppenderBuildError::Socket {
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
            connected,
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
            self.send(bytes)
        } else {
            let mut datagram = self.datagram.lock().unwrap_or_else(|e| e.into_inner());
            datagram.clear();
            datagram.extend_from_slice(&self.header);
            datagram.extend_from_slice(bytes);
            datagram.extend_from_slice(&self.footer);
            self.send(&datagram)
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

    /// Sends one datagram. A connected socket reports on its next send that an earlier
    /// datagram found no receiver (`ECONNREFUSED`, from the ICMP reply): that concerns the
    /// earlier datagram, not this one, which is sent once more. As in log4j2, a receiver that
    /// is down fails no event.
    fn send(&self, datagram: &[u8]) -> io::Result<usize> {
        if !self.connected {
            return self.socket.send_to(datagram, self.target);
        }
        match self.socket.send(datagram) {
            Err(error) if error.kind() == io::ErrorKind::ConnectionRefused => {
                self.socket.send(datagram)
            }
            sent => sent,
        }
    }

    /// Later writes fail.
    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::Release);
    }
}

/// A datagram socket for `target`: connected to it (the kernel binds it to the local address of
/// its route), or, when the kernel has no route to it now, bound to the unspecified address of
/// its family. True when connected.
fn open(target: SocketAddr) -> io::Result<(UdpSocket, bool)> {
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(target),
        socket2::Type::DGRAM,
        Some(socket2::Protocol::UDP),
    )?;
    if socket.connect(&target.into()).is_ok() {
        return Ok((socket.into(), true));
    }
    let local: SocketAddr = if target.is_ipv4() {
        (std::net::Ipv4Addr::UNSPECIFIED, 0).into()
    } else {
        (std::net::Ipv6Addr::UNSPECIFIED, 0).into()
    };
    socket.bind(&local.into())?;
    Ok((socket.into(), false))
}
