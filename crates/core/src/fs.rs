//! Opening files without blocking: a configuration may name a FIFO or a device where a file is
//! expected, and opening or reading one must not hang the thread that loads a configuration.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
use std::os::unix::io::AsRawFd as _;
use std::path::Path;

/// Opens `path` with `options` (and the extra open(2) `flags`) without waiting: a FIFO that no
/// process reads fails at once with `ENXIO` instead of blocking the thread for ever, as a
/// plain open for writing would (and log4j2's does). Once open, the descriptor is made
/// blocking again, so writes behave as they always do.
pub fn open_without_waiting(
    options: &mut OpenOptions,
    path: &Path,
    flags: libc::c_int,
) -> io::Result<File> {
    let file = options.custom_flags(flags | libc::O_NONBLOCK).open(path)?;
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is open and owned by `file` for the duration of both calls.
    let status = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if status == -1 || unsafe { libc::fcntl(fd, libc::F_SETFL, status & !libc::O_NONBLOCK) } == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(file)
}

/// Opens `path` for reading only if it is a regular file. Reading a FIFO waits for a writer
/// and reading a device (`/dev/stdin`, `/dev/zero`) may never end, so a file a configuration
/// pulls in (an XInclude, a resource bundle) that is one of these is refused with an
/// [`io::ErrorKind::InvalidInput`] error saying what it is, without waiting for anything.
pub fn open_regular_file(path: &Path) -> io::Result<File> {
    let file = open_without_waiting(OpenOptions::new().read(true), path, 0)?;
    let file_type = file.metadata()?.file_type();
    if file_type.is_file() {
        return Ok(file);
    }
    let what = if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {what}, not a regular file: name a regular file"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;

    #[test]
    fn only_regular_files_are_opened_and_a_fifo_never_waits() {
        let dir = std::env::temp_dir().join(format!("l4rs-core-fs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let regular = dir.join("regular.txt");
        std::fs::write(&regular, "text").unwrap();
        let mut text = String::new();
        open_regular_file(&regular)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "text");

        let fifo = dir.join("pipe");
        let c_fifo = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_fifo.as_ptr(), 0o600) }, 0);
        let refused = open_regular_file(&fifo).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::InvalidInput);
        assert!(refused.to_string().contains("a FIFO"), "{refused}");
        let refused = open_regular_file(Path::new("/dev/null")).unwrap_err();
        assert!(
            refused.to_string().contains("character device"),
            "{refused}"
        );
        let refused = open_regular_file(&dir).unwrap_err();
        assert!(refused.to_string().contains("directory"), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
