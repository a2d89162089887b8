//! A fresh folder for one test: removed when the test is done with it ([`TempDir`]), or kept
//! for reading after it ([`fresh_dir_at`]).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh, empty folder, removed with everything in it when dropped.
///
/// Its name holds the process id and a counter, so tests running in parallel, in one binary or
/// in several, never share one; `label` says which test made it.
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh folder under the system's temporary folder.
    pub fn new(label: &str) -> TempDir {
        TempDir::new_in(&std::env::temp_dir(), label)
    }

    /// A fresh folder under `root` (a small tmpfs, for example).
    pub fn new_in(root: &Path, label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let path = root.join(format!(
            "l4rs-test-{}-{}-{label}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        // A folder left by an earlier process with the same id would hold its files.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("create {}: {e}", path.display()));
        TempDir(path)
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path of `name` inside it, as text (for a configuration's `fileName`).
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }

    /// Makes a FIFO (mode 0600) called `name` inside it and returns its path as [`file`]
    /// does, for tests of what opening one does.
    ///
    /// [`file`]: TempDir::file
    pub fn fifo(&self, name: &str) -> String {
        let path = self.file(name);
        make_fifo(Path::new(&path));
        path
    }
}

/// Makes a FIFO (mode 0600) at `path`, for tests of what opening one does (a folder that is
/// not a [`TempDir`] uses this; a `TempDir` has [`TempDir::fifo`]).
pub fn make_fifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt as _;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("a path without NUL");
    // SAFETY: a valid NUL-terminated path.
    let made = unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) };
    assert_eq!(made, 0, "mkfifo {}", path.display());
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The folder `path`, emptied of what an earlier run left there and created. Unlike a
/// [`TempDir`] it stays after the test, so that its files can be read when the test fails; a
/// test that uses a fixed `path` must be the only one to use it.
pub fn fresh_dir_at(path: PathBuf) -> PathBuf {
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("create {}: {e}", path.display()));
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_folder_is_fresh_and_removed_on_drop() {
        let first = TempDir::new("fresh");
        let second = TempDir::new("fresh");
        assert_ne!(first.path(), second.path());
        std::fs::write(first.file("a.log"), "x").unwrap();
        let path = first.path().to_path_buf();
        drop(first);
        assert!(!path.exists());
        assert!(second.path().is_dir());
    }

    #[test]
    fn a_fifo_is_made_inside_it() {
        use std::os::unix::fs::FileTypeExt as _;
        let dir = TempDir::new("fifo");
        let fifo = dir.fifo("pipe");
        assert_eq!(fifo, dir.file("pipe"));
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }

    #[test]
    fn a_fresh_dir_at_a_path_is_emptied_and_kept() {
        let parent = TempDir::new("fresh-at");
        let path = parent.path().join("kept");
        std::fs::create_dir_all(&path).unwrap();
        std::fs::write(path.join("old.log"), "x").unwrap();
        assert_eq!(fresh_dir_at(path.clone()), path);
        assert!(path.is_dir());
        assert!(!path.join("old.log").exists());
    }
}
