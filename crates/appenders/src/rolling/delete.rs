//! The `<Delete>` action: removes the files under a base path that all its conditions accept.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use l4rs_config::model::{DeleteSpec, PathConditionSpec};
use l4rs_core::status;

use super::clock::epoch_millis;

/// Files the rolling appenders are still moving into place carry this suffix; a Delete never
/// touches them, whatever its conditions say.
pub(crate) const STAGING_SUFFIX: &str = ".l4rs-rolling";

/// A compiled `<Delete>`.
pub(crate) struct DeleteAction {
    /// The `<Delete>`'s settings, without its conditions: they are compiled into `conditions`.
    spec: DeleteSpec,
    /// The compiled conditions, with their accumulating counts at zero: each walk counts on a
    /// copy of its own (log4j2's `beforeFileTreeWalk` resets them).
    conditions: Vec<Condition>,
}

/// A compiled condition. Cloning it is cheap (a [`regex::Regex`] shares its compiled program).
#[derive(Clone)]
pub(super) enum Condition {
    FileName(regex::Regex, Vec<Condition>),
    LastModified(u64, Vec<Condition>),
    Count {
        exceeds: u64,
        seen: u64,
        nested: Vec<Condition>,
    },
    Size {
        exceeds: u64,
        total: u64,
        nested: Vec<Condition>,
    },
    All(Vec<Condition>),
    Any(Vec<Condition>),
    Not(Box<Condition>),
}

pub(super) struct Candidate {
    pub(super) path: PathBuf,
    relative: String,
    /// Milliseconds since the epoch: log4j2 compares modification times in milliseconds, so
    /// files modified within one millisecond are ordered by their path.
    modified_millis: i64,
    size: u64,
}

/// Compiles each of `specs`; the first that cannot be compiled is the error.
pub(super) fn compile_all(specs: &[PathConditionSpec]) -> Result<Vec<Condition>, String> {
    specs.iter().map(Condition::new).collect()
}

impl Condition {
    fn new(spec: &PathConditionSpec) -> Result<Condition, String> {
        Ok(match spec {
            PathConditionSpec::FileName { regex, nested } => Condition::FileName(
                regex::Regex::new(regex)
                    .map_err(|error| format!("invalid IfFileName pattern {regex}: {error}"))?,
                compile_all(nested)?,
            ),
            PathConditionSpec::LastModified { age_millis, nested } => {
                Condition::LastModified(*age_millis, compile_all(nested)?)
            }
            PathConditionSpec::AccumulatedFileCount { exceeds, nested } => Condition::Count {
                exceeds: *exceeds,
                seen: 0,
                nested: compile_all(nested)?,
            },
            PathConditionSpec::AccumulatedFileSize { exceeds, nested } => Condition::Size {
                exceeds: *exceeds,
                total: 0,
                nested: compile_all(nested)?,
            },
            PathConditionSpec::All(list) => Condition::All(compile_all(list)?),
            PathConditionSpec::Any(list) => Condition::Any(compile_all(list)?),
            PathConditionSpec::Not(inner) => Condition::Not(Box::new(Condition::new(inner)?)),
        })
    }

    /// Whether the condition accepts `file`, evaluated as log4j2 evaluates it: the nested
    /// conditions only when the condition's own test accepts, `IfAll` up to the first that
    /// rejects, `IfAny` up to the first that accepts. An accumulating condition therefore
    /// counts only the files that reach it.
    fn accept(&mut self, file: &Candidate, now_millis: i64) -> bool {
        let (own, nested) = match self {
            Condition::FileName(regex, nested) => (regex.is_match(&file.relative), nested),
            Condition::LastModified(age, nested) => {
                let elapsed = now_millis.saturating_sub(file.modified_millis);
                (elapsed >= 0 && elapsed as u64 >= *age, nested)
            }
            Condition::Count {
                exceeds,
                seen,
                nested,
            } => {
                *seen += 1;
                (*seen > *exceeds, nested)
            }
            Condition::Size {
                exceeds,
                total,
                nested,
            } => {
                *total += file.size;
                (*total > *exceeds, nested)
            }
            Condition::All(list) => return all_accept(list, file, now_millis),
            Condition::Any(list) => return list.iter_mut().any(|c| c.accept(file, now_millis)),
            Condition::Not(inner) => return !inner.accept(file, now_millis),
        };
        own && all_accept(nested, file, now_millis)
    }
}

/// Whether every condition of `list` accepts `file`, stopping at the first that rejects it.
pub(super) fn all_accept(list: &mut [Condition], file: &Candidate, now_millis: i64) -> bool {
    list.iter_mut().all(|c| c.accept(file, now_millis))
}

impl Candidate {
    /// A file at `path`, `relative` to the walk's base, as a walk found it.
    pub(super) fn new(
        path: PathBuf,
        relative: String,
        modified_millis: i64,
        size: u64,
    ) -> Candidate {
        Candidate {
            path,
            relative,
            modified_millis,
            size,
        }
    }
}

impl DeleteAction {
    /// Compiles `spec`. A `<Delete>` without conditions, or with one that cannot be compiled,
    /// is refused: run without it, the action would delete more than it says.
    pub(crate) fn new(spec: &DeleteSpec) -> Result<DeleteAction, String> {
        if spec.conditions.is_empty() {
            return Err("Missing Delete conditions: unconditional Delete not supported".into());
        }
        Ok(DeleteAction {
            conditions: compile_all(&spec.conditions)?,
            spec: DeleteSpec {
                base_path: spec.base_path.clone(),
                conditions: Vec::new(),
                ..*spec
            },
        })
    }

    /// Walks the base path and deletes (or, in test mode, reports) every accepted file. The
    /// files are offered in log4j2's order: by modification time, the most recent first
    /// unless `SortByModificationTime recentFirst="false"`, then by path.
    pub(crate) fn run(&self) {
        let base = Path::new(&self.spec.base_path);
        let mut files = Vec::new();
        collect(
            base,
            base,
            self.spec.max_depth,
            self.spec.follow_links,
            &mut files,
        );
        files.sort_by(|a, b| {
            let order = a
                .modified_millis
                .cmp(&b.modified_millis)
                .then_with(|| a.path.as_os_str().cmp(b.path.as_os_str()));
            if self.spec.recent_first {
                order.reverse()
            } else {
                order
            }
        });
        let mut conditions = self.conditions.clone();
        let now = epoch_millis(SystemTime::now());
        for file in &files {
            // log4j2's DeletingVisitor: the first condition that rejects the file ends its
            // evaluation, so the later ones do not count it.
            if !all_accept(&mut conditions, file, now) {
                continue;
            }
            if self.spec.test_mode {
                status::info(format_args!(
                    "Deleting {} (TEST MODE: file not actually deleted)",
                    file.path.display()
                ));
            } else if let Err(error) = std::fs::remove_file(&file.path) {
                status::error(format_args!(
                    "Unable to delete file {}: {error}",
                    file.path.display()
                ));
            }
        }
    }
}

/// The regular files under `dir` down to `depth` levels.
fn collect(base: &Path, dir: &Path, depth: u32, follow_links: bool, into: &mut Vec<Candidate>) {
    if depth == 0 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let metadata = if follow_links {
            std::fs::metadata(&path)
        } else {
            std::fs::symlink_metadata(&path)
        };
        let Ok(metadata) = metadata else {
            continue;
        };
        if metadata.is_dir() {
            collect(base, &path, depth - 1, follow_links, into);
            continue;
        }
        let relative = path
            .strip_prefix(base)
            .unwrap_or(&path)
            .to_string_lossy()
            .into_owned();
        if relative.ends_with(STAGING_SUFFIX) {
            continue;
        }
        into.push(Candidate {
            relative,
            modified_millis: epoch_millis(metadata.modified().unwrap_or(UNIX_EPOCH)),
            size: metadata.len(),
            path,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_config::rolling::glob_to_regex;
    use std::time::Duration;

    /// Creates `path` holding ten bytes, last modified `age` ago.
    fn touch(path: &Path, age: Duration) {
        let mut file = std::fs::File::create(path).unwrap();
        std::io::Write::write_all(&mut file, b"0123456789").unwrap();
        file.set_modified(SystemTime::now() - age).unwrap();
    }

    #[test]
    fn keeps_the_newest_matching_files() {
        let dir = crate::test_support::TempDir::new("delete");
        for n in 1..=5u64 {
            touch(
                &dir.path().join(format!("app-{n}.log.gz")),
                Duration::from_secs(100 * n),
            );
        }
        touch(&dir.path().join("keep.txt"), Duration::from_secs(10_000));
        touch(
            &dir.path().join(format!("app-9.log.gz{STAGING_SUFFIX}")),
            Duration::from_secs(10_000),
        );
        let spec = DeleteSpec {
            base_path: dir.path().to_string_lossy().into_owned(),
            max_depth: 1,
            follow_links: false,
            test_mode: false,
            conditions: vec![PathConditionSpec::FileName {
                regex: glob_to_regex("app-*.log.gz").unwrap(),
                nested: vec![PathConditionSpec::AccumulatedFileCount {
                    exceeds: 2,
                    nested: vec![],
                }],
            }],
            recent_first: true,
        };
        let action = DeleteAction::new(&spec).unwrap();
        // The second walk counts from zero again: it keeps the two files the first one kept.
        for _ in 0..2 {
            action.run();
            let mut left: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            left.sort();
            assert_eq!(
                left,
                [
                    "app-1.log.gz",
                    "app-2.log.gz",
                    format!("app-9.log.gz{STAGING_SUFFIX}").as_str(),
                    "keep.txt"
                ]
            );
        }
    }

    #[test]
    fn age_size_any_not_and_test_mode() {
        let dir = crate::test_support::TempDir::new("delete-age");
        touch(&dir.path().join("old.log"), Duration::from_secs(3 * 86_400));
        touch(&dir.path().join("new.log"), Duration::from_secs(60));
        let base = dir.path().to_string_lossy().into_owned();
        let mut spec = DeleteSpec {
            base_path: base,
            max_depth: 1,
            follow_links: false,
            test_mode: true,
            conditions: vec![PathConditionSpec::Not(Box::new(PathConditionSpec::Any(
                vec![
                    PathConditionSpec::LastModified {
                        age_millis: 86_400_000,
                        nested: vec![],
                    },
                    PathConditionSpec::AccumulatedFileSize {
                        exceeds: 100,
                        nested: vec![],
                    },
                ],
            )))],
            recent_first: true,
        };
        DeleteAction::new(&spec).unwrap().run();
        assert!(dir.path().join("new.log").exists());
        spec.test_mode = false;
        DeleteAction::new(&spec).unwrap().run();
        assert!(!dir.path().join("new.log").exists());
        assert!(dir.path().join("old.log").exists());
    }
}
