//! `<Appenders>` and the appenders l4rs implements, with log4j2's defaults and messages.

use super::binder::Binder;
use super::filters::{is_filter, FilterSlot};
use super::layout::{build_layout, is_layout};
use super::node::PNode;
use super::rolling;
use crate::model::{
    AppenderKind, AppenderSpec, ConsoleSpec, ConsoleTarget, FileSpec, LayoutSpec,
    MemoryMappedFileSpec, RandomAccessFileSpec,
};

/// log4j2's `log4j2.encoderByteBufferSize`, the File appender's default buffer.
const DEFAULT_BUFFER_SIZE: usize = 8192;
/// `RandomAccessFileManager.DEFAULT_BUFFER_SIZE`.
const RANDOM_ACCESS_BUFFER_SIZE: usize = 256 * 1024;
/// `MemoryMappedFileManager`'s default region: 32 MiB.
const DEFAULT_REGION_LENGTH: i64 = 32 * 1024 * 1024;

/// Builds `<Appenders>`: every appender in document order, a later name replacing an earlier one
/// (which moves to `replaced`).
pub(crate) fn build_appenders(
    binder: &mut Binder,
    mut node: PNode,
    into: &mut Vec<AppenderSpec>,
    replaced: &mut Vec<AppenderSpec>,
) {
    let inserted = node.attrs.len();
    let mut managers = FileManagers::default();
    for child in std::mem::take(&mut node.children) {
        match child.canonical {
            Some(
                "Console"
                | "File"
                | "RandomAccessFile"
                | "MemoryMappedFile"
                | "RollingFile"
                | "RollingRandomAccessFile"
                | "RollingMemoryMappedFile",
            ) => {
                if let Some(appender) = build_appender(binder, child, &mut managers) {
                    replace_by_name(into, replaced, appender);
                }
            }
            Some("Async") => {
                if let Some(appender) = super::async_appender::build_async_appender(binder, child) {
                    replace_by_name(into, replaced, appender);
                }
            }
            _ => binder.unusable_child(&node, &child),
        }
    }
    binder.finish(&node, inserted);
}

/// Adds `appender` to `into`, moving an earlier one of the same name to `replaced`.
fn replace_by_name(
    into: &mut Vec<AppenderSpec>,
    replaced: &mut Vec<AppenderSpec>,
    appender: AppenderSpec,
) {
    if let Some(index) = into
        .iter()
        .position(|existing| existing.name == appender.name)
    {
        replaced.push(into.remove(index));
    }
    into.push(appender);
}

/// The parts every appender has.
struct Common {
    name: Option<String>,
    ignore_exceptions: bool,
    layout: Option<LayoutSpec>,
    filter: FilterSlot,
}

fn build_appender(
    binder: &mut Binder,
    mut node: PNode,
    managers: &mut FileManagers,
) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let canonical = node.canonical.unwrap_or_default();
    let mut common = Common {
        name: None,
        ignore_exceptions: true,
        layout: None,
        filter: FilterSlot::new(),
    };
    let mut layout_seen = false;
    let mut rolling_children = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if rolling::is_rolling_appender(canonical) && rolling::is_rolling_child(&child) {
            rolling_children.push(child);
        } else if is_layout(&child) && !layout_seen {
            layout_seen = true;
            common.layout = build_layout(binder, child);
        } else if is_filter(&child) {
            common.filter.offer(binder, &node, child);
        } else if child.canonical == Some("Property") {
            // Appender properties configure third-party clients; none of l4rs's appenders
            // reads them, and log4j2 accepts them on every appender.
        } else {
            binder.unusable_child(&node, &child);
        }
    }
    let kind = match canonical {
        "Console" => console(binder, &mut node),
        "File" => file(binder, &mut node),
        "RandomAccessFile" => random_access_file(binder, &mut node),
        "MemoryMappedFile" => memory_mapped_file(binder, &mut node),
        _ => rolling::rolling_kind(binder, &mut node, canonical, rolling_children)
            .ok_or(KindError::Reported),
    };
    common.name = binder.string(&mut node, &["name"]);
    common.ignore_exceptions = binder.boolean(&mut node, &["ignoreExceptions"], true);
    // Accepted by log4j2 on every appender; l4rs has no advertiser.
    let _ = binder.string(&mut node, &["advertise"]);
    let _ = binder.string(&mut node, &["advertiseUri", "advertiseURI"]);
    binder.finish(&node, inserted);

    let kind = match kind {
        Ok(kind) => kind,
        Err(KindError::Reported) => {
            // Consumed so that they are not reported as unknown as well.
            let _ = binder.string(&mut node, &["name"]);
            return None;
        }
        Err(KindError::MissingFileName) => {
            let name = common.name.as_deref().unwrap_or("null");
            let message = match canonical {
                "File" => "The parameter is null: fileName".to_string(),
                "RandomAccessFile" => {
                    format!("No filename provided for RandomAccessFileAppender with name {name}")
                }
                _ => format!("No filename provided for MemoryMappedFileAppender with name {name}"),
            };
            binder.error_help(
                &node,
                message,
                format!(
                    "add fileName=\"…\" to <{}>; the appender is not created",
                    node.name
                ),
            );
            if common.name.is_none() {
                binder.error(&node, "No appender name provided");
            }
            return None;
        }
    };
    let Some(name) = common.name else {
        binder.error_help(
            &node,
            "No appender name provided",
            format!("Arguments given for element {} are invalid: field 'name' has invalid value 'null'; the appender is not created", node.name),
        );
        return None;
    };
    if let AppenderKind::Console(ConsoleSpec {
        follow: true,
        direct: true,
        ..
    }) = kind
    {
        binder.error(
            &node,
            format!("Could not create plugin of type class org.apache.logging.log4j.core.appender.ConsoleAppender for element {}: java.lang.IllegalArgumentException: Cannot use both follow and direct on ConsoleAppender '{name}'", node.name),
        );
        return None;
    }
    if let Err(refusal) = managers.claim(&name, &kind) {
        let class = format!("org.apache.logging.log4j.core.appender.{canonical}Appender");
        // log4j2 2.19 (checked with the oracle): a manager that is no kind of the one asked
        // for fails `AbstractManager.narrow`; one that is, fails casting the factory data.
        let message = if refusal.existing.serves(refusal.wanted) {
            format!(
                "Could not create plugin of type class {class} for element {}: java.lang.ClassCastException: class {} cannot be cast to class {}",
                node.name,
                refusal.wanted.factory_data(),
                refusal.existing.factory_data()
            )
        } else {
            format!(
                "Could not create plugin of type class {class} for element {} org.apache.logging.log4j.core.config.ConfigurationException: Configuration has multiple incompatible Appenders pointing to the same resource '{}'",
                node.name, refusal.resource
            )
        };
        binder.error_help(
            &node,
            message,
            format!(
                "appender {} already writes '{}' as another kind of appender; give {name} a file of its own; it is not created",
                refusal.holder, refusal.resource
            ),
        );
        return None;
    }
    Some(AppenderSpec {
        name,
        ignore_exceptions: common.ignore_exceptions,
        layout: common.layout,
        filter: common.filter.filter,
        kind,
        position: Some(node.position),
    })
}

/// The kinds of log4j2 output-stream manager, which appenders share by resource name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ManagerKind {
    File,
    RollingFile,
    RollingRandomAccessFile,
    RandomAccessFile,
    MemoryMappedFile,
    RollingMemoryMappedFile,
}

impl ManagerKind {
    /// The manager an appender asks for, and the resource it is registered under (the file,
    /// or the pattern of a rolling appender that writes straight to its archives).
    fn of(kind: &AppenderKind) -> Option<(ManagerKind, &str)> {
        let (manager, rolling) = match kind {
            AppenderKind::File(spec) => return Some((ManagerKind::File, &spec.file_name)),
            AppenderKind::RandomAccessFile(spec) => {
                return Some((ManagerKind::RandomAccessFile, &spec.file_name))
            }
            AppenderKind::MemoryMappedFile(spec) => {
                return Some((ManagerKind::MemoryMappedFile, &spec.file_name))
            }
            AppenderKind::RollingFile(spec) => (ManagerKind::RollingFile, &spec.rolling),
            AppenderKind::RollingRandomAccessFile(spec) => {
                (ManagerKind::RollingRandomAccessFile, &spec.rolling)
            }
            AppenderKind::RollingMemoryMappedFile(spec) => {
                (ManagerKind::RollingMemoryMappedFile, &spec.rolling)
            }
            AppenderKind::Console(_) | AppenderKind::Async(_) => return None,
        };
        let resource = rolling
            .file_name
            .as_deref()
            .unwrap_or(&rolling.file_pattern.text);
        Some((manager, resource))
    }

    /// Java's `wanted.isAssignableFrom(self)`: the rolling managers extend `FileManager`, and
    /// `RollingRandomAccessFileManager` extends `RollingFileManager`.
    fn serves(self, wanted: ManagerKind) -> bool {
        use ManagerKind::{File, RollingFile, RollingRandomAccessFile};
        self == wanted
            || matches!(
                (self, wanted),
                (RollingFile | RollingRandomAccessFile, File)
                    | (RollingRandomAccessFile, RollingFile)
            )
    }

    /// The Java class of the data this manager's factory takes.
    fn factory_data(self) -> &'static str {
        match self {
            ManagerKind::File => "org.apache.logging.log4j.core.appender.FileManager$FactoryData",
            ManagerKind::RandomAccessFile => {
                "org.apache.logging.log4j.core.appender.RandomAccessFileManager$FactoryData"
            }
            ManagerKind::MemoryMappedFile => {
                "org.apache.logging.log4j.core.appender.MemoryMappedFileManager$FactoryData"
            }
            ManagerKind::RollingFile => {
                "org.apache.logging.log4j.core.appender.rolling.RollingFileManager$FactoryData"
            }
            ManagerKind::RollingRandomAccessFile => {
                "org.apache.logging.log4j.core.appender.rolling.RollingRandomAccessFileManager$FactoryData"
            }
            ManagerKind::RollingMemoryMappedFile => {
                "org.apache.logging.log4j.core.appender.rolling.RollingMemoryMappedFileManager$FactoryData"
            }
        }
    }
}

/// Who registered a resource first.
struct ManagerHolder {
    resource: String,
    appender: String,
    kind: ManagerKind,
}

/// Why an appender cannot have the manager it asks for.
struct Refusal {
    resource: String,
    /// The appender that registered the resource.
    holder: String,
    existing: ManagerKind,
    wanted: ManagerKind,
}

/// The managers the appenders built so far registered, as log4j2's manager map holds them.
#[derive(Default)]
struct FileManagers(Vec<ManagerHolder>);

impl FileManagers {
    /// Registers (or shares) the manager `kind` needs. Appenders of one kind share a manager;
    /// an appender of another kind on a registered resource is refused, as log4j2 refuses it.
    fn claim(&mut self, appender: &str, kind: &AppenderKind) -> Result<(), Refusal> {
        let Some((wanted, resource)) = ManagerKind::of(kind) else {
            return Ok(());
        };
        match self.0.iter().find(|holder| holder.resource == resource) {
            Some(holder) if holder.kind != wanted => Err(Refusal {
                resource: resource.to_string(),
                holder: holder.appender.clone(),
                existing: holder.kind,
                wanted,
            }),
            Some(_) => Ok(()),
            None => {
                self.0.push(ManagerHolder {
                    resource: resource.to_string(),
                    appender: appender.to_string(),
                    kind: wanted,
                });
                Ok(())
            }
        }
    }
}

/// Reads the buffer attributes every output-stream appender accepts.
struct Buffering {
    buffered_io: Option<bool>,
    buffer_size: Option<usize>,
    immediate_flush: bool,
}

fn buffering(binder: &mut Binder, node: &mut PNode) -> Buffering {
    Buffering {
        buffered_io: node
            .attrs
            .iter()
            .any(|a| a.name.eq_ignore_ascii_case("bufferedIo"))
            .then(|| binder.boolean(node, &["bufferedIo"], true)),
        buffer_size: binder
            .int(node, &["bufferSize"])
            .map(|size| usize::try_from(size).unwrap_or(0)),
        immediate_flush: binder.boolean(node, &["immediateFlush"], true),
    }
}

/// Why an appender's own attributes gave no appender.
enum KindError {
    /// The one required attribute of the file appenders was not given.
    MissingFileName,
    /// Something else, already reported.
    Reported,
}

type KindResult = Result<AppenderKind, KindError>;

fn console(binder: &mut Binder, node: &mut PNode) -> KindResult {
    let target = match binder.enumeration(
        node,
        &["target"],
        "class org.apache.logging.log4j.core.appender.ConsoleAppender$Target",
        &["SYSTEM_OUT", "SYSTEM_ERR"],
    ) {
        Some(1) => ConsoleTarget::SystemErr,
        _ => ConsoleTarget::SystemOut,
    };
    let follow = binder.boolean(node, &["follow"], false);
    let direct = binder.boolean(node, &["direct"], false);
    // Accepted and ignored by log4j2's console appender (always flushed, fixed buffer).
    let _ = buffering(binder, node);
    Ok(AppenderKind::Console(ConsoleSpec {
        target,
        follow,
        direct,
    }))
}

fn file(binder: &mut Binder, node: &mut PNode) -> KindResult {
    let file_name = binder.string(node, &["fileName"]);
    let append = binder.boolean(node, &["append"], true);
    let locking = binder.boolean(node, &["locking"], false);
    let create_on_demand = binder.boolean(node, &["createOnDemand"], false);
    let file_permissions = binder.string(node, &["filePermissions"]);
    let file_owner = binder.string(node, &["fileOwner"]);
    let file_group = binder.string(node, &["fileGroup"]);
    let buffers = buffering(binder, node);
    let file_name = file_name.ok_or(KindError::MissingFileName)?;
    let mut buffered_io = buffers.buffered_io.unwrap_or(true);
    let buffer_size = buffers.buffer_size.unwrap_or(DEFAULT_BUFFER_SIZE);
    if locking && buffered_io {
        binder.report(
            crate::Severity::Warning,
            format!("Locking and buffering are mutually exclusive. No buffering will occur for {file_name}"),
            Some(node),
            None,
            None,
        );
        buffered_io = false;
    }
    if !buffered_io && buffer_size > 0 {
        binder.report(
            crate::Severity::Warning,
            format!("The bufferSize is set to {buffer_size} but bufferedIo is false: false"),
            Some(node),
            None,
            None,
        );
    }
    Ok(AppenderKind::File(FileSpec {
        file_name,
        append,
        buffered_io,
        buffer_size,
        immediate_flush: buffers.immediate_flush,
        locking,
        create_on_demand,
        file_permissions,
        file_owner,
        file_group,
    }))
}

fn random_access_file(binder: &mut Binder, node: &mut PNode) -> KindResult {
    let file_name = binder.string(node, &["fileName"]);
    let append = binder.boolean(node, &["append"], true);
    let buffers = buffering(binder, node);
    Ok(AppenderKind::RandomAccessFile(RandomAccessFileSpec {
        file_name: file_name.ok_or(KindError::MissingFileName)?,
        append,
        immediate_flush: buffers.immediate_flush,
        buffer_size: buffers.buffer_size.unwrap_or(RANDOM_ACCESS_BUFFER_SIZE),
    }))
}

fn memory_mapped_file(binder: &mut Binder, node: &mut PNode) -> KindResult {
    let file_name = binder.string(node, &["fileName"]);
    let append = binder.boolean(node, &["append"], true);
    let region_length = binder.int(node, &["regionLength"]).map(i64::from);
    let buffers = buffering(binder, node);
    Ok(AppenderKind::MemoryMappedFile(MemoryMappedFileSpec {
        file_name: file_name.ok_or(KindError::MissingFileName)?,
        append,
        immediate_flush: buffers.immediate_flush,
        region_length: region_length.unwrap_or(DEFAULT_REGION_LENGTH),
    }))
}
