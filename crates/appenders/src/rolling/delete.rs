//! The `<Delete>` action: removes the files under a base path that all its conditions accept.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use l4rs_config::model::{DeleteSpec, PathConditionSpec};
use l4rs_core::status;

/// Files the rolling appenders are still moving into place carry this suffix; a Delete never
/// touches them, whatever its conditions say.
pub(crate) const STAGING_SUFFIX: &str = ".l4rs-rolling";

/// A compiled `<Delete>`.
pub(crate) struct DeleteAction {
    spec: DeleteSpec,
}

enum Condition {
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

struct Candidate {
    path: PathBuf,
    relative: String,
    modified: SystemTime,
    size: u64,
}

impl Condition {
    fn new(spec: &PathConditionSpec) -> Option<Condition> {
        let nested =
            |list: &[PathConditionSpec]| list.iter().filter_map(Condition::new).collect::<Vec<_>>();
        Some(match spec {
            PathConditionSpec::FileName {
                regex,
                nested: inner,
            } => Condition::FileName(regex::Regex::new(regex).ok()?, nested(inner)),
            PathConditionSpec::LastModified {
                age_millis,
                nested: inner,
            } => Condition::LastModified(*age_millis, nested(inner)),
            PathConditionSpec::AccumulatedFileCount {
                exceeds,
                nested: inner,
            } => Condition::Count {
                exceeds: *exceeds,
                seen: 0,
                nested: nested(inner),
            },
            PathConditionSpec::AccumulatedFileSize {
                exceeds,
                nested: inner,
            } => Condition::Size {
                exceeds: *exceeds,
                total: 0,
                nested: nested(inner),
            },
            PathConditionSpec::All(list) => Condition::All(nested(list)),
            PathConditionSpec::Any(list) => Condition::Any(nested(list)),
            PathConditionSpec::Not(inner) => Condition::Not(Box::new(Condition::new(inner)?)),
        })
    }

    /// Whether the condition accepts `file`; the accumulating ones count every file offered.
    fn accept(&mut self, file: &Candidate, now: SystemTime) -> bool {
        let (own, nested) = match self {
            Condition::FileName(regex, nested) => (regex.is_match(&file.relative), nested),
            Condition::LastModified(age, nested) => {
                let elapsed = now.duration_since(file.modified).unwrap_or_default();
                (elapsed.as_millis() >= u128::from(*age), nested)
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
            Condition::All(list) => return list.iter_mut().all(|c| c.accept(file, now)),
            Condition::Any(list) => {
                // Every child sees every file, so accumulating children keep counting.
                let mut any = false;
                for condition in list.iter_mut() {
                    any |= condition.accept(file, now);
                }
                return any;
            }
            Condition::Not(inner) => return !inner.accept(file, now),
        };
        own && nested.iter_mut().all(|c| c.accept(file, now))
    }
}

impl DeleteAction {
    pub(crate) fn new(spec: &DeleteSpec) -> DeleteAction {
        DeleteAction { spec: spec.clone() }
    }

    /// Walks the base path and deletes (or, in test mode, reports) every accepted file.
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
                .modified
                .cmp(&b.modified)
                .then_with(|| a.relative.cmp(&b.relative));
            if self.spec.recent_first {
                order.reverse()
            } else {
                order
            }
        });
        // Compiled afresh on each run: the accumulating conditions start counting from zero.
        let mut conditions: Vec<Condition> = self
            .spec
            .conditions
            .iter()
            .filter_map(Condition::new)
            .collect();
        let now = SystemTime::now();
        for file in &files {
            let mut accepted = true;
            for condition in conditions.iter_mut() {
                accepted &= condition.accept(file, now);
            }
            if !accepted {
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
            modified: metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH),
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

    fn touch(path: &Path, age: Duration) {
        std::fs::write(path, b"0123456789").unwrap();
        let when = SystemTime::now() - age;
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(when)
            .unwrap();
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
        DeleteAction::new(&spec).run();
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
        DeleteAction::new(&spec).run();
        assert!(dir.path().join("new.log").exists());
        spec.test_mode = false;
        DeleteAction::new(&spec).run();
        assert!(!dir.path().join("new.log").exists());
        assert!(dir.path().join("old.log").exists());
    }
}
