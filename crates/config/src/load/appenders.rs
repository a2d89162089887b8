//! `<Appenders>` and the appenders l4rs implements, with log4j2's defaults and messages.

use super::binder::{Binder, MissingField};
use super::filters::{is_filter, FilterSlot};
use super::layout::{build_layout, is_layout};
use super::node::PNode;
use super::rolling;
use crate::model::{
    AppenderKind, AppenderSpec, ConsoleSpec, ConsoleTarget, FileSpec, LayoutSpec,
    MemoryMappedFileSpec, RandomAccessFileSpec,
};
use crate::plugins::Plugin;

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
    let mut failed = Vec::new();
    // The names in `into`, so that a new name is not compared with every appender before it.
    let mut names: std::collections::HashSet<String> =
        into.iter().map(|appender| appender.name.clone()).collect();
    for child in std::mem::take(&mut node.children) {
        let stub = child.stub();
        let built = match build_one(binder, child, &mut managers) {
            Ok(built) => built,
            Err(child) => {
                binder.unusable_child(&node, &child);
                continue;
            }
        };
        match built {
            Some(appender) => replace_by_name(into, replaced, &mut names, appender),
            None => failed.push(stub),
        }
    }
    // log4j2 names each appender that was not created once all of them are built.
    binder.null_children(&node, &failed);
    binder.finish(&node, inserted);
}

/// Builds one appender element; `Err` gives the element back when it is no appender l4rs
/// implements. `Ok(None)` is an appender that could not be built (after log4j2's message).
fn build_one(
    binder: &mut Binder,
    child: PNode,
    managers: &mut FileManagers,
) -> Result<Option<AppenderSpec>, Box<PNode>> {
    Ok(match child.canonical {
        Some(
            plugin @ (Plugin::Console
            | Plugin::File
            | Plugin::RandomAccessFile
            | Plugin::MemoryMappedFile
            | Plugin::RollingFile
            | Plugin::RollingRandomAccessFile
            | Plugin::RollingMemoryMappedFile),
        ) => build_appender(binder, child, plugin, managers),
        Some(Plugin::Async) => super::async_appender::build_async_appender(binder, child),
        Some(Plugin::Null) => null_appender(binder, child),
        Some(Plugin::CountingNoOp) => counting_no_op_appender(binder, child),
        Some(Plugin::Failover) => super::failover::build_failover_appender(binder, child),
        Some(Plugin::Rewrite) => super::rewrite::build_rewrite_appender(binder, child),
        Some(Plugin::Socket | Plugin::Syslog) => {
            super::socket::build_socket_appender(binder, child)
        }
        Some(Plugin::Routing) => super::routing_appender::build_routing_appender(binder, child),
        Some(Plugin::Kafka) => super::kafka::build_kafka_appender(binder, child),
        Some(Plugin::SMTP) => super::smtp::build_smtp_appender(binder, child),
        Some(Plugin::Http) => super::http::build_http_appender(binder, child),
        Some(Plugin::JDBC) => super::jdbc::build_jdbc_appender(binder, child),
        Some(Plugin::ScriptAppenderSelector) => {
            super::scripts::script_appender_selector(binder, child)
        }
        _ => return Err(Box::new(child)),
    })
}

/// Builds the appender element of a `<Route>` (see [`build_one`]). It has a manager map of its
/// own: the appenders a route creates share files at run time, through the appenders
/// crate's registry.
pub(crate) fn build_route_appender(
    binder: &mut Binder,
    node: PNode,
) -> Result<Option<AppenderSpec>, Box<PNode>> {
    build_one(binder, node, &mut FileManagers::default())
}

/// Adds `appender` to `into`, moving an earlier one of the same name to `replaced`.
/// `names` holds the names in `into`.
fn replace_by_name(
    into: &mut Vec<AppenderSpec>,
    replaced: &mut Vec<AppenderSpec>,
    names: &mut std::collections::HashSet<String>,
    appender: AppenderSpec,
) {
    if !names.insert(appender.name.clone()) {
        if let Some(index) = into
            .iter()
            .position(|existing| existing.name == appender.name)
        {
            replaced.push(into.remove(index));
        }
    }
    into.push(appender);
}

/// `<Null>`: log4j2's `NullAppender` takes only `name` (default `null`); it has no filter,
/// layout or `ignoreExceptions`, so those are reported as log4j2 reports any unknown parameter.
fn null_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let name = binder
        .string(&mut node, &["name"])
        .unwrap_or_else(|| "null".to_string());
    binder.finish(&node, inserted);
    Some(AppenderSpec {
        name,
        ignore_exceptions: true,
        layout: None,
        filter: None,
        kind: AppenderKind::Null,
        position: Some(node.position),
    })
}

/// `<CountingNoOp>`: log4j2's `CountingNoOpAppender` takes only `name`, which it requires
/// (`Objects.requireNonNull`, so a missing name fails its factory with a bare
/// NullPointerException); like `<Null>` it has no filter, layout or `ignoreExceptions`.
fn counting_no_op_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let name = binder.string(&mut node, &["name"]);
    // log4j2 reports the leftover attributes and elements before it runs the factory.
    binder.finish(&node, inserted);
    let Some(name) = name else {
        binder.factory_failure(
            &node,
            "org.apache.logging.log4j.core.appender.CountingNoOpAppender",
            "java.lang.NullPointerException",
            Some("add name=\"…\" to <CountingNoOp>".to_string()),
        );
        return None;
    };
    Some(AppenderSpec {
        name,
        ignore_exceptions: true,
        layout: None,
        filter: None,
        kind: AppenderKind::CountingNoOp,
        position: Some(node.position),
    })
}

/// The largest `bufferSize` a file appender may ask for (64 MiB; log4j2's defaults are 8 KiB
/// and 256 KiB). The buffer grows to it in memory, so a size near `i32::MAX` could exhaust
/// memory, where log4j2's `new byte[bufferSize]` fails and the appender is not created.
pub(crate) const MAX_FILE_BUFFER_SIZE: usize = 64 * 1024 * 1024;

/// The `bufferSize` of a file appender.
fn file_buffer_size(kind: &AppenderKind) -> Option<usize> {
    match kind {
        AppenderKind::File(spec) => Some(spec.buffer_size),
        AppenderKind::RandomAccessFile(spec) => Some(spec.buffer_size),
        AppenderKind::RollingFile(spec) => Some(spec.buffer_size),
        AppenderKind::RollingRandomAccessFile(spec) => Some(spec.buffer_size),
        _ => None,
    }
}

/// An appender that hands its events to other appenders (Async, Failover, Rewrite, Routing):
/// it has a filter but no layout of its own.
pub(crate) fn delegating_appender(
    name: String,
    ignore_exceptions: bool,
    filter: FilterSlot,
    kind: AppenderKind,
    node: &PNode,
) -> AppenderSpec {
    AppenderSpec {
        name,
        ignore_exceptions,
        layout: None,
        filter: filter.filter,
        kind,
        position: Some(node.position),
    }
}

/// Reports a size attribute above what l4rs allocates; the appender is not created.
pub(crate) fn too_large(
    binder: &mut Binder,
    node: &PNode,
    position: Option<crate::Position>,
    attribute: &str,
    size: usize,
    max: usize,
) {
    binder.report(
        crate::Severity::Error,
        format!(
            "{} {attribute}=\"{size}\" is above the maximum of {max} l4rs allocates; the appender is not created",
            node.name
        ),
        Some(node),
        position,
        Some(format!("use a {attribute} of at most {max}")),
    );
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
    canonical: Plugin,
    managers: &mut FileManagers,
) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
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
        } else if child.canonical == Some(Plugin::Property) {
            // Appender properties configure third-party clients; none of l4rs's appenders
            // reads them, and log4j2 accepts them on every appender.
        } else {
            binder.refuse_child(&mut node, child);
        }
    }
    let buffer_size_position = node.attr_position(&["bufferSize"]);
    // log4j2's builder: the fields are injected (values converted, children built), the
    // required ones validated, the leftover attributes reported, and only then is `build()` run.
    let pending = match canonical {
        Plugin::Console => Pending::Ready(console(binder, &mut node)),
        Plugin::File => file(binder, &mut node),
        Plugin::RandomAccessFile => random_access_file(binder, &mut node),
        Plugin::MemoryMappedFile => memory_mapped_file(binder, &mut node),
        _ => Pending::Rolling(Box::new(rolling::rolling_parts(
            binder,
            &mut node,
            canonical,
            rolling_children,
        ))),
    };
    common.name = binder.string(&mut node, &["name"]);
    common.ignore_exceptions = binder.boolean(&mut node, &["ignoreExceptions"], true);
    // Accepted by log4j2 on every appender; l4rs has no advertiser.
    let _ = binder.string(&mut node, &["advertise"]);
    let _ = binder.string(&mut node, &["advertiseUri", "advertiseURI"]);

    let mut missing = match &pending {
        Pending::RequiredFileName { empty } => {
            let field = MissingField::attribute("fileName", "The parameter is null: fileName");
            // log4j2's validator refuses an empty value as it refuses a missing one, and
            // prints it as it is.
            vec![if *empty { field.shown_as("") } else { field }]
        }
        Pending::Rolling(parts) => parts.missing(),
        _ => Vec::new(),
    };
    if common.name.is_none() {
        missing.push(MissingField::attribute("name", "No appender name provided"));
    }
    if !missing.is_empty() {
        let class = format!("org.apache.logging.log4j.core.appender.{canonical}Appender");
        binder.invalid_arguments(&node, &class, &missing);
        return None;
    }
    binder.finish(&node, inserted);
    let name = common.name.expect("validated above");

    let kind = match pending {
        Pending::Ready(kind) => kind,
        Pending::File(spec) => file_build(binder, &node, spec),
        Pending::Rolling(parts) => parts.build(binder, &node, &name)?,
        Pending::NoFileName => {
            binder.error_help(
                &node,
                format!("No filename provided for {canonical}Appender with name {name}"),
                format!(
                    "add fileName=\"…\" to <{}>; the appender is not created",
                    node.name
                ),
            );
            return None;
        }
        Pending::RequiredFileName { .. } => {
            unreachable!("reported as a missing required attribute")
        }
    };
    if let Some(size) = file_buffer_size(&kind).filter(|size| *size > MAX_FILE_BUFFER_SIZE) {
        too_large(
            binder,
            &node,
            buffer_size_position,
            "bufferSize",
            size,
            MAX_FILE_BUFFER_SIZE,
        );
        return None;
    }
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
            AppenderKind::Console(_)
            | AppenderKind::Async(_)
            | AppenderKind::Null
            | AppenderKind::CountingNoOp
            | AppenderKind::Failover(_)
            | AppenderKind::Rewrite(_)
            | AppenderKind::Socket(_)
            | AppenderKind::Routing(_)
            | AppenderKind::Kafka(_)
            | AppenderKind::Smtp(_)
            | AppenderKind::Http(_)
            | AppenderKind::Jdbc(_) => return None,
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

/// Who registered a resource first (the map's key).
struct ManagerHolder {
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
struct FileManagers(std::collections::HashMap<String, ManagerHolder>);

impl FileManagers {
    /// Registers (or shares) the manager `kind` needs. Appenders of one kind share a manager;
    /// an appender of another kind on a registered resource is refused, as log4j2 refuses it.
    fn claim(&mut self, appender: &str, kind: &AppenderKind) -> Result<(), Refusal> {
        let Some((wanted, resource)) = ManagerKind::of(kind) else {
            return Ok(());
        };
        match self.0.get(resource) {
            Some(holder) if holder.kind != wanted => Err(Refusal {
                resource: resource.to_string(),
                holder: holder.appender.clone(),
                existing: holder.kind,
                wanted,
            }),
            Some(_) => Ok(()),
            None => {
                self.0.insert(
                    resource.to_string(),
                    ManagerHolder {
                        appender: appender.to_string(),
                        kind: wanted,
                    },
                );
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

/// An appender's own attributes, read; what log4j2's builder makes of them comes later.
enum Pending {
    /// Nothing left to check.
    Ready(AppenderKind),
    /// A File, whose buffer options are checked when it is built.
    File(FileSpec),
    /// A File without `fileName` (or with an empty one: `empty`), a required attribute of its
    /// builder.
    RequiredFileName { empty: bool },
    /// A RandomAccessFile or MemoryMappedFile without `fileName`, which their `build()` refuses.
    NoFileName,
    /// A rolling appender, checked in two steps.
    Rolling(Box<rolling::RollingParts>),
}

fn console(binder: &mut Binder, node: &mut PNode) -> AppenderKind {
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
    AppenderKind::Console(ConsoleSpec {
        target,
        follow,
        direct,
    })
}

fn file(binder: &mut Binder, node: &mut PNode) -> Pending {
    let file_name = binder.string(node, &["fileName"]);
    let append = binder.boolean(node, &["append"], true);
    let locking = binder.boolean(node, &["locking"], false);
    let create_on_demand = binder.boolean(node, &["createOnDemand"], false);
    let file_permissions = binder.string(node, &["filePermissions"]);
    let file_owner = binder.string(node, &["fileOwner"]);
    let file_group = binder.string(node, &["fileGroup"]);
    let buffers = buffering(binder, node);
    let empty = file_name.as_deref() == Some("");
    let Some(file_name) = file_name.filter(|name| !name.is_empty()) else {
        return Pending::RequiredFileName { empty };
    };
    Pending::File(FileSpec {
        file_name,
        append,
        buffered_io: buffers.buffered_io.unwrap_or(true),
        buffer_size: buffers.buffer_size.unwrap_or(DEFAULT_BUFFER_SIZE),
        immediate_flush: buffers.immediate_flush,
        locking,
        create_on_demand,
        file_permissions,
        file_owner,
        file_group,
    })
}

/// What log4j2's `FileAppender.Builder.build()` says about the buffer options (once; the
/// appender itself does not repeat it).
fn file_build(binder: &mut Binder, node: &PNode, mut spec: FileSpec) -> AppenderKind {
    if let Some(warning) = spec.give_locking_precedence() {
        binder.report(crate::Severity::Warning, warning, Some(node), None, None);
    }
    if !spec.buffered_io && spec.buffer_size > 0 {
        binder.report(
            crate::Severity::Warning,
            format!(
                "The bufferSize is set to {} but bufferedIo is false: false",
                spec.buffer_size
            ),
            Some(node),
            None,
            None,
        );
    }
    AppenderKind::File(spec)
}

fn random_access_file(binder: &mut Binder, node: &mut PNode) -> Pending {
    let file_name = binder.string(node, &["fileName"]);
    let append = binder.boolean(node, &["append"], true);
    let buffers = buffering(binder, node);
    let Some(file_name) = file_name else {
        return Pending::NoFileName;
    };
    Pending::Ready(AppenderKind::RandomAccessFile(RandomAccessFileSpec {
        file_name,
        append,
        immediate_flush: buffers.immediate_flush,
        buffer_size: buffers.buffer_size.unwrap_or(RANDOM_ACCESS_BUFFER_SIZE),
    }))
}

fn memory_mapped_file(binder: &mut Binder, node: &mut PNode) -> Pending {
    let file_name = binder.string(node, &["fileName"]);
    let append = binder.boolean(node, &["append"], true);
    let region_length = binder.int(node, &["regionLength"]).map(i64::from);
    let buffers = buffering(binder, node);
    let Some(file_name) = file_name else {
        return Pending::NoFileName;
    };
    Pending::Ready(AppenderKind::MemoryMappedFile(MemoryMappedFileSpec {
        file_name,
        append,
        immediate_flush: buffers.immediate_flush,
        region_length: region_length.unwrap_or(DEFAULT_REGION_LENGTH),
    }))
}
