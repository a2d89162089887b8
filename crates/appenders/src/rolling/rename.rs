//! Renaming without replacing. rename(2) silently replaces its target, so a rollover that
//! numbered an archive wrongly (or raced another process for a name) would destroy the
//! archive already there, the only copy of its events, and say nothing. Moves whose target
//! is meant to be free go through [`rename_no_replace`], which fails instead.

use std::io;
use std::path::Path;

/// Moves `from` to `to` unless something exists at `to`: then it fails with
/// [`io::ErrorKind::AlreadyExists`] and leaves both as they were.
///
/// Atomic where the kernel and file system offer `renameat2(RENAME_NOREPLACE)`. Elsewhere a
/// hard link (which never replaces) and an unlink of the old name: a crash between the two
/// leaves both names, so a staging file may then be archived twice (duplicated, never lost).
/// On a file system without hard links, a check for `to` and a rename, which only a process
/// creating `to` in between can get wrong.
pub(crate) fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    match renameat2_no_replace(from, to) {
        // Some sandboxes (seccomp profiles) refuse system calls they do not know with EPERM.
        Err(error) if unsupported(&error) || error.raw_os_error() == Some(libc::EPERM) => {}
        done => return done,
    }
    match std::fs::hard_link(from, to) {
        Ok(()) => match std::fs::remove_file(from) {
            // Gone already (a retried remove on a network file system): `to` holds the file.
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(error) => {
                // Two names for one file would archive its events twice.
                let _ = std::fs::remove_file(to);
                Err(error)
            }
            Ok(()) => Ok(()),
        },
        Err(error) if unsupported(&error) || error.raw_os_error() == Some(libc::EPERM) => {
            if std::fs::symlink_metadata(to).is_ok() {
                return Err(exists(to));
            }
            std::fs::rename(from, to)
        }
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Err(exists(to)),
        Err(error) => Err(error),
    }
}

/// Moves `from` to `to`, replacing what is there only with `replace` (log4j2's behaviour
/// where an archive's name is not numbered after the files on disk).
pub(crate) fn rename(from: &Path, to: &Path, replace: bool) -> io::Result<()> {
    if replace {
        std::fs::rename(from, to)
    } else {
        rename_no_replace(from, to)
    }
}

/// The error of a move refused because `to` exists, naming it.
pub(crate) fn exists(to: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{} exists and is not replaced", to.display()),
    )
}

/// Whether `error` says the call is not available here (old kernel, file system without
/// the flag or the operation), rather than that it failed.
fn unsupported(error: &io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::EINVAL | libc::ENOSYS | libc::EOPNOTSUPP)
    )
}

#[cfg(target_os = "linux")]
fn renameat2_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt as _;
    let c_path = |path: &Path| {
        std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path with a NUL byte"))
    };
    let (from, to_c) = (c_path(from)?, c_path(to)?);
    // The raw system call: the libc wrapper is missing from older glibc and from some libcs.
    // SAFETY: two valid NUL-terminated paths that outlive the call.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to_c.as_ptr(),
            libc::RENAME_NOREPLACE,
        )
    };
    if rc == 0 {
        return Ok(());
    }
    let error = io::Error::last_os_error();
    if error.raw_os_error() == Some(libc::EEXIST) {
        return Err(exists(to));
    }
    Err(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_name_is_taken_and_an_existing_one_is_left_alone() {
        let dir = crate::test_support::TempDir::new("rename-no-replace");
        let from = dir.path().join("staging");
        let to = dir.path().join("archive-1.log");
        std::fs::write(&from, b"new").unwrap();
        std::fs::write(&to, b"old").unwrap();
        let error = rename_no_replace(&from, &to).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists, "{error}");
        assert!(error.to_string().contains("archive-1.log"), "{error}");
        assert_eq!(std::fs::read(&from).unwrap(), b"new");
        assert_eq!(std::fs::read(&to).unwrap(), b"old");
        // A directory in the way is not replaced either.
        let taken = dir.path().join("archive-2.log");
        std::fs::create_dir(&taken).unwrap();
        assert!(rename_no_replace(&from, &taken).is_err());
        assert!(taken.is_dir() && from.exists());
        let free = dir.path().join("archive-3.log");
        rename_no_replace(&from, &free).unwrap();
        assert!(!from.exists());
        assert_eq!(std::fs::read(&free).unwrap(), b"new");
    }
}
