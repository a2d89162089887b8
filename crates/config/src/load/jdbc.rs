//! `<JDBC>`: log4j2 2.19's JdbcAppender, with its builder's attributes, defaults, checks and
//! messages, its `<Column>`s and `<ColumnMapping>`s, and its connection source: a
//! `<DriverManager>` (or log4j-jdbc-dbcp2's `<PoolingDriver>`), or the `<DataSource>` (JNDI)
//! and `<ConnectionFactory>` (a Java method) l4rs cannot use. The model only: the connection
//! is made by the facade behind the `l4rs` crate's `jdbc` feature, which also refuses a
//! database it has no driver for.
//!
//! log4j2 builds every child before its parent, so a column or source that log4j2 returns as
//! null is reported where it is, and again as `Null object returned for …` when the parent
//! takes it; such a column is dropped and the appender is built without it, as in log4j2. What
//! log4j2 would build but l4rs cannot use (a context-map column, a Java type l4rs does not
//! bind) is refused with a help, and the appender is then not created: a table filled with
//! other columns than the configuration names would be worse than no appender.

use super::binder::{Binder, MissingField};
use super::filters::{is_filter, FilterSlot};
use super::layout::{build_layout, is_layout};
use super::node::PNode;
use super::rewrite::property;
use crate::model::{
    AppenderKind, AppenderSpec, JavaNumber, JdbcColumnSpec, JdbcColumnValue, JdbcConnectionSpec,
    JdbcSpec, JdbcTextBinding, LayoutSpec, PatternLayoutSpec,
};
use crate::plugins::Plugin;
use crate::Severity;

/// The Java classes log4j2 names when a builder's required fields are missing.
const APPENDER_CLASS: &str = "org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender";
const COLUMN_CLASS: &str = "org.apache.logging.log4j.core.appender.db.jdbc.ColumnConfig";
const COLUMN_MAPPING_CLASS: &str = "org.apache.logging.log4j.core.appender.db.ColumnMapping";
const DRIVER_MANAGER_CLASS: &str =
    "org.apache.logging.log4j.core.appender.db.jdbc.DriverManagerConnectionSource";
const POOLING_DRIVER_CLASS: &str =
    "org.apache.logging.log4j.core.appender.db.jdbc.PoolingDriverConnectionSource";

/// `AbstractDatabaseAppender.DEFAULT_RECONNECT_INTERVAL_MILLIS`.
const DEFAULT_RECONNECT_INTERVAL_MILLIS: i64 = 5000;

/// log4j2's message for a driver-manager source given both a user and properties.
const USER_AND_PROPERTIES: &str =
    "Either set the userName and password, or set the Properties, but not both.";

/// What to write instead of a connection source l4rs cannot use.
const USE_DRIVER_MANAGER: &str = "<DriverManager connectionString=\"jdbc:sqlite:…\"/> (or a jdbc:postgresql://… URL: the databases l4rs connects to)";

/// Builds one `<JDBC>` element; `None` (after log4j2's messages, or l4rs's refusal) when it
/// cannot be built.
pub(crate) fn build_jdbc_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let mut filter = FilterSlot::new();
    let mut layout_seen = false;
    let mut source: Option<Built<JdbcConnectionSpec>> = None;
    let mut columns = Vec::new();
    let mut failed_columns = Vec::new();
    let mut mappings = Vec::new();
    let mut failed_mappings = Vec::new();
    let mut failed_properties = Vec::new();
    // A part log4j2 builds but l4rs cannot use: the appender is not created.
    let mut refused = false;
    for child in std::mem::take(&mut node.children) {
        if is_layout(&child) && !layout_seen {
            // log4j2 formats a MapMessage with it and nothing else; l4rs messages never are
            // MapMessages, so it is built (for its messages) and not kept.
            layout_seen = true;
            let _ = build_layout(binder, child);
        } else if is_filter(&child) {
            filter.offer(binder, &node, child);
        } else {
            match child.canonical {
                Some(Plugin::Column) => {
                    let stub = child.stub();
                    match build_column(binder, child) {
                        Built::Part(column) => columns.push(column),
                        Built::Null => failed_columns.push(stub),
                        Built::Refused => refused = true,
                    }
                }
                Some(Plugin::ColumnMapping) => {
                    let stub = child.stub();
                    match build_column_mapping(binder, child) {
                        Built::Part(column) => mappings.push(column),
                        Built::Null => failed_mappings.push(stub),
                        Built::Refused => refused = true,
                    }
                }
                // log4j2 takes the first child of the `connectionSource` element type; a
                // second one is left over and reported.
                Some(
                    Plugin::DriverManager
                    | Plugin::PoolingDriver
                    | Plugin::DataSource
                    | Plugin::ConnectionFactory,
                ) if source.is_none() => source = Some(build_connection_source(binder, child)),
                // Appender properties configure third-party clients; log4j2's JDBC appender
                // reads none.
                Some(Plugin::Property) => {
                    let _ = binder.build_child(child, &mut failed_properties, property);
                }
                _ => binder.refuse_child(&mut node, child),
            }
        }
    }
    // The builder's own fields in its order, then AbstractAppender.Builder's and
    // AbstractFilterable.Builder's, as log4j2 injects them: a value Java cannot convert, and a
    // child that was not created, are reported as their field is injected.
    let immediate_fail = binder.boolean(&mut node, &["immediateFail"], false);
    let buffer_size_position = node.attr_position(&["bufferSize"]);
    let buffer_size = binder.int(&mut node, &["bufferSize"]).unwrap_or(0);
    let table_name = binder.string(&mut node, &["tableName"]);
    binder.null_children(&node, &failed_columns);
    binder.null_children(&node, &failed_mappings);
    let truncate_strings = binder.boolean(&mut node, &["truncateStrings"], true);
    let reconnect_interval_millis = binder
        .long(&mut node, &["reconnectIntervalMillis"])
        .unwrap_or(DEFAULT_RECONNECT_INTERVAL_MILLIS);
    let ignore_exceptions = binder.boolean(&mut node, &["ignoreExceptions"], true);
    let name = binder.string(&mut node, &["name"]);
    binder.null_children(&node, &failed_properties);

    // `@Required` refuses an empty text as it refuses a missing one.
    let mut missing = Vec::new();
    let connection = match source {
        Some(Built::Part(connection)) => Some(Some(connection)),
        // Built by log4j2, refused by l4rs (reported): not missing.
        Some(Built::Refused) => Some(None),
        Some(Built::Null) | None => {
            missing.push(
                MissingField::attribute("connectionSource", "No ConnectionSource provided")
                    .added_as("a <DriverManager connectionString=\"jdbc:sqlite:…\"/> child"),
            );
            None
        }
    };
    let table_name = match table_name {
        Some(table_name) if !table_name.is_empty() => Some(table_name),
        given => {
            missing.push(
                MissingField::attribute("tableName", "No table name provided").given_as(&given),
            );
            None
        }
    };
    let name = match name {
        Some(name) if !name.is_empty() => Some(name),
        given => {
            missing.push(
                MissingField::attribute("name", "No appender name provided").given_as(&given),
            );
            None
        }
    };
    let (Some(connection), Some(table_name), Some(name)) = (connection, table_name, name) else {
        binder.invalid_arguments(&node, APPENDER_CLASS, &missing);
        return None;
    };
    binder.finish(&node, inserted);

    // `JdbcAppender.Builder.build()`: a column l4rs refused is one log4j2 has.
    if columns.is_empty() && mappings.is_empty() && !refused {
        binder.error_help(
            &node,
            "Cannot create JdbcAppender without any columns.",
            format!(
                "add <Column> or <ColumnMapping> children to <{}>; {name} is not created",
                node.name
            ),
        );
        return None;
    }
    // The manager's event buffer is `new ArrayList<>(bufferSize + 1)` (an `int` sum, which
    // wraps): -1 is an unbuffered appender, anything below fails the builder.
    let capacity = buffer_size.wrapping_add(1);
    if capacity < 0 {
        binder.builder_threw(
            &node,
            APPENDER_CLASS,
            &format!("java.lang.IllegalArgumentException: Illegal Capacity: {capacity}"),
            buffer_size_position,
            format!("use a bufferSize of 0 (unbuffered) or more; {name} is not created"),
        );
        return None;
    }
    // `None`: a source log4j2 builds and l4rs refused (reported with its help).
    let connection = connection?;
    if refused {
        return None;
    }
    // log4j2 puts every ColumnMapping before every Column in the statement.
    mappings.extend(columns);
    Some(AppenderSpec {
        name,
        ignore_exceptions,
        // Used by log4j2 for MapMessages only (see above).
        layout: None,
        filter: filter.filter,
        kind: AppenderKind::Jdbc(Box::new(JdbcSpec {
            table_name,
            connection,
            columns: mappings,
            // Buffered only above 0 (`isBuffered()`); -1 is unbuffered, checked above.
            buffer_size: u32::try_from(buffer_size).unwrap_or(0),
            reconnect_interval_millis,
            immediate_fail,
            truncate_strings,
        })),
        position: Some(node.position),
    })
}

/// What building one part gave.
enum Built<T> {
    /// The part (a column, or a connection source).
    Part(T),
    /// log4j2 returns null (its message was reported): the parent goes without it.
    Null,
    /// log4j2 builds it, l4rs cannot use it (reported with a help): the appender is not
    /// created.
    Refused,
}

/// A `pattern` attribute's layout: log4j2's `PatternLayout` that does not append the event's
/// exception.
fn pattern_layout(pattern: String) -> LayoutSpec {
    LayoutSpec::Pattern(PatternLayoutSpec {
        pattern,
        always_write_exceptions: false,
        ..PatternLayoutSpec::default()
    })
}

/// `<Column name pattern literal isEventTimestamp isUnicode isClob>` (log4j2's ColumnConfig).
fn build_column(binder: &mut Binder, mut node: PNode) -> Built<JdbcColumnSpec> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let name = binder.string(&mut node, &["name"]);
    let pattern = binder.string(&mut node, &["pattern"]);
    let literal = binder.string(&mut node, &["literal"]);
    let is_event_timestamp = binder.boolean(&mut node, &["isEventTimestamp"], false);
    // How Java hands the text to its driver (`setNString`, `setString`); l4rs's drivers
    // store text one way. `isClob` also keeps the text from `truncateStrings`.
    let _is_unicode = binder.boolean(&mut node, &["isUnicode"], true);
    let is_clob = binder.boolean(&mut node, &["isClob"], false);
    // `@Required(message = "No name provided")`, which also refuses an empty name: the
    // builder's own check for an empty name is never reached from a configuration.
    let Some(name) = name.clone().filter(|name| !name.is_empty()) else {
        binder.invalid_arguments(
            &node,
            COLUMN_CLASS,
            &[MissingField::attribute("name", "No name provided").given_as(&name)],
        );
        return Built::Null;
    };
    binder.finish(&node, inserted);
    // `ColumnConfig.Builder.build()`: empty texts count as absent.
    let pattern = pattern.filter(|pattern| !pattern.is_empty());
    let literal = literal.filter(|literal| !literal.is_empty());
    let given = usize::from(pattern.is_some())
        + usize::from(literal.is_some())
        + usize::from(is_event_timestamp);
    if given > 1 {
        binder.error_help(
            &node,
            "The pattern, literal, and isEventTimestamp attributes are mutually exclusive.",
            format!(
                "keep one of them on <{} name=\"{name}\">; the column is left out",
                node.name
            ),
        );
        return Built::Null;
    }
    let value = if is_event_timestamp {
        JdbcColumnValue::EventTimestamp { parameter: None }
    } else if let Some(literal) = literal {
        JdbcColumnValue::Literal(literal)
    } else if let Some(pattern) = pattern {
        JdbcColumnValue::Text {
            layout: pattern_layout(pattern),
            binding: if is_clob {
                JdbcTextBinding::Clob
            } else {
                JdbcTextBinding::Text
            },
            parameter: None,
        }
    } else {
        binder.error_help(
            &node,
            "To configure a column you must specify a pattern or literal or set isEventDate to true.",
            format!("add pattern=\"…\", literal=\"…\" or isEventTimestamp=\"true\" to <{} name=\"{name}\">; the column is left out", node.name),
        );
        return Built::Null;
    };
    Built::Part(JdbcColumnSpec { name, value })
}

/// What a `<ColumnMapping type>` does in log4j2 and l4rs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TypeUse {
    /// The layout's text converted to the type (or the literal, or a MapMessage's value).
    Text(JdbcTextBinding),
    /// A `java.util.Date`: the event's time.
    Timestamp,
    /// A `ThreadContextMap` or `ReadOnlyStringMap`: log4j2 binds the context map as a Java
    /// `Map`.
    ContextMap,
    /// A `ThreadContextStack`: log4j2 binds the context stack as a Java `List`.
    ContextStack,
    /// A class log4j2 can load (as far as l4rs knows) and l4rs cannot bind.
    Unsupported,
}

/// A `<ColumnMapping type>` as log4j2's `ClassConverter` loaded it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ColumnType {
    /// Java's `Class.toString()`: `class java.lang.String`, `interface java.sql.Clob`, `int`.
    shown: String,
    uses: TypeUse,
    /// Whether log4j2's builder lets a layout and a literal be set together for the type: a
    /// `Date`, `ReadOnlyStringMap`, `ThreadContextMap` or `ThreadContextStack` (or a subtype).
    either_value: bool,
}

impl ColumnType {
    /// The default, `java.lang.String`.
    fn string() -> ColumnType {
        ColumnType {
            shown: "class java.lang.String".to_string(),
            uses: TypeUse::Text(JdbcTextBinding::Text),
            either_value: false,
        }
    }
}

/// The Java classes l4rs binds as text, a number or a boolean, and the `Date` types, whose
/// value is the event's time. Class names are case-sensitive, as Java loads them.
const KNOWN_TYPES: &[(&str, TypeUse)] = &[
    ("java.lang.String", TEXT),
    ("java.lang.CharSequence", TEXT),
    ("java.sql.Clob", CLOB),
    ("java.sql.NClob", CLOB),
    ("java.lang.Integer", number(JavaNumber::Integer)),
    ("java.lang.Long", number(JavaNumber::Long)),
    ("java.lang.Short", number(JavaNumber::Short)),
    ("java.lang.Byte", number(JavaNumber::Byte)),
    ("java.math.BigInteger", number(JavaNumber::BigInteger)),
    ("java.lang.Double", number(JavaNumber::Double)),
    ("java.lang.Float", number(JavaNumber::Float)),
    ("java.math.BigDecimal", number(JavaNumber::BigDecimal)),
    ("java.lang.Boolean", BOOLEAN),
    ("java.util.Date", TypeUse::Timestamp),
    ("java.sql.Date", TypeUse::Timestamp),
    ("java.sql.Time", TypeUse::Timestamp),
    ("java.sql.Timestamp", TypeUse::Timestamp),
];
const TEXT: TypeUse = TypeUse::Text(JdbcTextBinding::Text);
const CLOB: TypeUse = TypeUse::Text(JdbcTextBinding::Clob);

/// A number class, converted as that class parses text (log4j2's converter of the boxed class
/// also serves its primitive).
const fn number(class: JavaNumber) -> TypeUse {
    TypeUse::Text(JdbcTextBinding::Number(class))
}
const BOOLEAN: TypeUse = TypeUse::Text(JdbcTextBinding::Boolean);

/// The known types that are interfaces, which `Class.toString()` prints as `interface …`.
const INTERFACES: &[&str] = &[
    "java.lang.CharSequence",
    "java.sql.Clob",
    "java.sql.NClob",
    "org.apache.logging.log4j.spi.ThreadContextMap",
    "org.apache.logging.log4j.spi.ThreadContextMap2",
    "org.apache.logging.log4j.spi.CleanableThreadContextMap",
    "org.apache.logging.log4j.spi.ObjectThreadContextMap",
    "org.apache.logging.log4j.util.ReadOnlyStringMap",
    "org.apache.logging.log4j.util.StringMap",
    "org.apache.logging.log4j.util.IndexedReadOnlyStringMap",
    "org.apache.logging.log4j.util.IndexedStringMap",
    "org.apache.logging.log4j.spi.ThreadContextStack",
    CONTEXT_STACK,
];

/// Java's `Class.toString()` of a known class or interface named `text`.
fn java_class_string(text: &str) -> String {
    let kind = if INTERFACES.contains(&text) {
        "interface"
    } else {
        "class"
    };
    format!("{kind} {text}")
}

/// log4j2's `ThreadContextMap` and `ReadOnlyStringMap`, with the subtypes it ships.
const CONTEXT_MAP_TYPES: &[&str] = &[
    "org.apache.logging.log4j.spi.ThreadContextMap",
    "org.apache.logging.log4j.spi.ThreadContextMap2",
    "org.apache.logging.log4j.spi.CleanableThreadContextMap",
    "org.apache.logging.log4j.spi.ObjectThreadContextMap",
    "org.apache.logging.log4j.spi.DefaultThreadContextMap",
    "org.apache.logging.log4j.spi.CopyOnWriteSortedArrayThreadContextMap",
    "org.apache.logging.log4j.spi.GarbageFreeSortedArrayThreadContextMap",
    "org.apache.logging.log4j.util.ReadOnlyStringMap",
    "org.apache.logging.log4j.util.StringMap",
    "org.apache.logging.log4j.util.IndexedReadOnlyStringMap",
    "org.apache.logging.log4j.util.IndexedStringMap",
    "org.apache.logging.log4j.util.SortedArrayStringMap",
];

/// log4j2's `ThreadContextStack`, with the subtypes it ships.
const CONTEXT_STACK_TYPES: &[&str] = &[
    "org.apache.logging.log4j.spi.ThreadContextStack",
    "org.apache.logging.log4j.spi.DefaultThreadContextStack",
    "org.apache.logging.log4j.spi.MutableThreadContextStack",
];

/// `ThreadContext.ContextStack`, the supertype of `ThreadContextStack`: log4j2's
/// `isAssignableFrom` checks do not treat it as a stack, so it binds nothing (or fails to
/// convert the layout's text to it). Whoever names it wants the stack, which l4rs refuses as it
/// refuses `ThreadContextStack`.
const CONTEXT_STACK: &str = "org.apache.logging.log4j.ThreadContext$ContextStack";

/// The primitive names `ClassConverter` recognises in any case.
const PRIMITIVES: &[(&str, TypeUse)] = &[
    ("boolean", BOOLEAN),
    ("byte", number(JavaNumber::Byte)),
    ("char", TypeUse::Unsupported),
    ("double", number(JavaNumber::Double)),
    ("float", number(JavaNumber::Float)),
    ("int", number(JavaNumber::Integer)),
    ("long", number(JavaNumber::Long)),
    ("short", number(JavaNumber::Short)),
    ("void", TypeUse::Unsupported),
];

/// The types l4rs binds, for helps.
const BINDABLE: &str = "java.lang.String (also CharSequence, java.sql.Clob, NClob), java.lang.Integer, Long, Short, Byte, java.math.BigInteger, java.lang.Double, Float, java.math.BigDecimal, java.lang.Boolean, or java.util.Date / java.sql.Timestamp for the event's time";

/// What log4j2's `ClassConverter` makes of `text`; `None` for a class it cannot load. l4rs has
/// no class path: a class of the JDK or of log4j2 that l4rs does not list is taken to exist
/// (and refused as one l4rs cannot bind), any other is an application class log4j2 would not
/// find without the application.
fn column_type(text: &str) -> Option<ColumnType> {
    let lower = text.to_ascii_lowercase();
    if let Some((name, uses)) = PRIMITIVES.iter().find(|(name, _)| *name == lower) {
        return Some(ColumnType {
            shown: (*name).to_string(),
            uses: *uses,
            either_value: false,
        });
    }
    if let Some((_, uses)) = KNOWN_TYPES.iter().find(|(name, _)| *name == text) {
        return Some(ColumnType {
            shown: java_class_string(text),
            uses: *uses,
            either_value: *uses == TypeUse::Timestamp,
        });
    }
    // log4j2's checks are `isAssignableFrom`, true for these and their subtypes, but not for
    // `ThreadContext.ContextStack` (see [`CONTEXT_STACK`]).
    let context = if CONTEXT_MAP_TYPES.contains(&text) {
        Some((TypeUse::ContextMap, true))
    } else if CONTEXT_STACK_TYPES.contains(&text) {
        Some((TypeUse::ContextStack, true))
    } else if text == CONTEXT_STACK {
        Some((TypeUse::ContextStack, false))
    } else {
        None
    };
    if let Some((uses, either_value)) = context {
        return Some(ColumnType {
            shown: java_class_string(text),
            uses,
            either_value,
        });
    }
    ["java.", "javax.", "org.apache.logging.log4j."]
        .iter()
        .any(|package| text.starts_with(package))
        .then(|| ColumnType {
            shown: format!("class {text}"),
            uses: TypeUse::Unsupported,
            either_value: false,
        })
}

/// `<ColumnMapping name pattern literal parameter source type columnType>` with an optional
/// layout child (log4j2's ColumnMapping).
fn build_column_mapping(binder: &mut Binder, mut node: PNode) -> Built<JdbcColumnSpec> {
    let inserted = node.attrs.len();
    // `Some(None)`: a layout l4rs does not implement (reported when it was built).
    let mut layout: Option<Option<LayoutSpec>> = None;
    // The layout child as log4j2's `toString()` prints it in the builder's.
    let mut shown_layout = "null".to_string();
    for child in std::mem::take(&mut node.children) {
        if is_layout(&child) && layout.is_none() {
            let element = child
                .canonical
                .map_or_else(|| child.name.clone(), |plugin| plugin.name().to_string());
            let built = build_layout(binder, child);
            shown_layout = layout_to_string(built.as_ref(), &element);
            layout = Some(built);
        } else {
            binder.refuse_child(&mut node, child);
        }
    }
    // The builder's fields in its order.
    let literal = binder.string(&mut node, &["literal"]);
    let name = binder.string(&mut node, &["name"]);
    let parameter = binder.string(&mut node, &["parameter"]);
    let pattern = binder.string(&mut node, &["pattern"]);
    // `source` names a MapMessage's key; l4rs messages are never MapMessages.
    let source = binder.string(&mut node, &["source"]);
    let type_position = node.attr_position(&["type"]);
    let column_type = match binder.string(&mut node, &["type"]) {
        None => ColumnType::string(),
        Some(text) => column_type(&text).unwrap_or_else(|| {
            // A value the converter refuses leaves the field's default, String.
            binder.report(
                Severity::Warning,
                format!("Error while converting string [{text}] to type [class java.lang.Class]. Using default value [null]. java.lang.ClassNotFoundException: {text}"),
                Some(&node),
                type_position,
                Some(format!("attribute type of {}: a class log4j2 cannot load without the application's classes, so it keeps java.lang.String, as l4rs does; l4rs binds {BINDABLE}", node.name)),
            );
            ColumnType::string()
        }),
    };
    let Some(name) = name.clone().filter(|name| !name.is_empty()) else {
        binder.invalid_arguments(
            &node,
            COLUMN_MAPPING_CLASS,
            &[MissingField::attribute("name", "No column name provided").given_as(&name)],
        );
        return Built::Null;
    };
    binder.finish(&node, inserted);
    // `ColumnMapping.Builder.build()`: a pattern replaces the layout child.
    if let Some(pattern) = &pattern {
        layout = Some(Some(pattern_layout(pattern.clone())));
        shown_layout = pattern.clone();
    }
    // log4j2's check fires only when a layout AND a literal are given, whatever its message
    // says (the mapping itself is not printed: the message has one placeholder).
    if layout.is_some() && literal.is_some() && !column_type.either_value {
        binder.error_help(
            &node,
            format!("No 'layout' or 'literal' value specified and type ({}) is not compatible with ThreadContextMap, ThreadContextStack, or java.util.Date for the mapping", column_type.shown),
            format!("give <{} name=\"{name}\"> a pattern (or layout) or a literal, not both; the column is left out", node.name),
        );
        return Built::Null;
    }
    if literal.is_some() && parameter.is_some() {
        let java = |value: &Option<String>| value.clone().unwrap_or_else(|| "null".to_string());
        binder.error_help(
            &node,
            format!(
                "Only one of 'literal' or 'parameter' can be set on the column mapping Builder [name={name}, source={}, literal={}, parameter={}, pattern={}, type={}, layout={shown_layout}]",
                java(&source),
                java(&literal),
                java(&parameter),
                java(&pattern),
                column_type.shown,
            ),
            format!("keep literal=\"…\" or parameter=\"…\" on <{} name=\"{name}\">; the column is left out", node.name),
        );
        return Built::Null;
    }
    // What log4j2's statement and `writeInternal` do with the mapping: a non-empty literal is
    // written into the statement, else the parameter, else `?`.
    let literal = literal.filter(|literal| !literal.is_empty());
    let parameter = parameter.filter(|parameter| !parameter.is_empty());
    let value = match column_type.uses {
        TypeUse::ContextMap | TypeUse::ContextStack => {
            let (what, pattern, text) = if column_type.uses == TypeUse::ContextMap {
                ("context map as a Java Map", "%X", "the context map")
            } else {
                ("context stack as a Java List", "%x", "the context stack")
            };
            binder.error_help(
                &node,
                format!(
                    "{} {name} of type {} binds the event's {what}, which the SQLite and PostgreSQL drivers l4rs uses cannot store",
                    node.name,
                    type_name(&column_type)
                ),
                format!("use pattern=\"{pattern}\" to store {text} as text, and leave out type; the JDBC appender is not created"),
            );
            return Built::Refused;
        }
        // log4j2 also binds the type's value (a timestamp) for a literal mapping of a Date
        // type, to a parameter the statement does not have, which fails every insert; the
        // literal is what such a configuration means.
        _ if literal.is_some() => JdbcColumnValue::Literal(literal.unwrap_or_default()),
        TypeUse::Timestamp => JdbcColumnValue::EventTimestamp { parameter },
        TypeUse::Unsupported => {
            binder.error_help(
                &node,
                format!(
                    "{} {name}: l4rs cannot bind a column of type {}",
                    node.name,
                    type_name(&column_type)
                ),
                format!("use a type l4rs binds: {BINDABLE}; the JDBC appender is not created"),
            );
            return Built::Refused;
        }
        TypeUse::Text(binding) => match layout {
            Some(Some(layout)) => JdbcColumnValue::Text {
                layout,
                binding,
                parameter,
            },
            Some(None) => {
                binder.error_help(
                    &node,
                    format!("{} {name} has no layout l4rs implements", node.name),
                    "give it a pattern=\"…\" or a layout l4rs implements; the JDBC appender is not created",
                );
                return Built::Refused;
            }
            None => {
                let key = source
                    .filter(|source| !source.is_empty())
                    .unwrap_or_else(|| name.clone());
                binder.report(
                    Severity::Warning,
                    format!("{} {name} has no pattern, layout or literal: log4j2 fills it from the value \"{key}\" of a MapMessage, and l4rs messages are never MapMessages, so the column is always NULL", node.name),
                    Some(&node),
                    None,
                    Some(format!("add pattern=\"…\" (e.g. pattern=\"%X{{{key}}}\" for a context value) or literal=\"…\" to <{} name=\"{name}\">", node.name)),
                );
                JdbcColumnValue::MapMessageValue { parameter }
            }
        },
    };
    Built::Part(JdbcColumnSpec { name, value })
}

/// The class name of a type as written (`Class.toString()` without `class `/`interface `).
fn type_name(column_type: &ColumnType) -> &str {
    column_type
        .shown
        .strip_prefix("class ")
        .or_else(|| column_type.shown.strip_prefix("interface "))
        .unwrap_or(&column_type.shown)
}

/// A layout as log4j2's `toString()` prints it in a ColumnMapping builder: a PatternLayout is
/// its pattern; another layout (`element`) is Java's `Object.toString()`, whose hash code l4rs
/// cannot know, so only the class is printed.
fn layout_to_string(layout: Option<&LayoutSpec>, element: &str) -> String {
    match layout {
        Some(LayoutSpec::Pattern(spec)) => spec.pattern.clone(),
        _ => format!("org.apache.logging.log4j.core.layout.{element}"),
    }
}

/// The `connectionSource` child of a `<JDBC>`.
fn build_connection_source(binder: &mut Binder, node: PNode) -> Built<JdbcConnectionSpec> {
    match node.canonical {
        Some(Plugin::DataSource) => data_source(binder, node),
        Some(Plugin::ConnectionFactory) => connection_factory(binder, node),
        _ => driver_manager(binder, node),
    }
}

/// `<DriverManager>` or `<PoolingDriver>` (log4j2's `AbstractDriverManagerConnectionSource`
/// builders) with their `<Property>` children.
fn driver_manager(binder: &mut Binder, mut node: PNode) -> Built<JdbcConnectionSpec> {
    let pooling = node.canonical == Some(Plugin::PoolingDriver);
    let inserted = node.attrs.len();
    let mut given_properties: Vec<(String, String)> = Vec::new();
    let mut failed_properties = Vec::new();
    let mut factory_seen = false;
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::Property) {
            if let Some(pair) = binder.build_child(child, &mut failed_properties, property) {
                given_properties.push(pair);
            }
        } else if pooling
            && child.canonical == Some(Plugin::PoolableConnectionFactory)
            && !factory_seen
        {
            // The pool's settings: l4rs keeps one connection per appender, no pool.
            factory_seen = true;
            poolable_connection_factory(binder, child);
        } else {
            binder.refuse_child(&mut node, child);
        }
    }
    // PoolingDriver's own fields first, then the shared builder's, in their order.
    let pool_name = if pooling {
        binder
            .string(&mut node, &["poolName"])
            .unwrap_or_else(|| "example".to_string())
    } else {
        String::new()
    };
    let connection_string = binder.string(&mut node, &["connectionString"]);
    let driver_class_name = binder.string(&mut node, &["driverClassName"]);
    let password = binder.string(&mut node, &["password"]);
    binder.null_children(&node, &failed_properties);
    let user_name = binder.string(&mut node, &["userName"]);
    let class = if pooling {
        POOLING_DRIVER_CLASS
    } else {
        DRIVER_MANAGER_CLASS
    };
    let Some(connection_string) = connection_string.clone().filter(|text| !text.is_empty()) else {
        binder.invalid_arguments(
            &node,
            class,
            &[MissingField::attribute(
                "connectionString",
                "The parameter is null: connectionString",
            )
            .given_as(&connection_string)
            .added_as("connectionString=\"jdbc:sqlite:…\"")],
        );
        return Built::Null;
    };
    binder.finish(&node, inserted);
    if !given_properties.is_empty() && (user_name.is_some() || password.is_some()) {
        if pooling {
            // PoolingDriver sets up its pool when it is built, and fails then; log4j2 prints
            // the properties with their values, which l4rs does not (they often hold the
            // password).
            let properties: Vec<String> = given_properties
                .iter()
                .map(|(name, _)| format!("{name}=***"))
                .collect();
            let user = user_name.as_deref().map_or("null".to_string(), java_chars);
            binder.error_help(
                &node,
                format!(
                    "Exception constructing class {POOLING_DRIVER_CLASS} to '{connection_string}' with Builder [poolName={pool_name}, connectionString={connection_string}, driverClassName={}, properties=[{}], userName={user}] java.sql.SQLException: {USER_AND_PROPERTIES}",
                    driver_class_name.as_deref().unwrap_or("null"),
                    properties.join(", "),
                ),
                "give userName and password as attributes or as <Property> children, not both; the JDBC appender is not created",
            );
            return Built::Null;
        }
        // log4j2 builds the source and fails every connection with this message when the
        // appender starts, and again at each reconnection; l4rs says it when loading, and does
        // not create an appender that could never connect.
        binder.error_help(
            &node,
            USER_AND_PROPERTIES,
            "give userName and password as attributes or as <Property> children, not both (log4j2 fails every connection with this message); the JDBC appender is not created",
        );
        return Built::Refused;
    }
    // `java.util.Properties.setProperty` in order: a later value of a name wins.
    let mut properties: Vec<(String, String)> = Vec::new();
    for (name, value) in given_properties {
        properties.retain(|(existing, _)| *existing != name);
        properties.push((name, value));
    }
    Built::Part(JdbcConnectionSpec {
        connection_string,
        user_name,
        password,
        driver_class_name,
        properties,
        element: node
            .canonical
            .map_or_else(|| node.name.clone(), |plugin| plugin.name().to_string()),
    })
}

/// Java's `Arrays.toString(char[])`: `[s, a]`.
fn java_chars(text: &str) -> String {
    let chars: Vec<String> = text.chars().map(String::from).collect();
    format!("[{}]", chars.join(", "))
}

/// `<PoolableConnectionFactory>` (log4j-jdbc-dbcp2's PoolableConnectionFactoryConfig): its
/// attributes are read for log4j2's conversion messages and not kept.
fn poolable_connection_factory(binder: &mut Binder, mut node: PNode) {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let _ = binder.boolean(&mut node, &["cacheState"], false);
    // `Boolean` and `String` fields: every text converts.
    let _ = binder.string(&mut node, &["defaultAutoCommit"]);
    let _ = binder.string(&mut node, &["defaultCatalog"]);
    boxed_integer(binder, &mut node, "defaultQueryTimeoutSeconds");
    let _ = binder.string(&mut node, &["defaultReadOnly"]);
    let _ = binder.int(&mut node, &["defaultTransactionIsolation"]);
    let _ = binder.boolean(&mut node, &["autoCommitOnReturn"], true);
    let _ = binder.boolean(&mut node, &["fastFailValidation"], true);
    let _ = binder.long(&mut node, &["maxConnLifetimeMillis"]);
    let _ = binder.int(&mut node, &["maxOpenPreparedStatements"]);
    let _ = binder.boolean(&mut node, &["poolStatements"], false);
    let _ = binder.boolean(&mut node, &["rollbackOnReturn"], true);
    let _ = binder.string(&mut node, &["validationQuery"]);
    let _ = binder.int(&mut node, &["validationQueryTimeoutSeconds"]);
    binder.finish(&node, inserted);
}

/// A `java.lang.Integer` attribute: [`Binder::int`]'s rules, with the boxed type (and the
/// field's default, which log4j2 prints as `null` for a builder attribute) in the warning.
fn boxed_integer(binder: &mut Binder, node: &mut PNode, attribute: &str) {
    let Some(attr) = node.take(&[attribute]) else {
        return;
    };
    let value = binder.substitute(&attr.value, node, attr.position);
    let valid = super::binder::parse_java_integer(&value)
        .and_then(|number| i32::try_from(number).ok())
        .is_some();
    if !valid {
        binder.report(
            Severity::Warning,
            format!("Error while converting string [{value}] to type [class java.lang.Integer]. Using default value [null]. java.lang.NumberFormatException: For input string: \"{value}\""),
            Some(node),
            Some(attr.position),
            Some(format!(
                "attribute {} of {}: expected an integer from {} to {}",
                attr.name,
                node.name,
                i32::MIN,
                i32::MAX
            )),
        );
    }
}

/// `<DataSource jndiName>`: log4j2 2.19 looks the source up in JNDI only with
/// `log4j2.enableJndiJdbc=true`, and says so otherwise; l4rs has no JNDI.
fn data_source(binder: &mut Binder, mut node: PNode) -> Built<JdbcConnectionSpec> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let _ = binder.string(&mut node, &["jndiName"]);
    // A factory method: the leftovers are reported before it runs.
    binder.finish(&node, inserted);
    binder.error_help(
        &node,
        "JNDI must be enabled by setting log4j2.enableJndiJdbc=true",
        format!(
            "l4rs has no JNDI: replace <{}> with {USE_DRIVER_MANAGER}",
            node.name
        ),
    );
    Built::Null
}

/// `<ConnectionFactory class method>`: log4j2 calls a static Java method for each connection;
/// l4rs runs no Java, so the class is never found, as log4j2 reports a missing class.
fn connection_factory(binder: &mut Binder, mut node: PNode) -> Built<JdbcConnectionSpec> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let class = binder.string(&mut node, &["class"]);
    let method = binder.string(&mut node, &["method"]);
    binder.finish(&node, inserted);
    let help = format!(
        "l4rs cannot call Java code: replace <{}> with {USE_DRIVER_MANAGER}",
        node.name
    );
    match (class, method) {
        (Some(class), Some(method)) if !class.is_empty() && !method.is_empty() => {
            // `LOGGER.error(e.toString(), e)`: the status line repeats the exception.
            let cause = format!("java.lang.ClassNotFoundException: {class}");
            binder.error_help(&node, format!("{cause} {cause}"), help);
        }
        _ => binder.error_help(
            &node,
            "No class name or method name specified for the connection factory method.",
            help,
        ),
    }
    Built::Null
}

#[cfg(test)]
mod tests {
    use crate::load::load_appenders as jdbc;
    use crate::model::{
        AppenderKind, JavaNumber, JdbcColumnValue, JdbcConnectionSpec, JdbcSpec, JdbcTextBinding,
        LayoutSpec,
    };
    use crate::Severity;

    /// The spec of the only appender, which must be a JDBC one.
    fn jdbc_spec(configuration: &crate::Configuration) -> &JdbcSpec {
        match &configuration.appenders[..] {
            [appender] => match &appender.kind {
                AppenderKind::Jdbc(spec) => spec,
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
    }

    fn pattern_of(value: &JdbcColumnValue) -> (&str, bool, JdbcTextBinding) {
        match value {
            JdbcColumnValue::Text {
                layout: LayoutSpec::Pattern(spec),
                binding,
                ..
            } => (
                spec.pattern.as_str(),
                spec.always_write_exceptions,
                *binding,
            ),
            other => panic!("{other:?}"),
        }
    }

    const SOURCE: &str = r#"<DriverManager connectionString="jdbc:sqlite:/tmp/l.db"/>"#;

    #[test]
    fn attributes_round_trip_with_log4j2_defaults() {
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="db" tableName="logs">{SOURCE}<Column name="message" pattern="%m"/><Column name="trace" pattern="%ex" isClob="true"/></JDBC>"#
        ));
        assert!(messages.is_empty(), "{messages:?}");
        let appender = &configuration.appenders[0];
        assert!(appender.ignore_exceptions);
        assert!(appender.layout.is_none() && appender.filter.is_none());
        let spec = jdbc_spec(&configuration);
        assert_eq!(spec.table_name, "logs");
        assert_eq!(spec.buffer_size, 0);
        assert_eq!(spec.reconnect_interval_millis, 5000);
        assert!(!spec.immediate_fail && spec.truncate_strings);
        assert_eq!(
            spec.connection,
            JdbcConnectionSpec {
                connection_string: "jdbc:sqlite:/tmp/l.db".to_string(),
                user_name: None,
                password: None,
                driver_class_name: None,
                properties: Vec::new(),
                element: "DriverManager".to_string(),
            }
        );
        assert_eq!(spec.columns.len(), 2);
        assert_eq!(spec.columns[0].name, "message");
        // A column's pattern never appends the exception.
        assert_eq!(
            pattern_of(&spec.columns[0].value),
            ("%m", false, JdbcTextBinding::Text)
        );
        // `isClob` keeps the text from `truncateStrings`, as log4j2 hands a CLOB over uncut.
        assert_eq!(
            pattern_of(&spec.columns[1].value),
            ("%ex", false, JdbcTextBinding::Clob)
        );

        let (configuration, messages) = jdbc(
            r#"<Jdbc name="db" tableName="t" bufferSize="10" immediateFail="true" truncateStrings="false" reconnectIntervalMillis="-1" ignoreExceptions="false">
                 <PatternLayout pattern="%m"/>
                 <ThresholdFilter level="warn"/>
                 <Property name="ignored" value="1"/>
                 <driverManager connectionString="jdbc:postgresql://db/logs" userName="app" password="hunter2" driverClassName="org.postgresql.Driver"/>
                 <Column name="when" isEventTimestamp="true"/>
                 <Column name="id" literal="nextval('ids')" isUnicode="false" isClob="true"/>
               </Jdbc>"#,
        );
        assert!(messages.is_empty(), "{messages:?}");
        let appender = &configuration.appenders[0];
        assert!(!appender.ignore_exceptions && appender.filter.is_some());
        // The layout serves MapMessages only.
        assert!(appender.layout.is_none());
        let spec = jdbc_spec(&configuration);
        assert_eq!(spec.buffer_size, 10);
        assert_eq!(spec.reconnect_interval_millis, -1);
        assert!(spec.immediate_fail && !spec.truncate_strings);
        assert_eq!(spec.connection.user_name.as_deref(), Some("app"));
        assert_eq!(spec.connection.password.as_deref(), Some("hunter2"));
        assert_eq!(
            spec.connection.driver_class_name.as_deref(),
            Some("org.postgresql.Driver")
        );
        assert_eq!(spec.connection.element, "DriverManager");
        assert!(matches!(
            spec.columns[0].value,
            JdbcColumnValue::EventTimestamp { parameter: None }
        ));
        assert!(
            matches!(&spec.columns[1].value, JdbcColumnValue::Literal(sql) if sql == "nextval('ids')")
        );
    }

    #[test]
    fn a_negative_buffer_size_is_unbuffered_or_java_s_illegal_capacity() {
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="db" tableName="t" bufferSize="-1">{SOURCE}<Column name="m" pattern="%m"/></JDBC>"#
        ));
        assert!(messages.is_empty(), "{messages:?}");
        assert_eq!(jdbc_spec(&configuration).buffer_size, 0);
        // `new ArrayList<>(bufferSize + 1)`.
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="db" tableName="t" bufferSize="-5">{SOURCE}<Column name="m" pattern="%m"/></JDBC>"#
        ));
        assert!(configuration.appenders.is_empty());
        assert_eq!(
            messages,
            [
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender for element JDBC: java.lang.IllegalArgumentException: Illegal Capacity: -4 java.lang.IllegalArgumentException: Illegal Capacity: -4",
                "Unable to invoke factory method in class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender for element JDBC: java.lang.IllegalStateException: No factory method found for class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender java.lang.IllegalStateException: No factory method found for class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender",
                "Null object returned for JDBC in Appenders.",
            ]
        );
    }

    #[test]
    fn missing_required_attributes_are_log4j2s_invalid_arguments() {
        let (configuration, messages) = jdbc(r#"<JDBC tableName="t"/>"#);
        assert!(configuration.appenders.is_empty());
        assert_eq!(
            messages,
            [
                "No ConnectionSource provided",
                "No appender name provided",
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender for element JDBC org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element JDBC are invalid: field 'connectionSource' has invalid value 'null', field 'name' has invalid value 'null'",
                "Null object returned for JDBC in Appenders.",
            ]
        );
        let (_, messages) = jdbc(r#"<JDBC name="j"><Column name="m" pattern="%m"/></JDBC>"#);
        assert_eq!(
            messages,
            [
                "No ConnectionSource provided",
                "No table name provided",
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender for element JDBC org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element JDBC are invalid: field 'connectionSource' has invalid value 'null', field 'tableName' has invalid value 'null'",
                "Null object returned for JDBC in Appenders.",
            ]
        );
        // Empty texts are refused as missing ones, and printed as they are.
        let (_, messages) = jdbc(
            r#"<JDBC name="" tableName=""><DriverManager connectionString=""/><Column name="m" pattern="%m"/></JDBC>"#,
        );
        assert_eq!(
            messages,
            [
                "The parameter is null: connectionString",
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.DriverManagerConnectionSource for element DriverManager org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element DriverManager are invalid: field 'connectionString' has invalid value ''",
                "No ConnectionSource provided",
                "No table name provided",
                "No appender name provided",
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender for element JDBC org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element JDBC are invalid: field 'connectionSource' has invalid value 'null', field 'tableName' has invalid value '', field 'name' has invalid value ''",
                "Null object returned for JDBC in Appenders.",
            ]
        );
    }

    #[test]
    fn without_columns_the_appender_is_not_created() {
        let (configuration, messages) =
            jdbc(&format!(r#"<JDBC name="j" tableName="t">{SOURCE}</JDBC>"#));
        assert!(configuration.appenders.is_empty());
        assert_eq!(
            messages,
            [
                "Cannot create JdbcAppender without any columns.",
                "Null object returned for JDBC in Appenders.",
            ]
        );
    }

    #[test]
    fn invalid_columns_are_left_out_as_log4j2_leaves_them_out() {
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="j" tableName="t">{SOURCE}<Column pattern="%m"/><Column name="" pattern="%m"/><Column name="a" pattern="%m" literal="x"/><Column name="b"/><Column name="c" pattern="" literal="" isEventTimestamp="false"/><Column name="d" pattern="%m" isEventTimestamp="true"/><Column name="kept" pattern="%p"/></JDBC>"#
        ));
        assert_eq!(
            messages,
            [
                "No name provided",
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.ColumnConfig for element Column org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element Column are invalid: field 'name' has invalid value 'null'",
                "No name provided",
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.ColumnConfig for element Column org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element Column are invalid: field 'name' has invalid value ''",
                "The pattern, literal, and isEventTimestamp attributes are mutually exclusive.",
                "To configure a column you must specify a pattern or literal or set isEventDate to true.",
                "To configure a column you must specify a pattern or literal or set isEventDate to true.",
                "The pattern, literal, and isEventTimestamp attributes are mutually exclusive.",
                "Null object returned for Column in JDBC.",
                "Null object returned for Column in JDBC.",
                "Null object returned for Column in JDBC.",
                "Null object returned for Column in JDBC.",
                "Null object returned for Column in JDBC.",
                "Null object returned for Column in JDBC.",
            ]
        );
        let spec = jdbc_spec(&configuration);
        assert_eq!(spec.columns.len(), 1);
        assert_eq!(spec.columns[0].name, "kept");
        // When none is left, there are no columns.
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="j" tableName="t">{SOURCE}<Column name="b"/></JDBC>"#
        ));
        assert!(configuration.appenders.is_empty());
        assert_eq!(
            messages[1..],
            [
                "Null object returned for Column in JDBC.",
                "Cannot create JdbcAppender without any columns.",
                "Null object returned for JDBC in Appenders.",
            ]
        );
    }

    #[test]
    fn mappings_come_before_columns_each_in_document_order() {
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="j" tableName="t"><Column name="c1" pattern="%m"/><ColumnMapping name="m1" pattern="%p"/>{SOURCE}<Column name="c2" literal="1"/><ColumnMapping name="m2" literal="2"/></JDBC>"#
        ));
        assert!(messages.is_empty(), "{messages:?}");
        let names: Vec<&str> = jdbc_spec(&configuration)
            .columns
            .iter()
            .map(|column| column.name.as_str())
            .collect();
        assert_eq!(names, ["m1", "m2", "c1", "c2"]);
    }

    #[test]
    fn number_mappings_keep_their_java_class() {
        let types = [
            ("java.lang.Integer", JavaNumber::Integer),
            ("int", JavaNumber::Integer),
            ("java.lang.Long", JavaNumber::Long),
            ("LONG", JavaNumber::Long),
            ("java.lang.Short", JavaNumber::Short),
            ("short", JavaNumber::Short),
            ("java.lang.Byte", JavaNumber::Byte),
            ("byte", JavaNumber::Byte),
            ("java.math.BigInteger", JavaNumber::BigInteger),
            ("java.lang.Double", JavaNumber::Double),
            ("double", JavaNumber::Double),
            ("java.lang.Float", JavaNumber::Float),
            ("Float", JavaNumber::Float),
            ("java.math.BigDecimal", JavaNumber::BigDecimal),
        ];
        let mappings: String = types
            .iter()
            .enumerate()
            .map(|(index, (class, _))| {
                format!(r#"<ColumnMapping name="c{index}" pattern="%X{{n}}" type="{class}"/>"#)
            })
            .collect();
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="j" tableName="t">{SOURCE}{mappings}</JDBC>"#
        ));
        assert!(messages.is_empty(), "{messages:?}");
        let columns = &jdbc_spec(&configuration).columns;
        let bindings: Vec<JdbcTextBinding> = columns
            .iter()
            .map(|column| pattern_of(&column.value).2)
            .collect();
        let expected: Vec<JdbcTextBinding> = types
            .iter()
            .map(|(_, class)| JdbcTextBinding::Number(*class))
            .collect();
        assert_eq!(bindings, expected);
        assert_eq!(JavaNumber::BigDecimal.class_name(), "java.math.BigDecimal");
        assert_eq!(JavaNumber::Byte.class_name(), "java.lang.Byte");
    }

    #[test]
    fn column_mappings_bind_by_their_type() {
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="j" tableName="t">{SOURCE}
                 <ColumnMapping name="text" pattern="%m" parameter="CAST(? AS json)"/>
                 <ColumnMapping name="clob" pattern="%m" type="java.sql.Clob"/>
                 <ColumnMapping name="int" pattern="%X{{n}}" type="java.lang.Long"/>
                 <ColumnMapping name="prim" pattern="%X{{n}}" type="INT"/>
                 <ColumnMapping name="real" pattern="%X{{r}}" type="java.math.BigDecimal"/>
                 <ColumnMapping name="bool" pattern="%X{{b}}" type="java.lang.Boolean"/>
                 <ColumnMapping name="when" type="java.sql.Timestamp" parameter=""/>
                 <ColumnMapping name="date" type="java.util.Date" pattern="%m"/>
                 <ColumnMapping name="lit" literal="CURRENT_TIMESTAMP" type="java.sql.Timestamp"/>
                 <ColumnMapping name="layout"><PatternLayout pattern="%c"/></ColumnMapping>
                 <ColumnMapping name="both" pattern="%p"><PatternLayout pattern="%c"/></ColumnMapping>
                 <ColumnMapping name="map" source="key"/>
               </JDBC>"#
        ));
        assert_eq!(
            messages,
            ["ColumnMapping map has no pattern, layout or literal: log4j2 fills it from the value \"key\" of a MapMessage, and l4rs messages are never MapMessages, so the column is always NULL"]
        );
        assert_eq!(configuration.diagnostics[0].severity, Severity::Warning);
        let columns = &jdbc_spec(&configuration).columns;
        let (pattern, exceptions, binding) = pattern_of(&columns[0].value);
        assert_eq!(
            (pattern, exceptions, binding),
            ("%m", false, JdbcTextBinding::Text)
        );
        assert!(matches!(
            &columns[0].value,
            JdbcColumnValue::Text { parameter: Some(parameter), .. } if parameter == "CAST(? AS json)"
        ));
        assert_eq!(pattern_of(&columns[1].value).2, JdbcTextBinding::Clob);
        assert_eq!(
            pattern_of(&columns[2].value).2,
            JdbcTextBinding::Number(JavaNumber::Long)
        );
        assert_eq!(
            pattern_of(&columns[3].value).2,
            JdbcTextBinding::Number(JavaNumber::Integer)
        );
        assert_eq!(
            pattern_of(&columns[4].value).2,
            JdbcTextBinding::Number(JavaNumber::BigDecimal)
        );
        assert_eq!(pattern_of(&columns[5].value).2, JdbcTextBinding::Boolean);
        // An empty parameter is a plain `?`.
        assert!(matches!(
            columns[6].value,
            JdbcColumnValue::EventTimestamp { parameter: None }
        ));
        // A Date type takes the event's time, whatever the layout.
        assert!(matches!(
            columns[7].value,
            JdbcColumnValue::EventTimestamp { .. }
        ));
        assert!(
            matches!(&columns[8].value, JdbcColumnValue::Literal(sql) if sql == "CURRENT_TIMESTAMP")
        );
        assert_eq!(pattern_of(&columns[9].value).0, "%c");
        // `pattern` replaces the layout child.
        assert_eq!(pattern_of(&columns[10].value).0, "%p");
        assert!(matches!(
            columns[11].value,
            JdbcColumnValue::MapMessageValue { parameter: None }
        ));
    }

    #[test]
    fn column_mapping_checks_are_log4j2s_including_its_quirk() {
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="j" tableName="t">{SOURCE}<ColumnMapping name="a" pattern="%m" literal="x"/><ColumnMapping name="b" literal="x" parameter="?"/><ColumnMapping pattern="%m"/><ColumnMapping name="c" literal="" pattern="%m" type="java.sql.Clob"/><ColumnMapping name="d" type="java.sql.Date" literal="NOW()" parameter="?" pattern="%m"/><ColumnMapping name="e" type="org.apache.logging.log4j.spi.DefaultThreadContextMap" literal="NOW()" parameter="?"/><ColumnMapping name="f" type="java.sql.Timestamp" literal="x" parameter="?" source="s"><PatternLayout pattern="%c"/></ColumnMapping><ColumnMapping name="kept" literal="1"/></JDBC>"#
        ));
        assert_eq!(
            messages,
            [
                // It fires only when a layout and a literal are both given, whatever it says.
                "No 'layout' or 'literal' value specified and type (class java.lang.String) is not compatible with ThreadContextMap, ThreadContextStack, or java.util.Date for the mapping",
                "Only one of 'literal' or 'parameter' can be set on the column mapping Builder [name=b, source=null, literal=x, parameter=?, pattern=null, type=class java.lang.String, layout=null]",
                "No column name provided",
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.ColumnMapping for element ColumnMapping org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element ColumnMapping are invalid: field 'name' has invalid value 'null'",
                // An empty literal is a literal to the check.
                "No 'layout' or 'literal' value specified and type (interface java.sql.Clob) is not compatible with ThreadContextMap, ThreadContextStack, or java.util.Date for the mapping",
                "Only one of 'literal' or 'parameter' can be set on the column mapping Builder [name=d, source=null, literal=NOW(), parameter=?, pattern=%m, type=class java.sql.Date, layout=%m]",
                "Only one of 'literal' or 'parameter' can be set on the column mapping Builder [name=e, source=null, literal=NOW(), parameter=?, pattern=null, type=class org.apache.logging.log4j.spi.DefaultThreadContextMap, layout=null]",
                "Only one of 'literal' or 'parameter' can be set on the column mapping Builder [name=f, source=s, literal=x, parameter=?, pattern=null, type=class java.sql.Timestamp, layout=%c]",
                "Null object returned for ColumnMapping in JDBC.",
                "Null object returned for ColumnMapping in JDBC.",
                "Null object returned for ColumnMapping in JDBC.",
                "Null object returned for ColumnMapping in JDBC.",
                "Null object returned for ColumnMapping in JDBC.",
                "Null object returned for ColumnMapping in JDBC.",
                "Null object returned for ColumnMapping in JDBC.",
            ]
        );
        let columns = &jdbc_spec(&configuration).columns;
        assert_eq!(columns.len(), 1);
        assert_eq!(columns[0].name, "kept");
    }

    #[test]
    fn a_type_log4j2_cannot_load_keeps_string() {
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="j" tableName="t">{SOURCE}<ColumnMapping name="a" type="com.example.Nope" pattern="%m"/><ColumnMapping name="b" type="" pattern="%m"/></JDBC>"#
        ));
        assert_eq!(
            messages,
            [
                "Error while converting string [com.example.Nope] to type [class java.lang.Class]. Using default value [null]. java.lang.ClassNotFoundException: com.example.Nope",
                "Error while converting string [] to type [class java.lang.Class]. Using default value [null]. java.lang.ClassNotFoundException: ",
            ]
        );
        assert!(configuration
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Warning));
        for column in &jdbc_spec(&configuration).columns {
            assert_eq!(pattern_of(&column.value).2, JdbcTextBinding::Text);
        }
    }

    #[test]
    fn context_map_and_stack_types_and_unbindable_types_are_refused() {
        for (mapping, message) in [
            (
                r#"<ColumnMapping name="ctx" type="org.apache.logging.log4j.spi.ThreadContextMap"/>"#,
                "ColumnMapping ctx of type org.apache.logging.log4j.spi.ThreadContextMap binds the event's context map as a Java Map, which the SQLite and PostgreSQL drivers l4rs uses cannot store",
            ),
            (
                r#"<ColumnMapping name="ctx" type="org.apache.logging.log4j.util.ReadOnlyStringMap" literal="x" pattern="%m"/>"#,
                "ColumnMapping ctx of type org.apache.logging.log4j.util.ReadOnlyStringMap binds the event's context map as a Java Map, which the SQLite and PostgreSQL drivers l4rs uses cannot store",
            ),
            (
                r#"<ColumnMapping name="ndc" type="org.apache.logging.log4j.spi.ThreadContextStack"/>"#,
                "ColumnMapping ndc of type org.apache.logging.log4j.spi.ThreadContextStack binds the event's context stack as a Java List, which the SQLite and PostgreSQL drivers l4rs uses cannot store",
            ),
            (
                r#"<ColumnMapping name="ndc" type="org.apache.logging.log4j.ThreadContext$ContextStack"/>"#,
                "ColumnMapping ndc of type org.apache.logging.log4j.ThreadContext$ContextStack binds the event's context stack as a Java List, which the SQLite and PostgreSQL drivers l4rs uses cannot store",
            ),
            (
                r#"<ColumnMapping name="id" type="java.util.UUID" pattern="%X{id}"/>"#,
                "ColumnMapping id: l4rs cannot bind a column of type java.util.UUID",
            ),
        ] {
            let (configuration, messages) = jdbc(&format!(
                r#"<JDBC name="j" tableName="t">{SOURCE}{mapping}<Column name="m" pattern="%m"/></JDBC>"#
            ));
            assert!(configuration.appenders.is_empty(), "{mapping}");
            assert_eq!(
                messages,
                [message, "Null object returned for JDBC in Appenders."],
                "{mapping}"
            );
            let help = configuration.diagnostics[0].help.as_deref().unwrap();
            assert!(help.ends_with("the JDBC appender is not created"), "{help}");
        }
        let (configuration, _) = jdbc(&format!(
            r#"<JDBC name="j" tableName="t">{SOURCE}<ColumnMapping name="ctx" type="org.apache.logging.log4j.spi.ThreadContextMap"/></JDBC>"#
        ));
        let help = configuration.diagnostics[0].help.as_deref().unwrap();
        assert!(help.starts_with("use pattern=\"%X\""), "{help}");
    }

    #[test]
    fn data_source_and_connection_factory_are_refused_as_log4j2_refuses_them() {
        let invalid = [
            "No ConnectionSource provided",
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender for element JDBC org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element JDBC are invalid: field 'connectionSource' has invalid value 'null'",
            "Null object returned for JDBC in Appenders.",
        ];
        for (source, first) in [
            (
                r#"<DataSource jndiName="java:/comp/env/jdbc/logs"/>"#,
                "JNDI must be enabled by setting log4j2.enableJndiJdbc=true",
            ),
            (
                r#"<ConnectionFactory class="com.example.Db" method="connect"/>"#,
                "java.lang.ClassNotFoundException: com.example.Db java.lang.ClassNotFoundException: com.example.Db",
            ),
            (
                r#"<ConnectionFactory class="" method="connect"/>"#,
                "No class name or method name specified for the connection factory method.",
            ),
        ] {
            let (configuration, messages) = jdbc(&format!(
                r#"<JDBC name="j" tableName="t">{source}<Column name="m" pattern="%m"/></JDBC>"#
            ));
            assert!(configuration.appenders.is_empty());
            let mut expected = vec![first];
            expected.extend(invalid);
            assert_eq!(messages, expected, "{source}");
            let help = configuration.diagnostics[0].help.as_deref().unwrap();
            assert!(help.contains("<DriverManager connectionString=\"jdbc:sqlite:"), "{help}");
        }
        // Leftovers are reported before the factory runs.
        let (_, messages) = jdbc(
            r#"<JDBC name="j" tableName="t"><DataSource jndiName="x" bogus="y"/><Column name="m" pattern="%m"/></JDBC>"#,
        );
        assert_eq!(
            messages[..2],
            [
                "DataSource contains an invalid element or attribute \"bogus\"",
                "JNDI must be enabled by setting log4j2.enableJndiJdbc=true",
            ]
        );
    }

    #[test]
    fn driver_properties_are_kept_and_refused_with_a_user() {
        let (configuration, messages) = jdbc(
            r#"<JDBC name="j" tableName="t"><DriverManager connectionString="jdbc:postgresql://db/x"><Property name="user" value="app"/><Property name="password" value="hunter2"/><Property name="user" value="other"/></DriverManager><Column name="m" pattern="%m"/></JDBC>"#,
        );
        assert!(messages.is_empty(), "{messages:?}");
        assert_eq!(
            jdbc_spec(&configuration).connection.properties,
            [
                ("password".to_string(), "hunter2".to_string()),
                ("user".to_string(), "other".to_string()),
            ]
        );
        let printed = format!("{:?}", configuration.appenders);
        assert!(!printed.contains("hunter2"), "{printed}");

        // Nor in the URL, in a parameter or a user-information part.
        let (configuration, _) = jdbc(
            r#"<JDBC name="j" tableName="t"><DriverManager connectionString="jdbc:postgresql://app:s3cret@db/x?password=hunter2"/><Column name="m" pattern="%m"/></JDBC>"#,
        );
        let printed = format!("{:?}", configuration.appenders);
        assert!(
            printed.contains("jdbc:postgresql://app:***@db/x?password=***"),
            "{printed}"
        );

        let (configuration, messages) = jdbc(
            r#"<JDBC name="j" tableName="t"><DriverManager connectionString="jdbc:sqlite:x" userName="u"><Property name="a" value="b"/></DriverManager><Column name="m" pattern="%m"/></JDBC>"#,
        );
        assert!(configuration.appenders.is_empty());
        assert_eq!(
            messages,
            [
                "Either set the userName and password, or set the Properties, but not both.",
                "Null object returned for JDBC in Appenders.",
            ]
        );
        // PoolingDriver fails when it is built, and log4j2 then has no connection source.
        let (configuration, messages) = jdbc(
            r#"<JDBC name="j" tableName="t"><PoolingDriver connectionString="jdbc:sqlite:x" userName="sa" password="pw"><Property name="a" value="secret"/><PoolableConnectionFactory poolStatements="true" validationQuery="select 1"/></PoolingDriver><Column name="m" pattern="%m"/></JDBC>"#,
        );
        assert!(configuration.appenders.is_empty());
        assert_eq!(
            messages,
            [
                "Exception constructing class org.apache.logging.log4j.core.appender.db.jdbc.PoolingDriverConnectionSource to 'jdbc:sqlite:x' with Builder [poolName=example, connectionString=jdbc:sqlite:x, driverClassName=null, properties=[a=***], userName=[s, a]] java.sql.SQLException: Either set the userName and password, or set the Properties, but not both.",
                "No ConnectionSource provided",
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender for element JDBC org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element JDBC are invalid: field 'connectionSource' has invalid value 'null'",
                "Null object returned for JDBC in Appenders.",
            ]
        );
    }

    #[test]
    fn pooling_driver_and_its_factory_are_accepted() {
        let (configuration, messages) = jdbc(
            r#"<JDBC name="j" tableName="t"><PoolingDriver connectionString="jdbc:sqlite:x" poolName="p" userName="sa" password="hunter2"><PoolableConnectionFactory maxOpenPreparedStatements="5" defaultQueryTimeoutSeconds="soon"/></PoolingDriver><Column name="m" pattern="%m"/></JDBC>"#,
        );
        assert_eq!(
            messages,
            ["Error while converting string [soon] to type [class java.lang.Integer]. Using default value [null]. java.lang.NumberFormatException: For input string: \"soon\""]
        );
        let connection = &jdbc_spec(&configuration).connection;
        assert_eq!(connection.element, "PoolingDriver");
        assert_eq!(connection.user_name.as_deref(), Some("sa"));
        let printed = format!("{configuration:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
    }

    #[test]
    fn a_missing_connection_string_is_the_builders_invalid_arguments() {
        let (_, messages) = jdbc(
            r#"<JDBC name="j" tableName="t"><DriverManager/><Column name="m" pattern="%m"/></JDBC>"#,
        );
        assert_eq!(
            messages[..2],
            [
                "The parameter is null: connectionString",
                "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.DriverManagerConnectionSource for element DriverManager org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element DriverManager are invalid: field 'connectionString' has invalid value 'null'",
            ]
        );
        let (_, messages) = jdbc(
            r#"<JDBC name="j" tableName="t"><PoolingDriver/><Column name="m" pattern="%m"/></JDBC>"#,
        );
        assert_eq!(
            messages[1],
            "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.PoolingDriverConnectionSource for element PoolingDriver org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element PoolingDriver are invalid: field 'connectionString' has invalid value 'null'"
        );
    }

    #[test]
    fn conversions_and_leftovers_are_reported_in_log4j2s_order() {
        let (configuration, messages) = jdbc(&format!(
            r#"<JDBC name="j" tableName="t" bufferSize="x" reconnectIntervalMillis="y">{SOURCE}<DriverManager connectionString="jdbc:sqlite:y"/><ColumnMapping name="a" pattern="%m"/><Column name="b" pattern="%m"><PatternLayout/></Column></JDBC>"#
        ));
        assert_eq!(
            messages,
            [
                "Column has no parameter that matches element PatternLayout",
                "Error while converting string [x] to type [int]. Using default value [null]. java.lang.NumberFormatException: For input string: \"x\"",
                "Error while converting string [y] to type [long]. Using default value [null]. java.lang.NumberFormatException: For input string: \"y\"",
                "appender JDBC has no parameter that matches element DriverManager",
            ]
        );
        let spec = jdbc_spec(&configuration);
        assert_eq!(
            (spec.buffer_size, spec.reconnect_interval_millis),
            (0, 5000)
        );
        assert_eq!(spec.connection.connection_string, "jdbc:sqlite:/tmp/l.db");
        // Every message names the element it is about.
        assert!(configuration
            .diagnostics
            .iter()
            .all(|d| d.position.is_some()));
    }
}
