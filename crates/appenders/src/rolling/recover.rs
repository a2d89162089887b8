//! Crash leftovers. A rollover first renames the current file to a hidden staging name
//! (`.NAME.<pid>-<n>.l4rs-rolling`) and leaves the rest to the worker; a compression writes
//! a hidden partial archive (`.ARCHIVE.<pid>-compressing.l4rs-rolling`), deletes its source and
//! then renames it. A process killed in between leaves these files behind. When a rolling
//! manager starts, the partial archives of processes that are gone are settled: deleted while
//! their source is still there (it stays, uncompressed), renamed into place once it is gone
//! (the archive was complete). Only then are the staging files of processes that are gone
//! archived as the rollover would have archived them (their data is whole: it was closed
//! before the rename was visible to anyone, or it is what the killed process had written), so
//! that none of them is numbered into the place of a complete archive not yet renamed.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::compress::{PARTIAL_SUFFIX, SUPPORTED};
use super::delete::STAGING_SUFFIX;
use super::rename::rename_no_replace;

/// Whether process `pid` exists. A process we may not signal (EPERM) exists too; only ESRCH
/// says it is gone, so a live writer's files are never touched.
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    if pid == 0 {
        return true;
    }
    // SAFETY: signal 0 only checks that the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a leftover named with process id `pid`, last changed at `changed` (epoch ms, the
/// inode's change time, which a rename sets too), was left by a process that is gone. Ids are
/// reused, and a restarted container's process is often pid 1 again, so a file with this
/// process's own id is an earlier process's when it changed before this one started
/// (`own_start`); a file this process made cannot have.
fn left_by_gone_process(pid: u32, changed: Option<i64>, own_pid: u32, own_start: i64) -> bool {
    if pid == own_pid {
        return changed.is_some_and(|changed| changed < own_start);
    }
    !alive(pid)
}

/// The inode change time of `path` in epoch ms.
fn changed_millis(path: &Path) -> Option<i64> {
    use std::os::unix::fs::MetadataExt as _;
    let metadata = std::fs::symlink_metadata(path).ok()?;
    Some(metadata.ctime() * 1000 + metadata.ctime_nsec() / 1_000_000)
}

/// The files of `dir` whose name `parse` reads as the id of the process that wrote it and
/// what else the name says, when that process is gone.
fn orphans<T>(dir: &Path, parse: impl Fn(&str) -> Option<(u32, T)>) -> Vec<(PathBuf, T)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let (own_pid, own_start) = (std::process::id(), l4rs_core::time::process_start_millis());
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let (pid, rest) = parse(&name)?;
            let path = entry.path();
            let changed = (pid == own_pid).then(|| changed_millis(&path)).flatten();
            left_by_gone_process(pid, changed, own_pid, own_start).then_some((path, rest))
        })
        .collect()
}

/// The staging files of `current` left by processes that are gone, oldest first (by last
/// write, then by their rollover sequence).
pub(crate) fn staging_leftovers(current: &Path) -> Vec<PathBuf> {
    let Some(base) = current.file_name().and_then(|name| name.to_str()) else {
        return Vec::new();
    };
    let dir = parent_dir(current);
    let prefix = format!(".{base}.");
    let sequence_of = |name: &str| -> Option<(u32, u64)> {
        let middle = name.strip_prefix(&prefix)?.strip_suffix(STAGING_SUFFIX)?;
        let (pid, sequence) = middle.split_once('-')?;
        if !is_digits(pid) || !is_digits(sequence) {
            return None;
        }
        Some((pid.parse().ok()?, sequence.parse().ok()?))
    };
    let mut found: Vec<(SystemTime, (u32, u64), PathBuf)> =
        orphans(dir, |name| sequence_of(name).map(|order| (order.0, order)))
            .into_iter()
            .filter_map(|(path, order)| {
                let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
                Some((modified, order, path))
            })
            .collect();
    found.sort();
    found.into_iter().map(|(_, _, path)| path).collect()
}

/// What became of a partial archive left by a process that is gone.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Settled {
    /// Its source was still there (the compression had not committed): the partial is deleted
    /// and the source stays, uncompressed.
    Deleted(PathBuf),
    /// Its source was gone, so the archive was complete: renamed to its final name.
    Placed(PathBuf),
    /// Complete, but something already has its final name `target`: put beside it under the
    /// free name `archive` (`NAME.recovered-PID.gz` for `NAME.gz`), where no later start takes
    /// it for an unfinished compression.
    Aside { archive: PathBuf, target: PathBuf },
    /// Complete, its final name `target` taken, and no free name beside it could be found:
    /// kept under its partial name.
    Kept { partial: PathBuf, target: PathBuf },
}

/// Settles the partial archives in `dir` of processes that are gone (see
/// [`super::compress::compress`] for the order that makes this safe): deleted while their
/// source (the archive's name without its compression suffix) exists, else renamed into
/// place, never over an existing file; when that name is taken, beside it (see
/// [`Settled::Aside`]).
///
/// An existing source means an unfinished compression only while nothing has numbered an
/// archive since the process ended, so this runs before a new manager hands any work to its
/// worker.
pub(crate) fn settle_partial_archives(dir: &Path) -> Vec<Settled> {
    let end = format!("-{PARTIAL_SUFFIX}");
    let pid_and_target = |name: &str| -> Option<(u32, (u32, String))> {
        let rest = name.strip_prefix('.')?.strip_suffix(end.as_str())?;
        let (target, pid) = rest.rsplit_once('.')?;
        if !is_digits(pid) {
            return None;
        }
        let pid = pid.parse().ok()?;
        Some((pid, (pid, target.to_string())))
    };
    orphans(dir, pid_and_target)
        .into_iter()
        .filter_map(|(partial, (pid, target))| {
            let split = SUPPORTED
                .iter()
                .find_map(|suffix| Some((target.strip_suffix(suffix)?, *suffix)));
            if split.is_some_and(|(source, _)| dir.join(source).exists()) {
                std::fs::remove_file(&partial).ok()?;
                return Some(Settled::Deleted(partial));
            }
            let target_path = dir.join(&target);
            match rename_no_replace(&partial, &target_path) {
                Ok(()) => Some(Settled::Placed(target_path)),
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {
                    // Left under its partial name, a later start would delete this complete
                    // archive as unfinished once a file with its source's name appeared.
                    let (stem, suffix) = split.unwrap_or((target.as_str(), ""));
                    put_aside(&partial, dir, stem, pid, suffix, target_path)
                }
                Err(_) => None,
            }
        })
        .collect()
}

/// How many names beside a taken one are tried for a complete partial archive.
const ASIDE_ATTEMPTS: u32 = 100;

/// Moves the complete partial archive `partial`, whose final name `target` is taken, to the
/// first free name of `STEM.recovered-PID[-N]SUFFIX` in `dir`. `None` when the move fails for
/// another reason (another process starting at the same time may have moved it first), as
/// for the other settlements.
fn put_aside(
    partial: &Path,
    dir: &Path,
    stem: &str,
    pid: u32,
    suffix: &str,
    target: PathBuf,
) -> Option<Settled> {
    for attempt in 1..=ASIDE_ATTEMPTS {
        let again = if attempt == 1 {
            String::new()
        } else {
            format!("-{attempt}")
        };
        let archive = dir.join(format!("{stem}.recovered-{pid}{again}{suffix}"));
        match rename_no_replace(partial, &archive) {
            Ok(()) => return Some(Settled::Aside { archive, target }),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(_) => return None,
        }
    }
    Some(Settled::Kept {
        partial: partial.to_path_buf(),
        target,
    })
}

/// The directory `path` is in (`.` for a bare name).
pub(crate) fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Why an archive cannot be moved to `target`, checked before a rollover starts so that a
/// rollover bound to fail leaves the current file alone: `target` is a directory (unless
/// `only_directory`: with `%i` the worker picks the index, so only the directory can be
/// checked), a path element before it is a file, or (for users the permission bits apply to)
/// its directory is not writable.
pub(crate) fn archive_blocked(target: &Path, only_directory: bool) -> Option<String> {
    if !only_directory && std::fs::metadata(target).is_ok_and(|m| m.is_dir()) {
        return Some(format!("{} is a directory", target.display()));
    }
    let mut ancestor = target.parent();
    while let Some(dir) = ancestor.filter(|dir| !dir.as_os_str().is_empty()) {
        match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => return writable(dir),
            Ok(_) => return Some(format!("{} is not a directory", dir.display())),
            // Missing directories are created when the archive is placed.
            Err(_) => ancestor = dir.parent(),
        }
    }
    writable(Path::new("."))
}

/// Why the process may not create entries in `dir`, if it may not. Judged as rename(2) and
/// open(2) will judge it: by the effective ids (see [`crate::target::access`]).
fn writable(dir: &Path) -> Option<String> {
    crate::target::access(dir, libc::W_OK | libc::X_OK)
        .err()
        .map(|error| {
            format!(
                "{} is not writable: {}",
                dir.display(),
                crate::os_reason(&error)
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_test_support::dead_pid;

    #[test]
    fn a_file_with_this_process_id_is_an_earlier_process_only_if_older_than_this_one() {
        let own = std::process::id();
        let start = 1_000_000;
        assert!(left_by_gone_process(own, Some(start - 1), own, start));
        assert!(!left_by_gone_process(own, Some(start), own, start));
        assert!(!left_by_gone_process(own, Some(start + 5), own, start));
        // No change time known: the file may be this process's, so it is left alone.
        assert!(!left_by_gone_process(own, None, own, start));
        // Another id: whether that process still runs decides, whatever the file's age.
        assert!(left_by_gone_process(dead_pid(), None, own, start));
        assert!(!left_by_gone_process(1, Some(0), own, start), "pid 1 runs");
    }

    #[test]
    fn this_process_started_before_the_files_it_makes() {
        let dir = crate::test_support::TempDir::new("recover-own-start");
        let file = dir.path().join("made-now");
        std::fs::write(&file, b"x").unwrap();
        let changed = changed_millis(&file).unwrap();
        assert!(l4rs_core::time::process_start_millis() <= changed);
    }

    #[test]
    fn only_leftovers_of_dead_processes_are_found() {
        let dir = crate::test_support::TempDir::new("recover");
        let current = dir.path().join("app.log");
        let dead = dead_pid();
        let mine = std::process::id();
        for name in [
            format!(".app.log.{dead}-1{STAGING_SUFFIX}"),
            format!(".app.log.{dead}-0{STAGING_SUFFIX}"),
            format!(".app.log.{mine}-0{STAGING_SUFFIX}"),
            format!(".other.log.{dead}-0{STAGING_SUFFIX}"),
            format!(".app.log.gz.{dead}-{PARTIAL_SUFFIX}"),
            format!(".app.log.gz.{mine}-{PARTIAL_SUFFIX}"),
            // Killed after its source was deleted: the archive is complete.
            format!(".app-2.log.gz.{dead}-{PARTIAL_SUFFIX}"),
            // Killed while compressing: the source is still there.
            "app-3.log".to_string(),
            format!(".app-3.log.gz.{dead}-{PARTIAL_SUFFIX}"),
            // Complete, but its name is taken: neither is lost.
            "app-4.log.gz".to_string(),
            format!(".app-4.log.gz.{dead}-{PARTIAL_SUFFIX}"),
        ] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        let found = staging_leftovers(&current);
        let names: Vec<String> = found
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names
            .iter()
            .all(|n| n.starts_with(&format!(".app.log.{dead}-"))));
        let mut settled = settle_partial_archives(dir.path());
        settled.sort_by_key(|s| format!("{s:?}"));
        let partial = |name: &str| dir.path().join(format!(".{name}.{dead}-{PARTIAL_SUFFIX}"));
        assert_eq!(
            settled,
            [
                Settled::Aside {
                    archive: dir.path().join(format!("app-4.log.recovered-{dead}.gz")),
                    target: dir.path().join("app-4.log.gz"),
                },
                Settled::Deleted(partial("app-3.log.gz")),
                Settled::Placed(dir.path().join("app-2.log.gz")),
                Settled::Placed(dir.path().join("app.log.gz")),
            ]
        );
        assert!(
            dir.path().join("app-4.log.gz").exists(),
            "the file there stays"
        );
        assert!(
            !partial("app-4.log.gz").exists(),
            "the complete archive was moved aside"
        );
        assert!(dir.path().join("app-3.log").exists(), "the source stays");
        assert!(!partial("app-3.log.gz").exists() && !partial("app-2.log.gz").exists());
        assert!(dir
            .path()
            .join(format!(".app.log.gz.{mine}-{PARTIAL_SUFFIX}"))
            .exists());
    }

    /// A complete archive whose name was taken is moved out of the partial names at once: left
    /// there, a later start would delete it as unfinished once its source's name was in use.
    #[test]
    fn a_complete_archive_put_aside_survives_its_source_name_coming_back() {
        let dir = crate::test_support::TempDir::new("recover-aside");
        let dead = dead_pid();
        let partial = dir
            .path()
            .join(format!(".app-4.log.gz.{dead}-{PARTIAL_SUFFIX}"));
        std::fs::write(&partial, b"complete archive").unwrap();
        std::fs::write(dir.path().join("app-4.log.gz"), b"taken").unwrap();
        // The first name beside it is taken too.
        let first = dir.path().join(format!("app-4.log.recovered-{dead}.gz"));
        std::fs::write(&first, b"taken as well").unwrap();
        let aside = dir.path().join(format!("app-4.log.recovered-{dead}-2.gz"));
        assert_eq!(
            settle_partial_archives(dir.path()),
            [Settled::Aside {
                archive: aside.clone(),
                target: dir.path().join("app-4.log.gz"),
            }]
        );
        // A later rollover leaves an uncompressed file under the source's name; a later
        // start settles again.
        std::fs::write(dir.path().join("app-4.log"), b"newer events").unwrap();
        assert_eq!(settle_partial_archives(dir.path()), []);
        assert_eq!(std::fs::read(&aside).unwrap(), b"complete archive");
        assert_eq!(std::fs::read(&first).unwrap(), b"taken as well");
    }

    #[test]
    fn blocked_targets_are_recognised() {
        let dir = crate::test_support::TempDir::new("blocked");
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        assert!(archive_blocked(&dir.path().join("new/archive.log"), false).is_none());
        assert!(archive_blocked(&file.join("archive.log"), true).is_some());
        std::fs::create_dir(dir.path().join("taken")).unwrap();
        assert!(archive_blocked(&dir.path().join("taken"), false).is_some());
        assert!(archive_blocked(&dir.path().join("taken"), true).is_none());
    }

    /// Run as root, this test re-runs itself in a child that lowers its effective uid to
    /// `nobody` (the real uid stays root): a root-owned 0755 directory must then be judged not
    /// writable, as rename(2) will find it. access(2), asking about the real uid, said it was.
    #[test]
    fn directories_are_judged_writable_by_the_effective_uid() {
        const CHILD_DIR: &str = "L4RS_EFFECTIVE_UID_CHILD_DIR";
        const NOBODY: libc::uid_t = 65534;
        if let Some(dir) = std::env::var_os(CHILD_DIR) {
            // SAFETY: plain system calls; the group first, while still allowed to change it.
            let lowered = unsafe { libc::setegid(NOBODY) == 0 && libc::seteuid(NOBODY) == 0 };
            assert!(lowered, "{}", std::io::Error::last_os_error());
            let blocked = archive_blocked(&Path::new(&dir).join("archive.log"), false);
            assert!(
                blocked
                    .as_deref()
                    .is_some_and(|why| why.contains("is not writable")),
                "{blocked:?}"
            );
            return;
        }
        let dir = crate::test_support::TempDir::new("effective-uid");
        assert!(archive_blocked(&dir.path().join("archive.log"), false).is_none());
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            // Not root: the effective and real ids are the same here; nothing more to tell.
            return;
        }
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "rolling::recover::tests::directories_are_judged_writable_by_the_effective_uid",
                "--exact",
                "--test-threads=1",
            ])
            .env(CHILD_DIR, dir.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("1 passed"),
            "{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
