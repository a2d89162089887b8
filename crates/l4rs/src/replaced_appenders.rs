//! The file side effect of an appender that a later one of the same name replaced.
//!
//! log4j2 builds every appender in document order and keeps them in a map by name, so a later
//! definition replaces an earlier one only after the earlier one was built: its file was opened
//! (created with its parent directories, truncated when `append="false"`; a memory-mapped file
//! grown by its first region) and stays that way, though nothing is ever written to it. l4rs
//! never builds the replaced appender, but leaves its file as log4j2 leaves it, unless
//! `createOnDemand` defers the opening (then log4j2 never opens it either). The header the
//! replaced File appender's layout would write is not reproduced, nor anything of a replaced
//! Console (log4j2 writes its header to the stream) or of a rolling appender's policies.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use l4rs_appenders::AppenderBuildError;
use l4rs_config::model::{AppenderKind, AppenderSpec};
use l4rs_core::status;

/// How log4j2 would open a replaced appender's file.
#[derive(Debug, PartialEq, Eq)]
struct Opening<'a> {
    /// The manager log4j2 names in its messages.
    manager: &'static str,
    file_name: &'a str,
    append: bool,
    /// The memory-mapped region the file grows by, for memory-mapped files.
    region_length: Option<u64>,
}

/// Opens the file of each of `replaced` (in document order) as building it would.
pub(crate) fn open_files(replaced: &[AppenderSpec]) {
    for spec in replaced {
        if let Some(opening) = opening(&spec.kind) {
            if let Err(error) = open(&opening) {
                status::error(&error);
            }
        }
    }
}

fn opening(kind: &AppenderKind) -> Option<Opening<'_>> {
    let region = |length: i64| Some(u64::try_from(length).unwrap_or(0));
    match kind {
        AppenderKind::File(file) if !file.create_on_demand => Some(Opening {
            manager: "FileManager",
            file_name: &file.file_name,
            append: file.append,
            region_length: None,
        }),
        AppenderKind::RandomAccessFile(file) => Some(Opening {
            manager: "RandomAccessFileManager",
            file_name: &file.file_name,
            append: file.append,
            region_length: None,
        }),
        AppenderKind::MemoryMappedFile(file) => Some(Opening {
            manager: "MemoryMappedFileManager",
            file_name: &file.file_name,
            append: file.append,
            region_length: region(file.region_length),
        }),
        AppenderKind::RollingFile(file) if !file.create_on_demand => Some(Opening {
            manager: "RollingFileManager",
            file_name: file.rolling.file_name.as_deref()?,
            append: file.append,
            region_length: None,
        }),
        AppenderKind::RollingRandomAccessFile(file) => Some(Opening {
            manager: "RollingRandomAccessFileManager",
            file_name: file.rolling.file_name.as_deref()?,
            append: file.append,
            region_length: None,
        }),
        AppenderKind::RollingMemoryMappedFile(file) => Some(Opening {
            manager: "RollingMemoryMappedFileManager",
            file_name: file.rolling.file_name.as_deref()?,
            append: file.append,
            region_length: region(file.region_length),
        }),
        _ => None,
    }
}

fn open(opening: &Opening<'_>) -> Result<File, AppenderBuildError> {
    let path = Path::new(opening.file_name);
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|source| AppenderBuildError::CreateDirectory {
            manager: opening.manager,
            file_name: opening.file_name.to_string(),
            directory: absolute(parent),
            source,
        })?;
    }
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .append(opening.append)
        .truncate(!opening.append)
        .open(path)
        .map_err(|source| AppenderBuildError::Open {
            manager: opening.manager,
            file_name: opening.file_name.to_string(),
            source,
        })?;
    if let Some(region) = opening.region_length {
        // The first region is mapped from the end of the data (the start, when truncated), which
        // grows the file to there plus the region; it is never truncated back.
        grow(&file, region).map_err(|source| AppenderBuildError::Prepare {
            manager: opening.manager,
            file_name: opening.file_name.to_string(),
            action: "Unable to map the first region",
            source,
        })?;
    }
    Ok(file)
}

fn grow(file: &File, region: u64) -> io::Result<()> {
    let length = file.metadata()?.len();
    file.set_len(length.saturating_add(region))
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_config::model::MemoryMappedFileSpec;

    struct TempDir(PathBuf);

    impl TempDir {
        fn new(label: &str) -> TempDir {
            let path =
                std::env::temp_dir().join(format!("l4rs-replaced-{}-{label}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            TempDir(path)
        }

        fn file(&self, name: &str) -> String {
            self.0.join(name).display().to_string()
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn file_spec(file_name: String, append: bool, create_on_demand: bool) -> AppenderSpec {
        let xml = format!(
            r#"<Configuration><Appenders><File name="F" fileName="{file_name}" append="{append}"
               createOnDemand="{create_on_demand}"/></Appenders>
               <Loggers><Root level="info"/></Loggers></Configuration>"#
        );
        let spec = l4rs_config::load_str(&xml, None)
            .unwrap()
            .appenders
            .remove(0);
        assert!(matches!(spec.kind, AppenderKind::File(_)));
        spec
    }

    #[test]
    fn creates_the_file_and_its_directories() {
        let dir = TempDir::new("create");
        let path = dir.file("a/b/first.log");
        open_files(&[file_spec(path.clone(), true, false)]);
        assert_eq!(std::fs::read(&path).unwrap(), b"");
    }

    #[test]
    fn truncates_only_without_append() {
        let dir = TempDir::new("truncate");
        let kept = dir.file("kept.log");
        let truncated = dir.file("truncated.log");
        std::fs::write(&kept, "old\n").unwrap();
        std::fs::write(&truncated, "old\n").unwrap();
        open_files(&[
            file_spec(kept.clone(), true, false),
            file_spec(truncated.clone(), false, false),
        ]);
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "old\n");
        assert_eq!(std::fs::read_to_string(&truncated).unwrap(), "");
    }

    #[test]
    fn create_on_demand_leaves_the_file_alone() {
        let dir = TempDir::new("on-demand");
        let path = dir.file("lazy/never.log");
        open_files(&[file_spec(path.clone(), false, true)]);
        assert!(!Path::new(&path).exists());
    }

    #[test]
    fn a_memory_mapped_file_grows_by_its_region() {
        let dir = TempDir::new("mmf");
        let path = dir.file("m.log");
        std::fs::write(&path, "0123").unwrap();
        let kind = |append| {
            AppenderKind::MemoryMappedFile(MemoryMappedFileSpec {
                file_name: path.clone(),
                append,
                immediate_flush: false,
                region_length: 4096,
            })
        };
        let appended = kind(true);
        open(&opening(&appended).unwrap()).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 4100);
        let truncated = kind(false);
        open(&opening(&truncated).unwrap()).unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 4096);
        assert!(std::fs::read(&path).unwrap().iter().all(|b| *b == 0));
    }

    #[test]
    fn an_unopenable_file_is_reported_as_log4j2_words_it() {
        let dir = TempDir::new("unopenable");
        let opening = Opening {
            manager: "FileManager",
            file_name: &dir.0.display().to_string(),
            append: true,
            region_length: None,
        };
        let error = open(&opening).unwrap_err().to_string();
        assert!(
            error.starts_with("FileManager (") && error.contains("java.io.FileNotFoundException"),
            "{error}"
        );
    }
}
