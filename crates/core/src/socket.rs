//! Setting socket options with setsockopt(2): the socket appenders set `<SocketOptions>` on
//! the sockets they open, and their tests set the same options on a reference socket to
//! compare with, so both go through the same two calls.

use std::io;
use std::os::fd::RawFd;

/// Sets the int-valued option `name` at `level` (`SOL_SOCKET`, `IPPROTO_TCP`, …) on the
/// socket `fd` to `value`; a flag is on for any value but 0.
pub fn set_int_option(
    fd: RawFd,
    level: libc::c_int,
    name: libc::c_int,
    value: libc::c_int,
) -> io::Result<()> {
    set_option(fd, level, name, &value)
}

/// Turns `SO_LINGER` on for the socket `fd`, with `seconds`: closing it then waits that long
/// for unsent data (0: resets the connection at once).
pub fn set_linger(fd: RawFd, seconds: libc::c_int) -> io::Result<()> {
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: seconds,
    };
    set_option(fd, libc::SOL_SOCKET, libc::SO_LINGER, &linger)
}

/// setsockopt(2) with `value`, of the type the option `name` takes (private so that only the
/// pairs of option and type above are ever passed).
fn set_option<T>(fd: RawFd, level: libc::c_int, name: libc::c_int, value: &T) -> io::Result<()> {
    // SAFETY: `value` points to a live `T` of the size passed, which the kernel only reads;
    // an `fd` that is not an open socket makes the call fail, not misbehave.
    let result = unsafe {
        libc::setsockopt(
            fd,
            level,
            name,
            (value as *const T).cast(),
            std::mem::size_of::<T>() as libc::socklen_t,
        )
    };
    if result == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;
    use std::os::fd::AsRawFd as _;

    fn get_option<T>(fd: RawFd, level: libc::c_int, name: libc::c_int, value: &mut T) {
        let mut length = std::mem::size_of::<T>() as libc::socklen_t;
        // SAFETY: `value` is a live `T` of the size passed; the kernel writes at most that.
        let result =
            unsafe { libc::getsockopt(fd, level, name, (value as *mut T).cast(), &mut length) };
        assert_eq!(result, 0, "getsockopt({level}, {name}) failed");
    }

    #[test]
    fn options_set_are_read_back_and_a_bad_descriptor_is_an_error() {
        let socket = TcpListener::bind("127.0.0.1:0").unwrap();
        let fd = socket.as_raw_fd();

        set_int_option(fd, libc::SOL_SOCKET, libc::SO_KEEPALIVE, 1).unwrap();
        let mut keep_alive: libc::c_int = 0;
        get_option(fd, libc::SOL_SOCKET, libc::SO_KEEPALIVE, &mut keep_alive);
        assert_ne!(keep_alive, 0);

        set_linger(fd, 7).unwrap();
        let mut linger = libc::linger {
            l_onoff: 0,
            l_linger: 0,
        };
        get_option(fd, libc::SOL_SOCKET, libc::SO_LINGER, &mut linger);
        assert_eq!((linger.l_onoff != 0, linger.l_linger), (true, 7));

        let error = set_linger(-1, 1).unwrap_err();
        assert_eq!(error.raw_os_error(), Some(libc::EBADF));
    }
}
