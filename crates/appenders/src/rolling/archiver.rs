//! The archive side of a rollover: what the worker does with a staged file (numbering,
//! purging, moving, compressing, the strategy's actions).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use l4rs_config::model::{FileIndexOrder, RolloverStrategySpec};
use l4rs_core::status;

use super::actions::RolloverAction;
use super::compress;
use super::pattern::RuntimePattern;
use super::rename::{rename, rename_no_replace};

/// What the worker needs to finish a rollover; shared with its jobs.
pub(super) struct Archiver {
    /// The manager's name in messages (`fileName`, or `filePattern` for direct write).
    pub(super) name: String,
    pub(super) pattern: RuntimePattern,
    pub(super) strategy: RolloverStrategySpec,
    pub(super) actions: Vec<RolloverAction>,
    /// Empty files are archived too; otherwise deleted. Set, as in log4j2, when a startup
    /// rollover happens under `OnStartupTriggeringPolicy minSize="0"`.
    pub(super) rename_empty: AtomicBool,
}

/// The archives of one period that exist, by index.
type Archives = BTreeMap<i64, PathBuf>;

/// DefaultRolloverStrategy's `min` and `max`: the indices archives are numbered within.
#[derive(Clone, Copy)]
struct IndexWindow {
    min: i64,
    max: i64,
}

impl IndexWindow {
    /// How many archives the window holds: never fewer than one, even for a `max` below
    /// `min`.
    fn capacity(self) -> usize {
        (self.max - self.min + 1).max(1) as usize
    }
}

/// An archive from above the window that the purge moved onto the new archive's index.
struct InTheWay {
    /// Where it was.
    from: PathBuf,
    /// Where the purge put it.
    moved: PathBuf,
}

impl Archiver {
    fn report(&self, message: std::fmt::Arguments<'_>) {
        status::error(format_args!("RollingFileManager ({}) {message}", self.name));
    }

    /// DefaultRolloverStrategy: numbers the archives, purges, and moves `staging` to its
    /// archive name (compressing it when the pattern says so).
    pub(super) fn place(&self, staging: &Path, archive_time: i64) {
        let RolloverStrategySpec::Default {
            max,
            min,
            file_index,
            compression_level,
            ..
        } = &self.strategy
        else {
            return;
        };
        let pattern = &self.pattern;
        // Replacing is log4j2's behaviour only where the name is not numbered after the
        // archives on disk; a numbered name is free, and an archive found there anyway is one
        // this process knows nothing of.
        let replace = !pattern.numbers_from_disk(archive_time);
        let mut in_the_way = None;
        let index = if !pattern.has_index() {
            0
        } else {
            let existing = pattern.existing(archive_time);
            let window = IndexWindow {
                min: i64::from(*min),
                max: i64::from(*max),
            };
            match file_index {
                FileIndexOrder::NoMax => existing.keys().next_back().map_or(1, |last| last + 1),
                FileIndexOrder::Max => {
                    let (index, moved) = self.purge_ascending(existing, window, archive_time);
                    in_the_way = moved;
                    index
                }
                FileIndexOrder::Min => self.purge_descending(existing, window, archive_time),
            }
        };
        let empty = std::fs::metadata(staging).map_or(true, |m| m.len() == 0);
        if empty && !self.rename_empty.load(Ordering::Relaxed) {
            if let Err(error) = std::fs::remove_file(staging) {
                self.report(format_args!(
                    "Unable to delete empty file {}: {error}",
                    staging.display()
                ));
            }
            return;
        }
        let uncompressed = pattern.format_uncompressed(archive_time, index);
        if let Some(parent) = Path::new(&uncompressed).parent() {
            if !parent.as_os_str().is_empty() {
                let _ = std::fs::create_dir_all(parent);
            }
        }
        // An archive above the window that the purge moved onto this index gives way, as
        // log4j2 writes the new archive over it: uncompressed by the move itself (atomic, as
        // log4j2's), compressed once the new archive is in place. An empty rollover, above,
        // leaves it, as log4j2 does.
        let replaces = in_the_way
            .as_ref()
            .is_some_and(|way| way.moved == Path::new(&uncompressed));
        if let Err(error) = rename(staging, Path::new(&uncompressed), replace || replaces) {
            self.report(format_args!(
                "Unable to move the rolled file to {uncompressed}: {error}; its data stays in {}",
                staging.display()
            ));
            return;
        }
        if let Some(way) = in_the_way {
            if replaces || self.remove_in_the_way(&way.moved) {
                status::warn(format_args!(
                    "RollingFileManager ({}) replaced {} (moved there from {}, above max=\"{max}\") with the new archive, as log4j2 does",
                    self.name,
                    way.moved.display(),
                    way.from.display()
                ));
            }
        }
        self.compress(&uncompressed, *compression_level, replace);
    }

    /// Deletes the compressed archive `path` that a new one's compression would replace;
    /// false (reported) when it cannot.
    fn remove_in_the_way(&self, path: &Path) -> bool {
        match std::fs::remove_file(path) {
            Ok(()) => true,
            Err(error) => {
                self.report(format_args!("Unable to delete {}: {error}", path.display()));
                false
            }
        }
    }

    /// Compresses the archive `uncompressed` to its name with the pattern's suffix, when the
    /// pattern has one l4rs supports, replacing an archive of that name only with `replace`; a
    /// failure is reported, and the archive stays uncompressed (or, if the failure came after
    /// its source was deleted, in the partial archive the report names).
    fn compress(&self, uncompressed: &str, level: i32, replace: bool) {
        let Some(suffix) = self
            .pattern
            .compression()
            .filter(|suffix| compress::SUPPORTED.contains(suffix))
        else {
            return;
        };
        let target = format!("{uncompressed}{suffix}");
        if let Err(error) = compress::compress(
            Path::new(uncompressed),
            Path::new(&target),
            suffix,
            level,
            replace,
        ) {
            let kept = if Path::new(uncompressed).exists() {
                "; it is kept uncompressed"
            } else {
                ""
            };
            self.report(format_args!(
                "Unable to compress {uncompressed} to {target}: {error}{kept}"
            ));
        }
    }

    /// `fileIndex="max"`: the newest archive gets the highest index; while the window is
    /// full the lowest is deleted and the others move down one. Returns the new index, and the
    /// archive the moves put on it: one from above the window (left by a larger `max`), which
    /// moves down one index a rollover, as in log4j2, until it lands where the new archive
    /// goes and has to give way.
    fn purge_ascending(
        &self,
        mut existing: Archives,
        window: IndexWindow,
        time: i64,
    ) -> (i64, Option<InTheWay>) {
        let IndexWindow { min, max } = window;
        let full = existing.keys().next_back().is_some_and(|&last| last >= max);
        let shift = self.delete_beyond(&mut existing, window.capacity() - 1, true) || full;
        let last = existing.keys().next_back().copied();
        let index = match last {
            None => min,
            Some(last) if last < max => last + 1,
            Some(_) => max,
        };
        let mut in_the_way = None;
        if shift {
            for (&from, path) in &existing {
                let moved = self.rename_archive(path, time, from - 1);
                if let Some(moved) = moved.filter(|_| from - 1 == index) {
                    in_the_way = Some(InTheWay {
                        from: path.clone(),
                        moved,
                    });
                }
            }
        }
        (index, in_the_way)
    }

    /// `fileIndex="min"`: the newest archive gets `min`, the others move up one; beyond `max`
    /// they are deleted.
    fn purge_descending(&self, mut existing: Archives, window: IndexWindow, time: i64) -> i64 {
        self.delete_beyond(&mut existing, window.capacity() - 1, false);
        for (&index, path) in existing.iter().rev() {
            self.rename_archive(path, time, index + 1);
        }
        window.min
    }

    /// Deletes archives of `existing` (and takes them out of it) until at most `keep` remain,
    /// the lowest indices first when `lowest_first`, else the highest. Stops at the first that
    /// cannot be deleted (reported), as log4j2's purge gives up there. Returns whether any
    /// was deleted.
    fn delete_beyond(&self, existing: &mut Archives, keep: usize, lowest_first: bool) -> bool {
        let mut deleted = false;
        while existing.len() > keep {
            let entry = if lowest_first {
                existing.first_key_value()
            } else {
                existing.last_key_value()
            };
            let Some((&index, path)) = entry else {
                break;
            };
            if let Err(error) = std::fs::remove_file(path) {
                self.report(format_args!("Unable to delete {}: {error}", path.display()));
                break;
            }
            existing.remove(&index);
            deleted = true;
        }
        deleted
    }

    /// Renames an archive to `index`, keeping it compressed or not as it is. Returns its new
    /// path, or `None` when it could not be moved (reported).
    fn rename_archive(&self, path: &Path, time: i64, index: i64) -> Option<PathBuf> {
        let compressed = self
            .pattern
            .compression()
            .is_some_and(|suffix| path.to_string_lossy().ends_with(suffix));
        let target = if compressed {
            self.pattern.format(time, index)
        } else {
            self.pattern.format_uncompressed(time, index)
        };
        // The window's indices are counted from disk, so the target is free unless the count
        // is wrong; then the archive there is kept and this one stays where it is.
        match rename_no_replace(path, Path::new(&target)) {
            Ok(()) => Some(PathBuf::from(target)),
            Err(error) => {
                self.report(format_args!(
                    "Unable to rename {} to {target}: {error}",
                    path.display()
                ));
                None
            }
        }
    }

    /// DirectWriteRolloverStrategy: purges beyond `maxFiles` and compresses the closed file.
    pub(super) fn finish_direct(&self, closed: &str, archive_time: i64, max_files: Option<u32>) {
        let RolloverStrategySpec::DirectWrite {
            compression_level, ..
        } = &self.strategy
        else {
            return;
        };
        if let Some(max_files) = max_files {
            let mut existing = self.pattern.existing(archive_time);
            self.delete_beyond(&mut existing, max_files as usize, true);
        }
        if Path::new(closed).exists() {
            self.compress(closed, *compression_level, true);
        }
    }

    pub(super) fn run_actions(&self) {
        for action in &self.actions {
            action.run();
        }
    }
}
