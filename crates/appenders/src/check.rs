//! Building an appender without its side effects, for `l4rs check`.
//!
//! [`check_appender`] goes through what building the appender goes through up to its
//! manager (the same option adjustments and their warnings, the same rollover actions, the
//! same region length) and then judges the file with [`classify`], the judgement building
//! makes before it opens the file. Nothing is opened, created or deleted, and no thread is
//! started.

use l4rs_config::model::{AppenderKind, AppenderSpec};
use l4rs_core::status;

use crate::memory_mapped_file::valid_region_length;
use crate::rolling::{rollover_actions, RollingManager};
use crate::target::{classify, OpenWhen};
use crate::{file_manager::FileManager, AppenderBuildError};

/// Checks that the appender `spec` describes could be built, as
/// [`build_appender`](crate::build_appender) would build it, without opening, creating or deleting anything:
/// an `Err` is the error building it would fail with (worded as log4j2 words it); warnings and
/// what else building reports go to the status logger as building reports them. A FIFO or a
/// block device as `fileName` is reported as a WARN: building opens a FIFO only while a reader
/// has it open, which cannot be known in advance.
///
/// The file is judged as it is now: a manager another configuration of this process already
/// holds for the same file (which building would share instead of opening the file) is not
/// looked for.
pub fn check_appender(spec: &AppenderSpec) -> Result<(), AppenderBuildError> {
    let opened_now = |create_on_demand: bool| {
        if create_on_demand {
            OpenWhen::Deferred
        } else {
            OpenWhen::Now
        }
    };
    let replaced_now = |append: bool| {
        if append {
            OpenWhen::Now
        } else {
            OpenWhen::AfterDeleting
        }
    };
    let check_rolling = |rolling: &l4rs_config::model::RollingSpec| {
        drop(rollover_actions(
            &RollingManager::<FileManager>::key(rolling),
            &rolling.strategy,
        ));
    };
    let (manager, file_name, when) = match &spec.kind {
        AppenderKind::Console(console) => {
            if console.follow && console.direct {
                return Err(AppenderBuildError::FollowAndDirect {
                    appender: spec.name.clone(),
                });
            }
            return Ok(());
        }
        AppenderKind::File(file) => {
            let options = crate::file::file_options(&spec.name, file);
            (
                options.manager,
                &file.file_name,
                opened_now(options.create_on_demand),
            )
        }
        AppenderKind::RandomAccessFile(file) => (
            crate::random_access_file::MANAGER,
            &file.file_name,
            replaced_now(file.append),
        ),
        AppenderKind::MemoryMappedFile(file) => {
            valid_region_length(&spec.name, file.region_length);
            (
                crate::mmf_manager::MANAGER,
                &file.file_name,
                replaced_now(file.append),
            )
        }
        AppenderKind::RollingFile(file) => {
            check_rolling(&file.rolling);
            let Some(file_name) = &file.rolling.file_name else {
                return Ok(());
            };
            (
                "RollingFileManager",
                file_name,
                opened_now(file.create_on_demand),
            )
        }
        AppenderKind::RollingRandomAccessFile(file) => {
            check_rolling(&file.rolling);
            let Some(file_name) = &file.rolling.file_name else {
                return Ok(());
            };
            ("RollingRandomAccessFileManager", file_name, OpenWhen::Now)
        }
        AppenderKind::RollingMemoryMappedFile(file) => {
            valid_region_length(&spec.name, file.region_length);
            check_rolling(&file.rolling);
            let Some(file_name) = &file.rolling.file_name else {
                return Ok(());
            };
            (
                crate::mmf_manager::MANAGER,
                file_name,
                replaced_now(file.append),
            )
        }
        AppenderKind::Null | AppenderKind::CountingNoOp => return Ok(()),
        AppenderKind::Async(_) => return Err(AppenderBuildError::Unsupported { kind: "Async" }),
        AppenderKind::Failover(_) => {
            return Err(AppenderBuildError::Unsupported { kind: "Failover" })
        }
        AppenderKind::Rewrite(_) => {
            return Err(AppenderBuildError::Unsupported { kind: "Rewrite" })
        }
        AppenderKind::Socket(socket) => return crate::socket::check(&spec.name, socket),
        AppenderKind::Routing(_) => {
            return Err(AppenderBuildError::Unsupported { kind: "Routing" })
        }
        // Checking opens no connection: the producer properties are judged when it is built.
        AppenderKind::Kafka(_) => return Ok(()),
        AppenderKind::Smtp(smtp) => return crate::smtp::check(&spec.name, smtp),
        AppenderKind::Http(http) => return crate::http::check(&spec.name, http),
        // Checking opens no connection: the connection string is judged when it is built.
        AppenderKind::Jdbc(_) => return Ok(()),
    };
    let target = classify(manager, file_name, when)?;
    if let Some(warning) = target.warning(manager, file_name) {
        status::warn(warning);
    }
    Ok(())
}
