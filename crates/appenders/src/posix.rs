//! The POSIX calls behind the file options: `filePermissions`, `fileOwner` and `fileGroup`
//! (mode bits, user and group lookups by name or number), and the whole-file write lock of
//! `locking="true"`.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::unix::io::AsRawFd as _;
use std::path::Path;
use std::str::FromStr;

use l4rs_core::status;

use crate::file_manager::FileOptions;

pub(crate) use l4rs_config::posix::parse_permissions;

/// Applies `filePermissions`, `fileOwner` and `fileGroup`, each time the file is opened (log4j2's
/// `defineAttributeView`). The mode is set exactly, whatever the umask. Failures are reported
/// and the file used anyway.
pub(crate) fn define_attributes(file: &File, path: &Path, options: &FileOptions) {
    let fd = file.as_raw_fd();
    let report = |reason: &dyn std::fmt::Display| {
        status::error(format_args!(
            "Could not define attribute view on path \"{}\" got {reason}",
            path.display()
        ))
    };
    if let Some(mode) = options.permissions {
        // SAFETY: `fd` is an open descriptor owned by `file` for the duration of the call.
        if unsafe { libc::fchmod(fd, mode as libc::mode_t) } != 0 {
            report(&io::Error::last_os_error());
        }
    }
    // A user or group that cannot be looked up is reported, and that part is left as it is.
    let uid = options
        .owner
        .as_deref()
        .and_then(|owner| lookup_user(owner).map_err(|error| report(&error)).ok());
    let gid = options
        .group
        .as_deref()
        .and_then(|group| lookup_group(group).map_err(|error| report(&error)).ok());
    if uid.is_some() || gid.is_some() {
        // `-1` (all bits set) leaves that id unchanged.
        let uid = uid.unwrap_or(libc::uid_t::MAX);
        let gid = gid.unwrap_or(libc::gid_t::MAX);
        // SAFETY: as above.
        if unsafe { libc::fchown(fd, uid, gid) } != 0 {
            report(&io::Error::last_os_error());
        }
    }
}

/// Runs a `get*nam_r` lookup with a growing buffer. `call` returns the C function's result and
/// whether an entry was found.
fn lookup_with_buffer(mut call: impl FnMut(&mut [libc::c_char]) -> (libc::c_int, bool)) -> bool {
    let mut size = 1024;
    loop {
        let mut buffer = vec![0 as libc::c_char; size];
        let (rc, found) = call(&mut buffer);
        if rc == libc::ERANGE && size < (1 << 20) {
            size *= 4;
            continue;
        }
        return rc == 0 && found;
    }
}

/// A user name (or, as Java also accepts, a numeric uid) to a uid.
pub(crate) fn lookup_user(name: &str) -> io::Result<libc::uid_t> {
    // SAFETY: `getpwnam_r` fills in a `passwd`, plain data for which zeroed is a valid value.
    unsafe { lookup_id(name, "user", libc::getpwnam_r, |entry| entry.pw_uid) }
}

/// A group name (or a numeric gid) to a gid.
pub(crate) fn lookup_group(name: &str) -> io::Result<libc::gid_t> {
    // SAFETY: `getgrnam_r` fills in a `group`, plain data for which zeroed is a valid value.
    unsafe { lookup_id(name, "group", libc::getgrnam_r, |entry| entry.gr_gid) }
}

/// A reentrant lookup by name of libc's (`getpwnam_r`, `getgrnam_r`), filling in an `E`.
type GetByName<E> = unsafe extern "C" fn(
    *const libc::c_char,
    *mut E,
    *mut libc::c_char,
    libc::size_t,
    *mut *mut E,
) -> libc::c_int;

/// The id of the `what` ("user", "group") named `name`, found with `get_by_name` and read from
/// the entry by `id`; a name that is not found may be the numeric id itself.
///
/// # Safety
///
/// `E` must be the plain C struct `get_by_name` fills in, one for which all zero bytes are a
/// valid value.
unsafe fn lookup_id<E, Id: FromStr>(
    name: &str,
    what: &str,
    get_by_name: GetByName<E>,
    id: impl FnOnce(&E) -> Id,
) -> io::Result<Id> {
    if let Ok(c_name) = CString::new(name) {
        // SAFETY: the caller guarantees that zeroed is a valid "empty" value for `E`.
        let mut entry: E = unsafe { std::mem::zeroed() };
        let mut result: *mut E = std::ptr::null_mut();
        let found = lookup_with_buffer(|buffer| {
            // SAFETY: every pointer refers to live memory of the stated size.
            let rc = unsafe {
                get_by_name(
                    c_name.as_ptr(),
                    &mut entry,
                    buffer.as_mut_ptr(),
                    buffer.len(),
                    &mut result,
                )
            };
            (rc, !result.is_null())
        });
        if found {
            return Ok(id(&entry));
        }
    }
    name.parse().map_err(|_| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "java.nio.file.attribute.UserPrincipalNotFoundException: no {what} named {name}"
            ),
        )
    })
}

/// A POSIX write lock on a whole file, released on drop.
pub(crate) struct OsFileLock<'f> {
    file: &'f File,
}

impl<'f> OsFileLock<'f> {
    pub(crate) fn acquire(file: &'f File) -> io::Result<OsFileLock<'f>> {
        let request = whole_file_lock(libc::F_WRLCK);
        loop {
            // SAFETY: `request` is a valid `flock` and the descriptor is open.
            if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLKW, &request) } == 0 {
                return Ok(OsFileLock { file });
            }
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
    }
}

impl Drop for OsFileLock<'_> {
    fn drop(&mut self) {
        let request = whole_file_lock(libc::F_UNLCK);
        // SAFETY: as in `acquire`. Unlocking cannot block; a failure leaves the lock to be
        // released when the descriptor closes.
        unsafe {
            libc::fcntl(self.file.as_raw_fd(), libc::F_SETLK, &request);
        }
    }
}

fn whole_file_lock(kind: libc::c_int) -> libc::flock {
    // SAFETY: `flock` is plain data; zero is "from offset 0 of SEEK_SET, to the end".
    let mut request: libc::flock = unsafe { std::mem::zeroed() };
    request.l_type = kind as libc::c_short;
    request.l_whence = libc::SEEK_SET as libc::c_short;
    request
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_and_groups_resolve_by_name_or_number() {
        assert_eq!(lookup_user("root").unwrap(), 0);
        assert_eq!(lookup_user("12345").unwrap(), 12345);
        assert!(lookup_user("no-such-user-l4rs").is_err());
        assert_eq!(lookup_group("0").unwrap(), 0);
        assert!(lookup_group("no-such-group-l4rs").is_err());
        assert!(lookup_user("nul\0in name").is_err());
    }
}
