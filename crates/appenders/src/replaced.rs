//! The file side effect of an appender that a later one of the same name replaced.
//!
//! log4j2 builds every appender in document order and keeps them in a map by name, so a later
//! definition replaces an earlier one only after the earlier one was built: its file was opened
//! (created with its parent directories, truncated when `append="false"`; a memory-mapped file
//! grown by its first region) and stays that way, though nothing is ever written to it.
//! [`open_replaced_file`] leaves the file as log4j2 leaves it, without building the appender,
//! unless `createOnDemand` defers the opening (then log4j2 never opens it either) or a live
//! manager already has the file (log4j2's `getManager` then hands that manager to the replaced
//! appender and the file is not opened again: a reconfiguration does not truncate the file the
//! running configuration writes). The header
//! the replaced File appender's layout would write is not reproduced, nor anything of a
//! Console (log4j2 writes its header to the stream) or of a rolling appender's policies.

use std::collections::BTreeSet;
use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::Mutex;

use l4rs_config::model::{AppenderKind, AppenderSpec};

use crate::file_manager::{open_file, prepare, FileManager, FILE_MANAGERS};
use crate::memory_mapped_file::valid_region_length;
use crate::mmf_manager::{MANAGER as MEMORY_MAPPED_FILE_MANAGER, MEMORY_MAPPED_FILE_MANAGERS};
use crate::random_access_file::{
    MANAGER as RANDOM_ACCESS_FILE_MANAGER, RANDOM_ACCESS_FILE_MANAGERS,
};
use crate::registry::AnyRegistry;
use crate::rolling::RollingManager;
use crate::rolling_file::ROLLING_FILE_MANAGERS;
use crate::rolling_memory_mapped_file::ROLLING_MEMORY_MAPPED_FILE_MANAGERS;
use crate::rolling_random_access_file::ROLLING_RANDOM_ACCESS_FILE_MANAGERS;
use crate::target::{classify, open_error, OpenWhen};
use crate::AppenderBuildError;

/// How log4j2 would open a replaced appender's file.
struct Opening<'a> {
    /// The manager log4j2 names in its messages.
    manager: &'static str,
    file_name: &'a str,
    append: bool,
    /// The memory-mapped region the file grows by (a valid length), for memory-mapped files.
    region_length: Option<u64>,
    /// The managers building the appender would look in, and its key there.
    managers: &'static dyn AnyRegistry,
    key: String,
}

/// Opens the file of `spec`, an appender a later one of the same name replaced, as building it
/// would have, and leaves it open no longer (see the module documentation). Appenders with no
/// file, or whose file `createOnDemand` defers, are left alone.
pub(crate) fn open_replaced_file(spec: &AppenderSpec) -> Result<(), AppenderBuildError> {
    let Some(opening) = opening(spec) else {
        return Ok(());
    };
    let opened_key = (opening.manager, opening.key.clone());
    let mut opened = OPENED.lock().unwrap_or_else(|e| e.into_inner());
    if opened.contains(&opened_key) {
        return Ok(());
    }
    let mut result = Ok(());
    opening.managers.unless_live(&opening.key, &mut || {
        result = open(&opening).map(drop);
        if result.is_ok() {
            opened.insert(opened_key.clone());
        }
    });
    result
}

/// The files a replaced appender already opened in this process, by manager and key. log4j2
/// never stops a replaced appender, so its manager stays registered and every later
/// configuration's replaced appender gets that manager back instead of opening the file
/// again: a replaced memory-mapped file grows by one region once, not on every reload, and a
/// replaced `append="false"` file is truncated once. (A file a live manager had is not
/// recorded: l4rs does not keep that manager alive as log4j2 would.)
static OPENED: Mutex<BTreeSet<(&str, String)>> = Mutex::new(BTreeSet::new());

/// [`open_replaced_file`] without side effects, for `l4rs check`: judges the file it would open
/// with the classification opening it runs first, and returns the error it would fail with.
pub(crate) fn check_replaced_file(spec: &AppenderSpec) -> Result<(), AppenderBuildError> {
    let Some(opening) = opening(spec) else {
        return Ok(());
    };
    let target = classify(opening.manager, opening.file_name, OpenWhen::Now)?;
    if let Some(warning) = target.warning(opening.manager, opening.file_name) {
        l4rs_core::status::warn(warning);
    }
    Ok(())
}

fn opening(spec: &AppenderSpec) -> Option<Opening<'_>> {
    let region = |length: i64| Some(valid_region_length(&spec.name, length));
    let rolling_key = RollingManager::<FileManager>::key;
    match &spec.kind {
        AppenderKind::File(file) if !file.create_on_demand => Some(Opening {
            manager: "FileManager",
            file_name: &file.file_name,
            append: file.append,
            region_length: None,
            managers: &FILE_MANAGERS,
            key: file.file_name.clone(),
        }),
        AppenderKind::RandomAccessFile(file) => Some(Opening {
            manager: RANDOM_ACCESS_FILE_MANAGER,
            file_name: &file.file_name,
            append: file.append,
            region_length: None,
            managers: &RANDOM_ACCESS_FILE_MANAGERS,
            key: file.file_name.clone(),
        }),
        AppenderKind::MemoryMappedFile(file) => Some(Opening {
            manager: MEMORY_MAPPED_FILE_MANAGER,
            file_name: &file.file_name,
            append: file.append,
            region_length: region(file.region_length),
            managers: &MEMORY_MAPPED_FILE_MANAGERS,
            key: file.file_name.clone(),
        }),
        AppenderKind::RollingFile(file) if !file.create_on_demand => Some(Opening {
            manager: "RollingFileManager",
            file_name: file.rolling.file_name.as_deref()?,
            append: file.append,
            region_length: None,
            managers: &ROLLING_FILE_MANAGERS,
            key: rolling_key(&file.rolling),
        }),
        AppenderKind::RollingRandomAccessFile(file) => Some(Opening {
            manager: "RollingRandomAccessFileManager",
            file_name: file.rolling.file_name.as_deref()?,
            append: file.append,
            region_length: None,
            managers: &ROLLING_RANDOM_ACCESS_FILE_MANAGERS,
            key: rolling_key(&file.rolling),
        }),
        // Built through the memory-mapped file manager, which names itself in its messages.
        AppenderKind::RollingMemoryMappedFile(file) => Some(Opening {
            manager: MEMORY_MAPPED_FILE_MANAGER,
            file_name: file.rolling.file_name.as_deref()?,
            append: file.append,
            region_length: region(file.region_length),
            managers: &ROLLING_MEMORY_MAPPED_FILE_MANAGERS,
            key: rolling_key(&file.rolling),
        }),
        _ => None,
    }
}

fn open(opening: &Opening<'_>) -> Result<File, AppenderBuildError> {
    let path = Path::new(opening.file_name);
    let target = prepare(opening.manager, opening.file_name, OpenWhen::Now)?;
    let file = open_file(path, opening.append)
        .map_err(|source| open_error(opening.manager, opening.file_name, &target, source))?;
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
