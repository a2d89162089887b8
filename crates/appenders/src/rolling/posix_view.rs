//! The `<PosixViewAttribute>` action: sets the permissions, owner and group of the files under
//! a base path that all its conditions accept (all of them without a condition), after each
//! rollover, as log4j2's `PosixViewAttributeAction` does.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;
use std::sync::Mutex;
use std::time::SystemTime;

use l4rs_config::model::PosixViewAttributeSpec;

use super::clock::epoch_millis;
use super::delete::{all_accept, collect, compile_all, Candidate, Condition};

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
        if std::fs::symlink_metadata(base).is_err() {
            return Err(format!(
                "java.nio.file.NoSuchFileException: {}",
                self.spec.base_path
            ));
        }
        let mut files = Vec::new();
        collect(
            base,
            base,
            self.spec.max_depth,
            self.spec.follow_links,
            &mut files,
        );
        let mut conditions = self
            .conditions
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let now = epoch_millis(SystemTime::now());
        let mut ids = None;
        for file in &files {
            if all_accept(&mut conditions, file, now) {
                let (owner, group) = match ids {
                    Some(ids) => ids,
                    None => *ids.insert(self.ids()?),
                };
                self.apply(file, owner, group)?;
            }
        }
        Ok(())
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

    /// Sets the attributes of one file, owner and group first, as log4j2 sets them. Unless
    /// `followLinks` is set, the name is never followed: a symbolic link is changed itself
    /// (its owner; Linux keeps no mode for a link), never the file it points to, also when a
    /// file was replaced by a link after the walk saw it.
    fn apply(
        &self,
        file: &Candidate,
        owner: Option<libc::uid_t>,
        group: Option<libc::gid_t>,
    ) -> Result<(), String> {
        let failure = |what: &str, error: std::io::Error| {
            format!(
                "java.nio.file.FileSystemException: {}: cannot set the {what}: {error}",
                file.path.display()
            )
        };
        let path = CString::new(file.path.as_os_str().as_bytes())
            .map_err(|_| format!("{}: a NUL in the path", file.path.display()))?;
        let no_follow = if self.spec.follow_links {
            0
        } else {
            libc::AT_SYMLINK_NOFOLLOW
        };
        if owner.is_some() || group.is_some() {
            // `-1` (all bits set) leaves that id unchanged.
            let uid = owner.unwrap_or(libc::uid_t::MAX);
            let gid = group.unwrap_or(libc::gid_t::MAX);
            // SAFETY: `path` is a NUL-terminated string that outlives the call.
            if unsafe { libc::fchownat(libc::AT_FDCWD, path.as_ptr(), uid, gid, no_follow) } != 0 {
                return Err(failure("owner", std::io::Error::last_os_error()));
            }
        }
        if let Some(mode) = self.spec.permissions {
            // SAFETY: as above.
            if unsafe { libc::fchmodat(libc::AT_FDCWD, path.as_ptr(), mode, no_follow) } != 0 {
                let error = std::io::Error::last_os_error();
                // A link (seen by the walk, or put in the file's place since): left as it is.
                if error.raw_os_error() != Some(libc::EOPNOTSUPP) {
                    return Err(failure("permissions", error));
                }
            }
        }
        Ok(())
    }
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
        let seen = Candidate::regular_for_test(&file);
        std::fs::remove_file(&file).unwrap();
        std::os::unix::fs::symlink(&target, &file).unwrap();
        action.apply(&seen, None, None).unwrap();
        assert_eq!(mode(&target), 0o600);
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
