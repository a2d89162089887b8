//! The `<PosixViewAttribute>` action: sets the permissions, owner and group of the files under
//! a base path that all its conditions accept (all of them without a condition), after each
//! rollover, as log4j2's `PosixViewAttributeAction` does.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use l4rs_config::model::PosixViewAttributeSpec;

use super::clock::epoch_millis;
use super::delete::{all_accept, compile_all, Candidate, Condition, STAGING_SUFFIX};

/// A file the walk found: the directory it is in (held open, so that no name on the way can be
/// swapped for a link before the file is changed), its name there, and what the conditions
/// read.
struct Found {
    dir: Arc<OwnedFd>,
    name: CString,
    candidate: Candidate,
}

/// A compiled `<PosixViewAttribute>`.
pub(crate) struct PosixViewAction {
    spec: PosixViewAttributeSpec,
    /// The conditions, whose accumulating counts carry over from one rollover to the next:
    /// log4j2 resets them before a `<Delete>`'s walk but never before this action's
    /// (compared with log4j2 by crates/conformance/tests/posix_view_attribute.rs).
    conditions: Mutex<Vec<Condition>>,
}

impl PosixViewAction {
    /// Compiles `spec`'s conditions.
    pub(crate) fn new(spec: &PosixViewAttributeSpec) -> Result<PosixViewAction, String> {
        Ok(PosixViewAction {
            conditions: Mutex::new(compile_all(&spec.conditions)?),
            spec: PosixViewAttributeSpec {
                conditions: Vec::new(),
                ..spec.clone()
            },
        })
    }

    /// The base path, for messages.
    pub(crate) fn base_path(&self) -> &str {
        &self.spec.base_path
    }

    /// Walks the base path in the directories' own order (as log4j2's file walk does) and
    /// applies the attributes to every accepted file. The owner and group are looked up at the
    /// first accepted file, as log4j2 looks them up there; one that does not exist, a missing
    /// base path, or a file that cannot be changed fails the action there, with Java's
    /// exception.
    pub(crate) fn run(&self) -> Result<(), String> {
        let base = Path::new(&self.spec.base_path);
        let base_dir = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY)
            .open(base)
            .map_err(|_| format!("java.nio.file.NoSuchFileException: {}", self.spec.base_path))?;
        let base_dir = Arc::new(OwnedFd::from(base_dir));
        let mut files = Vec::new();
        self.walk(&base_dir, base, "", self.spec.max_depth, &mut files);
        let mut conditions = self
            .conditions
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let now = epoch_millis(SystemTime::now());
        let mut ids = None;
        for found in &files {
            if all_accept(&mut conditions, &found.candidate, now) {
                let (owner, group) = match ids {
                    Some(ids) => ids,
                    None => *ids.insert(self.ids()?),
                };
                self.apply(found, owner, group)?;
            }
        }
        Ok(())
    }

    /// Adds the files in `dir` (at `relative` under `base`) and, down to `depth` levels, in
    /// its subdirectories, in the directory's own order. Each subdirectory is opened from its
    /// parent's descriptor, without following a link unless `followLinks`.
    fn walk(
        &self,
        dir: &Arc<OwnedFd>,
        base: &Path,
        relative: &str,
        depth: u32,
        into: &mut Vec<Found>,
    ) {
        if depth == 0 {
            return;
        }
        let follow = self.spec.follow_links;
        for name in directory_entries(dir) {
            let mut stat: libc::stat = unsafe { std::mem::zeroed() };
            let flags = if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW };
            // SAFETY: `dir` is an open directory, `name` a NUL-terminated name, `stat` ours.
            if unsafe { libc::fstatat(dir.as_raw_fd(), name.as_ptr(), &mut stat, flags) } != 0 {
                continue;
            }
            let text = String::from_utf8_lossy(name.to_bytes()).into_owned();
            let entry_relative = if relative.is_empty() {
                text
            } else {
                format!("{relative}/{text}")
            };
            if stat.st_mode & libc::S_IFMT == libc::S_IFDIR {
                let no_follow = if follow { 0 } else { libc::O_NOFOLLOW };
                // SAFETY: as above.
                let fd = unsafe {
                    libc::openat(
                        dir.as_raw_fd(),
                        name.as_ptr(),
                        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | no_follow,
                    )
                };
                if fd >= 0 {
                    // SAFETY: `fd` was just opened and is owned by nothing else.
                    let sub = Arc::new(unsafe { OwnedFd::from_raw_fd(fd) });
                    self.walk(&sub, base, &entry_relative, depth - 1, into);
                }
                continue;
            }
            if entry_relative.ends_with(STAGING_SUFFIX) {
                continue;
            }
            let modified_millis =
                stat.st_mtime.saturating_mul(1000) + stat.st_mtime_nsec / 1_000_000;
            into.push(Found {
                dir: Arc::clone(dir),
                name,
                candidate: Candidate::new(
                    base.join(&entry_relative),
                    entry_relative,
                    modified_millis,
                    u64::try_from(stat.st_size).unwrap_or(0),
                ),
            });
        }
    }

    /// The uid and gid of `fileOwner` and `fileGroup`, when given.
    fn ids(&self) -> Result<(Option<libc::uid_t>, Option<libc::gid_t>), String> {
        let owner = self
            .spec
            .owner
            .as_deref()
            .map(crate::posix::lookup_user)
            .transpose()
            .map_err(|error| error.to_string())?;
        let group = self
            .spec
            .group
            .as_deref()
            .map(crate::posix::lookup_group)
            .transpose()
            .map_err(|error| error.to_string())?;
        Ok((owner, group))
    }

    /// Sets the attributes of one file, owner and group first, as log4j2 sets them, through
    /// its directory's descriptor. Unless `followLinks` is set, no name is followed: a
    /// symbolic link is changed itself (its owner; Linux keeps no mode for a link), never the
    /// file it points to, also when a file or a directory on the way was replaced by a link
    /// after the walk saw it.
    fn apply(
        &self,
        found: &Found,
        owner: Option<libc::uid_t>,
        group: Option<libc::gid_t>,
    ) -> Result<(), String> {
        let failure = |what: &str, error: io::Error| {
            format!(
                "java.nio.file.FileSystemException: {}: cannot set the {what}: {error}",
                found.candidate.path.display()
            )
        };
        let dir = found.dir.as_raw_fd();
        let no_follow = if self.spec.follow_links {
            0
        } else {
            libc::AT_SYMLINK_NOFOLLOW
        };
        if owner.is_some() || group.is_some() {
            // `-1` (all bits set) leaves that id unchanged.
            let uid = owner.unwrap_or(libc::uid_t::MAX);
            let gid = group.unwrap_or(libc::gid_t::MAX);
            // SAFETY: `dir` is an open directory and `found.name` a NUL-terminated name.
            if unsafe { libc::fchownat(dir, found.name.as_ptr(), uid, gid, no_follow) } != 0 {
                return Err(failure("owner", io::Error::last_os_error()));
            }
        }
        if let Some(mode) = self.spec.permissions {
            // SAFETY: as above.
            if unsafe { libc::fchmodat(dir, found.name.as_ptr(), mode, no_follow) } != 0 {
                let error = io::Error::last_os_error();
                // A link (seen by the walk, or put in the file's place since): left as it is.
                if error.raw_os_error() != Some(libc::EOPNOTSUPP) {
                    return Err(failure("permissions", error));
                }
            }
        }
        Ok(())
    }
}

/// The names in the open directory `dir`, but `.` and `..`, in its own order.
fn directory_entries(dir: &OwnedFd) -> Vec<CString> {
    let mut names = Vec::new();
    // `fdopendir` takes its descriptor over: give it a duplicate.
    // SAFETY: `dir` is an open descriptor.
    let duplicate = unsafe { libc::fcntl(dir.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 0) };
    if duplicate < 0 {
        return names;
    }
    // SAFETY: `duplicate` is an open directory descriptor the stream now owns.
    let stream = unsafe { libc::fdopendir(duplicate) };
    if stream.is_null() {
        // SAFETY: the stream did not take it.
        unsafe { libc::close(duplicate) };
        return names;
    }
    loop {
        // SAFETY: `stream` is an open directory stream, read by this thread only.
        let entry = unsafe { libc::readdir(stream) };
        if entry.is_null() {
            break;
        }
        // SAFETY: `d_name` is a NUL-terminated name within the entry readdir returned.
        let name = unsafe { CStr::from_ptr((*entry).d_name.as_ptr()) };
        if name.to_bytes() != b"." && name.to_bytes() != b".." {
            names.push(name.to_owned());
        }
    }
    // SAFETY: closes the stream and its descriptor, once.
    unsafe { libc::closedir(stream) };
    names
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;
    use l4rs_config::model::PathConditionSpec;

    fn mode(path: &Path) -> u32 {
        std::fs::symlink_metadata(path)
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    }

    fn spec(base: &Path, conditions: Vec<PathConditionSpec>) -> PosixViewAttributeSpec {
        PosixViewAttributeSpec {
            base_path: base.display().to_string(),
            max_depth: 1,
            follow_links: false,
            conditions,
            permissions: Some(0o440),
            owner: None,
            group: None,
        }
    }

    #[test]
    fn changes_the_accepted_files_only() {
        let dir = l4rs_test_support::TempDir::new("posix-view");
        for name in [
            "app-1.log.gz",
            "app-2.log.gz",
            "app.log",
            "sub/app-3.log.gz",
        ] {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "x").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        let glob = PathConditionSpec::FileName {
            regex: l4rs_config::rolling::glob_to_regex("app-*.log.gz").expect("a glob"),
            nested: Vec::new(),
        };
        PosixViewAction::new(&spec(dir.path(), vec![glob]))
            .unwrap()
            .run()
            .unwrap();
        assert_eq!(mode(&dir.path().join("app-1.log.gz")), 0o440);
        assert_eq!(mode(&dir.path().join("app-2.log.gz")), 0o440);
        assert_eq!(mode(&dir.path().join("app.log")), 0o644);
        // Below maxDepth.
        assert_eq!(mode(&dir.path().join("sub/app-3.log.gz")), 0o644);
    }

    #[test]
    fn a_link_s_target_is_left_alone() {
        let dir = l4rs_test_support::TempDir::new("posix-view-link");
        let outside = l4rs_test_support::TempDir::new("posix-view-outside");
        let target = outside.path().join("secret");
        std::fs::write(&target, "x").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink(&target, dir.path().join("link")).unwrap();
        PosixViewAction::new(&spec(dir.path(), Vec::new()))
            .unwrap()
            .run()
            .unwrap();
        assert_eq!(mode(&target), 0o600);
    }

    /// The files `action` finds under `base`, walked `depth` levels down.
    fn walked(action: &PosixViewAction, base: &Path, depth: u32) -> Vec<Found> {
        let dir = std::fs::File::open(base).unwrap();
        let dir = Arc::new(OwnedFd::from(dir));
        let mut files = Vec::new();
        action.walk(&dir, base, "", depth, &mut files);
        files
    }

    #[test]
    fn a_file_replaced_by_a_link_after_the_walk_is_not_followed() {
        let dir = l4rs_test_support::TempDir::new("posix-view-swap");
        let outside = l4rs_test_support::TempDir::new("posix-view-swap-outside");
        let target = outside.path().join("secret");
        std::fs::write(&target, "x").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        let file = dir.path().join("app-1.log");
        std::fs::write(&file, "x").unwrap();
        let action = PosixViewAction::new(&spec(dir.path(), Vec::new())).unwrap();
        // What the walk saw: a regular file; what is there when it is changed: a link.
        let files = walked(&action, dir.path(), 1);
        std::fs::remove_file(&file).unwrap();
        std::os::unix::fs::symlink(&target, &file).unwrap();
        for found in &files {
            action.apply(found, None, None).unwrap();
        }
        assert_eq!(mode(&target), 0o600);
    }

    #[test]
    fn a_directory_replaced_by_a_link_after_the_walk_is_not_followed() {
        let dir = l4rs_test_support::TempDir::new("posix-view-swap-dir");
        let outside = l4rs_test_support::TempDir::new("posix-view-swap-dir-outside");
        let target = outside.path().join("app-1.log");
        std::fs::write(&target, "x").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("app-1.log"), "x").unwrap();
        let mut spec = spec(dir.path(), Vec::new());
        spec.max_depth = 2;
        let action = PosixViewAction::new(&spec).unwrap();
        let files = walked(&action, dir.path(), 2);
        // The directory the walk went through moves away, and a link takes its name.
        let moved = dir.path().join("moved");
        std::fs::rename(&sub, &moved).unwrap();
        std::os::unix::fs::symlink(outside.path(), &sub).unwrap();
        for found in &files {
            action.apply(found, None, None).unwrap();
        }
        assert_eq!(mode(&target), 0o600, "the link's target was changed");
        assert_eq!(
            mode(&moved.join("app-1.log")),
            0o440,
            "the file walked was not"
        );
    }

    #[test]
    fn a_missing_base_path_fails_the_action() {
        let dir = l4rs_test_support::TempDir::new("posix-view-missing");
        let error = PosixViewAction::new(&spec(&dir.path().join("none"), Vec::new()))
            .unwrap()
            .run()
            .unwrap_err();
        assert!(
            error.starts_with("java.nio.file.NoSuchFileException"),
            "{error}"
        );
    }

    #[test]
    fn an_unknown_owner_fails_at_the_first_accepted_file() {
        let dir = l4rs_test_support::TempDir::new("posix-view-owner");
        let file = dir.path().join("app-1.log");
        std::fs::write(&file, "x").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let mut spec = spec(dir.path(), Vec::new());
        spec.owner = Some("no-such-user-l4rs".to_string());
        let error = PosixViewAction::new(&spec).unwrap().run().unwrap_err();
        assert!(
            error.starts_with("java.nio.file.attribute.UserPrincipalNotFoundException"),
            "{error}"
        );
        assert_eq!(mode(&file), 0o644);
    }
}
