//! Host name resolution in the order Java connects: IPv4 addresses before IPv6 ones.
//!
//! Java's `InetAddress.getAllByName` lists IPv4 addresses first unless
//! `java.net.preferIPv6Addresses` is set, and log4j2 tries them in that order. The system
//! resolver may put `::1` first for `localhost`; a receiver listening only on 127.0.0.1 would
//! then be missed or reached only after a failed attempt.

use std::io;
use std::net::{SocketAddr, ToSocketAddrs};

/// The addresses of `host` at `port`, IPv4 first, each family in the resolver's order.
pub(crate) fn resolve(host: &str, port: u16) -> io::Result<Vec<SocketAddr>> {
    let mut addresses: Vec<SocketAddr> = (host, port).to_socket_addrs()?.collect();
    ipv4_first(&mut addresses);
    Ok(addresses)
}

/// Moves IPv4 addresses before IPv6 ones, keeping the order within each family.
fn ipv4_first(addresses: &mut [SocketAddr]) {
    // A stable sort: the resolver's order stands within a family, as Java keeps it.
    addresses.sort_by_key(|address| address.is_ipv6());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(list: &[&str]) -> Vec<SocketAddr> {
        list.iter().map(|a| a.parse().expect("address")).collect()
    }

    #[test]
    fn ipv4_addresses_come_first_in_their_resolved_order() {
        let mut addresses = parse(&["[::1]:514", "10.0.0.2:514", "[fe80::1]:514", "10.0.0.1:514"]);
        ipv4_first(&mut addresses);
        assert_eq!(
            addresses,
            parse(&["10.0.0.2:514", "10.0.0.1:514", "[::1]:514", "[fe80::1]:514"])
        );
    }

    #[test]
    fn a_literal_address_resolves_to_itself() {
        assert_eq!(
            resolve("127.0.0.1", 4560).expect("resolves"),
            parse(&["127.0.0.1:4560"])
        );
        assert_eq!(
            resolve("::1", 4560).expect("resolves"),
            parse(&["[::1]:4560"])
        );
    }

    #[test]
    fn localhost_resolves_to_ipv4_first() {
        let addresses = resolve("localhost", 4560).expect("localhost resolves");
        assert!(!addresses.is_empty());
        assert!(
            addresses
                .windows(2)
                .all(|pair| !(pair[0].is_ipv6() && pair[1].is_ipv4())),
            "an IPv6 address before an IPv4 one: {addresses:?}"
        );
    }
}
