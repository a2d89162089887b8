//! Why an appender could not be built.

use std::io;
use std::path::PathBuf;

/// Why [`build_appender`](crate::build_appender) produced no appender. Each message is worded as
/// log4j2's status logger words the same failure, with the OS error added where there is one,
/// so it can be reported as it is.
#[derive(Debug, thiserror::Error)]
pub enum AppenderBuildError {
    /// `follow="true"` and `direct="true"` on one Console appender.
    #[error("Cannot use both follow and direct on ConsoleAppender '{appender}'")]
    FollowAndDirect {
        /// The appender's name.
        appender: String,
    },
    /// A missing parent directory of the file could not be created.
    #[error(
        "{manager} ({file_name}) java.io.IOException: Could not create directory {} ({})",
        directory.display(),
        crate::os_reason(source)
    )]
    CreateDirectory {
        /// The kind of manager that failed, as log4j2 names it (`FileManager`,
        /// `RandomAccessFileManager`, `MemoryMappedFileManager`).
        manager: &'static str,
        /// The `fileName` as configured.
        file_name: String,
        /// The directory that could not be created (absolute).
        directory: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// The file's parent exists but is not a directory.
    #[error(
        "{manager} ({file_name}) java.io.IOException: File {} exists and is not a directory. Unable to create directory.",
        directory.display()
    )]
    ParentNotDirectory {
        /// The kind of manager that failed.
        manager: &'static str,
        /// The `fileName` as configured.
        file_name: String,
        /// The parent path that is not a directory.
        directory: PathBuf,
    },
    /// The file could not be opened (it is a directory, permission is denied, …).
    #[error(
        "{manager} ({file_name}) java.io.FileNotFoundException: {file_name} ({})",
        crate::os_reason(source)
    )]
    Open {
        /// The kind of manager that failed.
        manager: &'static str,
        /// The `fileName` as configured.
        file_name: String,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// A RollingFile's missing file could not be created: log4j2's `RollingFileManager` makes
    /// the parent directories and creates the file before opening it, and reports a failure of
    /// either in its own words.
    #[error("Unable to create file {file_name} java.io.IOException: {}", cause.io_detail())]
    CreateFile {
        /// The `fileName` as configured.
        file_name: String,
        /// The failure, as the plain File manager would report it.
        #[source]
        cause: Box<AppenderBuildError>,
    },
    /// A RollingRandomAccessFile's file could not be opened or its parent made: log4j2's
    /// `RollingRandomAccessFileManager` reports every such failure in these words.
    #[error("Cannot access RandomAccessFile {}", cause.java_exception())]
    AccessRandomAccessFile {
        /// The failure, as the plain RandomAccessFile manager would report it.
        #[source]
        cause: Box<AppenderBuildError>,
    },
    /// The file is a FIFO that no process has open for reading. log4j2 would wait for a reader
    /// for ever; l4rs opens without waiting and reports this instead.
    #[error(
        "{manager} ({file_name}) java.io.FileNotFoundException: {file_name} (No such device or address): it is a FIFO that no process has open for reading; l4rs does not wait for a reader (log4j2 would wait for ever): start the reader before the configuration, or name a regular file"
    )]
    FifoWithoutReader {
        /// The kind of manager that failed.
        manager: &'static str,
        /// The `fileName` as configured.
        file_name: String,
    },
    /// The file cannot be memory-mapped (a character device, a FIFO): log4j2's
    /// `MemoryMappedFileManager` fails to map it and the appender is not created.
    #[error(
        "{manager} ({file_name}) java.io.IOException: {}",
        crate::os_reason(source)
    )]
    Map {
        /// The kind of manager that failed.
        manager: &'static str,
        /// The `fileName` as configured.
        file_name: String,
        /// The OS error mapping would fail with.
        #[source]
        source: io::Error,
    },
    /// The file opened, but preparing it failed (reading its length, finding the end of the data
    /// left by an earlier run, truncating it).
    #[error(
        "{manager} ({file_name}) java.io.IOException: {} ({})",
        action,
        crate::os_reason(source)
    )]
    Prepare {
        /// The kind of manager that failed.
        manager: &'static str,
        /// The `fileName` as configured.
        file_name: String,
        /// What was being done, e.g. `Unable to find the end of the data`.
        action: &'static str,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// A Socket or Syslog appender could not be built: its host has no address, or its TLS
    /// configuration (a key or trust store) could not be loaded.
    #[error("{message}")]
    Socket {
        /// log4j2's words for the failure, with the cause.
        message: String,
        /// What to change to fix it.
        help: Option<String>,
    },
    /// An SMTP appender could not be built: an address list that is no list of addresses, or
    /// a trust store that could not be loaded.
    #[error("{message}")]
    Smtp {
        /// What is wrong, naming the attribute and its value.
        message: String,
        /// What to change to fix it.
        help: Option<String>,
    },
    /// An Http appender could not be built: the trust or key store of its `https` URL could
    /// not be loaded.
    #[error("{message}")]
    Http {
        /// log4j2's words for the failure, with the cause.
        message: String,
        /// What to change to fix it.
        help: Option<String>,
    },
    /// An appender type this crate does not build (`Async`, which the facade builds because it
    /// refers to other appenders by name).
    #[error("the {kind} appender is not available in l4rs yet")]
    Unsupported {
        /// The element name, e.g. `Async`.
        kind: &'static str,
    },
}

impl AppenderBuildError {
    /// The Java exception log4j2 reports for this failure, e.g.
    /// `java.io.FileNotFoundException: app.log (Is a directory)`.
    fn java_exception(&self) -> String {
        let text = self.to_string();
        match self {
            AppenderBuildError::CreateDirectory {
                manager, file_name, ..
            }
            | AppenderBuildError::ParentNotDirectory {
                manager, file_name, ..
            }
            | AppenderBuildError::Open {
                manager, file_name, ..
            }
            | AppenderBuildError::Prepare {
                manager, file_name, ..
            } => text
                .strip_prefix(&format!("{manager} ({file_name}) "))
                .map_or_else(|| text.clone(), str::to_string),
            _ => text,
        }
    }

    /// What to change in the configuration (or on the disk) to fix this, for the ` (help: …)`
    /// l4rs adds after log4j2's words; `None` when there is nothing specific to say.
    pub fn help(&self) -> Option<String> {
        let unresolved = |file_name: &str| file_name.contains("${");
        match self {
            AppenderBuildError::Open {
                file_name, source, ..
            } => match source.raw_os_error()? {
                libc::EISDIR => Some(format!(
                    "fileName names a directory; name a file in it, e.g. {}/app.log",
                    file_name.trim_end_matches('/')
                )),
                libc::ELOOP => Some(
                    "the symbolic links on the way to fileName form a loop; fix the links or name another file".into(),
                ),
                libc::ENOENT if file_name.is_empty() => Some("give fileName a value".into()),
                libc::ENOENT if unresolved(file_name) => Some(
                    "fileName still holds an unresolved ${…}, a directory that does not exist, so the path cannot lead through it; define the property, give the lookup a default (${sys:name:-default}), or write the path out".into(),
                ),
                libc::ENOENT | libc::ENOTDIR => Some(
                    "a directory on the way to fileName does not exist and is not made (only the parent left once `..` is removed is made); create it, or write the path without `..`".into(),
                ),
                libc::ENXIO => Some("fileName names a socket, which cannot be written as a file; name a regular file".into()),
                libc::EACCES | libc::EPERM | libc::EROFS => Some(
                    "this process may not write there: change the file's permissions or owner, or name a file in a writable directory".into(),
                ),
                _ => None,
            },
            AppenderBuildError::CreateDirectory { .. } => Some(
                "create the directory, or let this process write into its parent".into(),
            ),
            AppenderBuildError::ParentNotDirectory { .. } => Some(
                "a file stands where fileName needs a directory: move the file, or change fileName".into(),
            ),
            AppenderBuildError::Map { .. } => Some(
                "a memory-mapped file must be a regular file; use <File> to write to a device or a pipe".into(),
            ),
            AppenderBuildError::CreateFile { cause, .. }
            | AppenderBuildError::AccessRandomAccessFile { cause } => cause.help(),
            AppenderBuildError::Socket { help, .. }
            | AppenderBuildError::Smtp { help, .. }
            | AppenderBuildError::Http { help, .. } => {
                help.clone()
            }
            _ => None,
        }
    }

    /// The error as the status logger reports it: log4j2's words, then l4rs's ` (help: …)`
    /// when there is something to say.
    pub fn with_help(&self) -> String {
        match self.help() {
            Some(help) => format!("{self} (help: {help})"),
            None => self.to_string(),
        }
    }

    /// The message of the `IOException` log4j2's RollingFile reports: the OS's reason when
    /// creating the file failed, the directory failure's own message otherwise.
    fn io_detail(&self) -> String {
        match self {
            AppenderBuildError::Open { source, .. } => crate::os_reason(source),
            _ => {
                let exception = self.java_exception();
                exception
                    .strip_prefix("java.io.IOException: ")
                    .map_or_else(|| exception.clone(), str::to_string)
            }
        }
    }
}
