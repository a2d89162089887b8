//! A small tmpfs mounted for a test, for the tests of what happens when a filesystem runs out
//! of space or inodes.
//!
//! Mounting needs root (or CAP_SYS_ADMIN); without it [`SmallFilesystem::mount`] says so and
//! returns `None`, and the test passes without running, unless the environment variable
//! `L4RS_REQUIRE_TMPFS=1` is set (CI runs as root and sets it): then a mount that fails makes
//! the test fail, so these tests can never be skipped there unnoticed.

use std::ffi::CString;
use std::path::{Path, PathBuf};

/// The start of every mount point's name, followed by the process id.
const PREFIX: &str = "l4rs-tmpfs-";

/// A small tmpfs, unmounted (lazily, so even open files cannot keep it) on drop.
pub struct SmallFilesystem(PathBuf);

impl SmallFilesystem {
    /// Mounts a tmpfs with the mount `options` (`size=1m,nr_inodes=16`) on a fresh directory
    /// named after `label`; `None` (with a note on stderr) when mounting is not allowed.
    ///
    /// # Panics
    ///
    /// When the mount fails and `L4RS_REQUIRE_TMPFS=1` is set.
    pub fn mount(label: &str, options: &str) -> Option<SmallFilesystem> {
        remove_stale_mounts();
        let dir = std::env::temp_dir().join(format!("{PREFIX}{}-{label}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let target = CString::new(dir.to_str()?).ok()?;
        let options = CString::new(options).ok()?;
        // SAFETY: every pointer is a valid C string that outlives the call.
        let rc = unsafe {
            libc::mount(
                c"tmpfs".as_ptr(),
                target.as_ptr(),
                c"tmpfs".as_ptr(),
                0,
                options.as_ptr().cast(),
            )
        };
        if rc != 0 {
            let error = std::io::Error::last_os_error();
            let _ = std::fs::remove_dir(&dir);
            assert!(
                !tmpfs_required(),
                "L4RS_REQUIRE_TMPFS=1, but a tmpfs cannot be mounted on {}: {error}",
                dir.display()
            );
            eprintln!("skipping a full-filesystem test: cannot mount a tmpfs ({error})");
            return None;
        }
        Some(SmallFilesystem(dir))
    }

    /// Where it is mounted.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path of the file `name` on the filesystem, as a `fileName`.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }

    /// Writes `bytes` bytes into the file `filler` on the filesystem, so that only the rest of
    /// its size is left free, and returns the file's path (removing it frees the space again).
    pub fn fill(&self, bytes: usize) -> PathBuf {
        let filler = self.0.join("filler");
        std::fs::write(&filler, vec![b'f'; bytes])
            .unwrap_or_else(|e| panic!("fill {}: {e}", filler.display()));
        filler
    }
}

impl Drop for SmallFilesystem {
    fn drop(&mut self) {
        if let Ok(target) = CString::new(self.0.to_string_lossy().as_bytes()) {
            // SAFETY: unmounting the filesystem this guard mounted.
            unsafe {
                libc::umount2(target.as_ptr(), libc::MNT_DETACH);
            }
        }
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// True when the environment says a tmpfs must be mounted (`L4RS_REQUIRE_TMPFS=1`).
fn tmpfs_required() -> bool {
    std::env::var_os("L4RS_REQUIRE_TMPFS").is_some_and(|value| value == "1")
}

/// A test process that died (of a SIGBUS, say) left its mounts behind; the mounts of processes
/// that no longer exist are removed.
fn remove_stale_mounts() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|name| name.strip_prefix(PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        drop(SmallFilesystem(entry.path()));
    }
}
