//! A file that a manager of another kind still has when a new configuration is built: the
//! type of the appender writing it changed across a reload (`<File>` to `<RandomAccessFile>`,
//! `<RandomAccessFile>` to `<MemoryMappedFile>`, …).
//!
//! log4j2 keeps every manager in one map by name (the file name) and refuses a manager of
//! another type under a name in use (`AbstractManager.narrow`: "Configuration has multiple
//! incompatible Appenders pointing to the same resource"), so the new appender is not built
//! and the events routed to it are lost until a later reload. Two managers of one file at once
//! would be worse (a memory-mapped file cut back over what the other wrote, a buffer flushed
//! after newer lines), so l4rs hands the file over instead: the facade builds the new appender
//! only once the old configuration has stopped (its manager flushed and closed, a memory-mapped
//! file cut to what was written), from [`continuing`], which goes on at the file's end.

use l4rs_config::model::{AppenderKind, AppenderSpec};

use crate::file_manager::FILE_MANAGERS;
use crate::mmf_manager::MEMORY_MAPPED_FILE_MANAGERS;
use crate::random_access_file::RANDOM_ACCESS_FILE_MANAGERS;
use crate::registry::AnyRegistry;
use crate::rolling::RollingManager;
use crate::rolling_file::ROLLING_FILE_MANAGERS;
use crate::rolling_memory_mapped_file::ROLLING_MEMORY_MAPPED_FILE_MANAGERS;
use crate::rolling_random_access_file::ROLLING_RANDOM_ACCESS_FILE_MANAGERS;

/// Every registry of file managers. Their keys are the file names (a rolling manager's is its
/// `fileName`, or its `filePattern` when it writes directly).
pub(crate) fn file_registries() -> [&'static dyn AnyRegistry; 6] {
    [
        &FILE_MANAGERS,
        &RANDOM_ACCESS_FILE_MANAGERS,
        &MEMORY_MAPPED_FILE_MANAGERS,
        &ROLLING_FILE_MANAGERS,
        &ROLLING_RANDOM_ACCESS_FILE_MANAGERS,
        &ROLLING_MEMORY_MAPPED_FILE_MANAGERS,
    ]
}

/// The index in [`registries`] of the registry `spec`'s manager comes from, and its key there.
fn manager_of(spec: &AppenderSpec) -> Option<(usize, String)> {
    let rolling_key = RollingManager::<crate::file_manager::FileManager>::key;
    match &spec.kind {
        AppenderKind::File(file) => Some((0, file.file_name.clone())),
        AppenderKind::RandomAccessFile(file) => Some((1, file.file_name.clone())),
        AppenderKind::MemoryMappedFile(file) => Some((2, file.file_name.clone())),
        AppenderKind::RollingFile(file) => Some((3, rolling_key(&file.rolling))),
        AppenderKind::RollingRandomAccessFile(file) => Some((4, rolling_key(&file.rolling))),
        AppenderKind::RollingMemoryMappedFile(file) => Some((5, rolling_key(&file.rolling))),
        _ => None,
    }
}

/// True when a live manager of another kind than `spec`'s has `spec`'s file: building `spec`
/// now would open the file a second time beside it.
pub(crate) fn held_by_another_kind(spec: &AppenderSpec) -> bool {
    let Some((own, key)) = manager_of(spec) else {
        return false;
    };
    file_registries()
        .iter()
        .enumerate()
        .any(|(index, registry)| index != own && registry.is_live(&key))
}

/// `spec` with `append` set: a manager created to take a file over continues it, as a shared
/// manager would (`append="false"` applies only when a file is first opened by the process).
pub(crate) fn continuing(spec: &AppenderSpec) -> AppenderSpec {
    let mut spec = spec.clone();
    match &mut spec.kind {
        AppenderKind::File(file) => file.append = true,
        AppenderKind::RandomAccessFile(file) => file.append = true,
        AppenderKind::MemoryMappedFile(file) => file.append = true,
        AppenderKind::RollingFile(file) => file.append = true,
        AppenderKind::RollingRandomAccessFile(file) => file.append = true,
        AppenderKind::RollingMemoryMappedFile(file) => file.append = true,
        _ => {}
    }
    spec
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{LineLayout, TempDir};
    use std::sync::Arc;

    fn spec(element: &str, path: &str) -> AppenderSpec {
        let xml = format!(
            r#"<Configuration><Appenders><{element} name="X" fileName="{path}" append="false"/></Appenders><Loggers><Root level="off"/></Loggers></Configuration>"#
        );
        l4rs_config::load_str(&xml, None)
            .expect("parses")
            .appenders
            .remove(0)
    }

    #[test]
    fn a_file_is_held_by_another_kind_only_while_that_kind_has_it() {
        let dir = TempDir::new("takeover-held");
        let path = dir.file("x.log");
        let file = spec("File", &path);
        let random_access = spec("RandomAccessFile", &path);
        let mapped = spec("MemoryMappedFile", &path);
        assert!(!held_by_another_kind(&random_access));
        let appender =
            crate::build_appender(&file, Arc::new(LineLayout::default())).expect("builds");
        assert!(held_by_another_kind(&random_access));
        assert!(held_by_another_kind(&mapped));
        // The same kind shares the manager: no hand-over.
        assert!(!held_by_another_kind(&file));
        appender.stop();
        assert!(!held_by_another_kind(&random_access));
    }

    #[test]
    fn a_continuing_spec_appends() {
        for element in ["File", "RandomAccessFile", "MemoryMappedFile"] {
            let continued = continuing(&spec(element, "/tmp/never-opened.log"));
            let append = match &continued.kind {
                AppenderKind::File(file) => file.append,
                AppenderKind::RandomAccessFile(file) => file.append,
                AppenderKind::MemoryMappedFile(file) => file.append,
                other => panic!("{other:?}"),
            };
            assert!(append, "{element}");
        }
    }
}
