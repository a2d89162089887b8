//! `<PatternLayout>` with its selectors and `<Replace>`, the Jackson layouts (`<JsonLayout>`,
//! `<XmlLayout>`, `<YamlLayout>`) with their `<KeyValuePair>` fields, `<SyslogLayout>`,
//! `<Rfc5424Layout>` and `<JsonTemplateLayout>` with its `<EventTemplateAdditionalField>`s.

use super::binder::Binder;
use super::node::PNode;
use super::scripts::{is_script, refuse, ScriptSlot, ScriptUser};
use crate::diagnostic::Severity;
use crate::model::{
    CsvLayoutKind, EventTemplateAdditionalField, HtmlLayoutSpec, JsonLayoutSpec,
    JsonTemplateLayoutSpec, LayoutSpec, LoggerFieldsSpec, PatternLayoutSpec, PatternSelectorKind,
    PatternSelectorSpec, ReplaceSpec, Rfc5424LayoutSpec, SyslogLayoutSpec, HTML_FONT_SIZES,
    SYSLOG_FACILITIES,
};
use crate::plugins::Plugin;

/// True when a child element occupies an appender's layout slot.
pub(crate) fn is_layout(node: &PNode) -> bool {
    node.name.to_ascii_lowercase().ends_with("layout")
}

/// Builds a layout element; `None` (after a diagnostic) for layouts l4rs does not implement.
pub(crate) fn build_layout(binder: &mut Binder, node: PNode) -> Option<LayoutSpec> {
    match node.canonical {
        Some(Plugin::PatternLayout) => {
            Some(LayoutSpec::Pattern(build_pattern_layout(binder, node)))
        }
        Some(Plugin::JsonLayout) => Some(LayoutSpec::Json(build_jackson_layout(
            binder,
            node,
            Jackson::Json,
        ))),
        Some(Plugin::XmlLayout) => Some(LayoutSpec::Xml(build_jackson_layout(
            binder,
            node,
            Jackson::Xml,
        ))),
        Some(Plugin::YamlLayout) => Some(LayoutSpec::Yaml(build_jackson_layout(
            binder,
            node,
            Jackson::Yaml,
        ))),
        Some(Plugin::SyslogLayout) => Some(LayoutSpec::Syslog(build_syslog_layout(binder, node))),
        Some(Plugin::Rfc5424Layout) => {
            Some(LayoutSpec::Rfc5424(build_rfc5424_layout(binder, node)))
        }
        Some(Plugin::GelfLayout) => {
            super::gelf_layout::build_gelf_layout(binder, node).map(LayoutSpec::Gelf)
        }
        Some(Plugin::CsvLogEventLayout) => {
            super::csv_layout::build_csv_layout(binder, node, CsvLayoutKind::LogEvent)
                .map(LayoutSpec::Csv)
        }
        Some(Plugin::CsvParameterLayout) => {
            super::csv_layout::build_csv_layout(binder, node, CsvLayoutKind::Parameter)
                .map(LayoutSpec::Csv)
        }
        Some(Plugin::HtmlLayout) => Some(LayoutSpec::Html(build_html_layout(binder, node))),
        Some(Plugin::JsonTemplateLayout) => Some(LayoutSpec::JsonTemplate(
            build_json_template_layout(binder, node),
        )),
        _ => {
            binder.unsupported(&node);
            None
        }
    }
}

fn build_pattern_layout(binder: &mut Binder, mut node: PNode) -> PatternLayoutSpec {
    let inserted = node.attrs.len();
    let defaults = PatternLayoutSpec::default();
    let mut selector = None;
    let mut selector_seen = false;
    let mut replace = None;
    let mut replace_seen = false;
    for child in std::mem::take(&mut node.children) {
        let lower = child.name.to_ascii_lowercase();
        if lower.ends_with("patternselector") && !selector_seen {
            selector_seen = true;
            selector = build_selector(binder, child);
        } else if child.canonical == Some(Plugin::Replace) && !replace_seen {
            replace_seen = true;
            replace = build_replace(binder, child);
        } else {
            node.refused.push(child);
        }
    }
    let spec = PatternLayoutSpec {
        pattern: binder
            .string(&mut node, &["pattern"])
            .unwrap_or(defaults.pattern),
        selector,
        replace,
        charset: binder.charset(&mut node, &["charset"]),
        always_write_exceptions: binder.boolean(&mut node, &["alwaysWriteExceptions"], true),
        disable_ansi: binder.boolean(&mut node, &["disableAnsi"], false),
        no_console_no_ansi: binder.boolean(&mut node, &["noConsoleNoAnsi"], false),
        header: binder.string(&mut node, &["header"]),
        footer: binder.string(&mut node, &["footer"]),
        // Both are known only once the loggers are built; the loader fills them in.
        ..defaults
    };
    binder.finish(&node, inserted);
    spec
}

/// Which of log4j2's `AbstractJacksonLayout` subclasses an element builds: they share one
/// builder, and each adds or drops a few attributes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Jackson {
    Json,
    Xml,
    Yaml,
}

/// `<JsonLayout>`, `<XmlLayout>`, `<YamlLayout>`: log4j2 2.24's attributes and defaults.
/// `propertiesAsList` and `objectMessageAsJsonObject` belong to JsonLayout's builder only, so
/// log4j2 reports them as invalid on the other two. `header`/`footer` are attributes of every
/// layout builder: YamlLayout writes them, JsonLayout and XmlLayout write their own and ignore
/// them silently, as log4j2 does.
fn build_jackson_layout(binder: &mut Binder, mut node: PNode, kind: Jackson) -> JsonLayoutSpec {
    let inserted = node.attrs.len();
    let defaults = JsonLayoutSpec::default();
    let mut additional_fields = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::KeyValuePair) {
            if let Some(pair) = build_key_value_pair(binder, child) {
                additional_fields.push(pair);
            }
        } else {
            node.refused.push(child);
        }
    }
    let json_only = |binder: &mut Binder, node: &mut PNode, name: &str, default: bool| {
        if kind == Jackson::Json {
            binder.boolean(node, &[name], default)
        } else {
            default
        }
    };
    let properties_as_list = json_only(
        binder,
        &mut node,
        "propertiesAsList",
        defaults.properties_as_list,
    );
    let object_message_as_json_object = json_only(
        binder,
        &mut node,
        "objectMessageAsJsonObject",
        defaults.object_message_as_json_object,
    );
    let spec = JsonLayoutSpec {
        location_info: binder.boolean(&mut node, &["locationInfo"], defaults.location_info),
        properties: binder.boolean(&mut node, &["properties"], defaults.properties),
        properties_as_list,
        complete: binder.boolean(&mut node, &["complete"], defaults.complete),
        compact: binder.boolean(&mut node, &["compact"], defaults.compact),
        // XmlLayout's builder has the attribute but its constructor drops it.
        event_eol: binder.boolean(&mut node, &["eventEol"], defaults.event_eol)
            && kind != Jackson::Xml,
        end_of_line: binder.string(&mut node, &["endOfLine"]),
        include_stacktrace: binder.boolean(
            &mut node,
            &["includeStacktrace"],
            defaults.include_stacktrace,
        ),
        stacktrace_as_string: binder.boolean(
            &mut node,
            &["stacktraceAsString"],
            defaults.stacktrace_as_string,
        ),
        include_null_delimiter: binder.boolean(
            &mut node,
            &["includeNullDelimiter"],
            defaults.include_null_delimiter,
        ),
        include_time_millis: binder.boolean(
            &mut node,
            &["includeTimeMillis"],
            defaults.include_time_millis,
        ),
        object_message_as_json_object,
        charset: binder.charset(&mut node, &["charset"]),
        additional_fields,
        header: binder.string(&mut node, &["header"]),
        footer: binder.string(&mut node, &["footer"]),
        // Both are known only once the loggers are built; the loader fills them in.
        ..defaults
    };
    if kind != Jackson::Json {
        report_json_only_attribute(binder, &mut node);
    }
    binder.finish(&node, inserted);
    spec
}

/// A JsonLayout-only attribute left alone on an XmlLayout or YamlLayout: log4j2's message,
/// with a help that says what to do instead of "check the spelling".
fn report_json_only_attribute(binder: &mut Binder, node: &mut PNode) {
    let [attr] = node.attrs.as_slice() else {
        return;
    };
    let fix = if attr.name.eq_ignore_ascii_case("propertiesAsList") {
        "the context map is always a list of <item key value> in XmlLayout and a mapping in YamlLayout"
    } else if attr.name.eq_ignore_ascii_case("objectMessageAsJsonObject") {
        "messages are always written as text"
    } else {
        return;
    };
    let attr = node.attrs.remove(0);
    binder.report(
        Severity::Error,
        format!(
            "{} contains an invalid element or attribute \"{}\"",
            node.name, attr.name
        ),
        Some(node),
        Some(attr.position),
        Some(format!(
            "{} is an attribute of JsonLayout only ({fix}); remove it",
            attr.name
        )),
    );
}

/// `<SyslogLayout>`: log4j2's attributes and defaults; an unknown facility warns and keeps
/// `LOCAL0`, as log4j2's enum conversion does.
fn build_syslog_layout(binder: &mut Binder, mut node: PNode) -> SyslogLayoutSpec {
    let inserted = node.attrs.len();
    let defaults = SyslogLayoutSpec::default();
    binder.refuse_children(&mut node);
    let facility = syslog_facility(binder, &mut node, defaults.facility);
    let spec = SyslogLayoutSpec {
        facility,
        new_line: binder.boolean(&mut node, &["newLine"], defaults.new_line),
        new_line_escape: binder.string(&mut node, &["newLineEscape"]),
        charset: binder.charset(&mut node, &["charset"]),
    };
    // Accepted by every log4j2 layout builder; SyslogLayout has no header or footer.
    let _ = binder.string(&mut node, &["header"]);
    let _ = binder.string(&mut node, &["footer"]);
    binder.finish(&node, inserted);
    spec
}

/// HtmlLayout's builder attributes (it takes no `header` or `footer`: its own are fixed).
fn build_html_layout(binder: &mut Binder, mut node: PNode) -> HtmlLayoutSpec {
    let inserted = node.attrs.len();
    let defaults = HtmlLayoutSpec::default();
    binder.refuse_children(&mut node);
    let constants: Vec<&str> = HTML_FONT_SIZES.iter().map(|(name, _)| *name).collect();
    let spec = HtmlLayoutSpec {
        location_info: binder.boolean(&mut node, &["locationInfo"], defaults.location_info),
        title: binder
            .string(&mut node, &["title"])
            .unwrap_or(defaults.title),
        content_type: binder.string(&mut node, &["contentType"]),
        charset: binder.charset(&mut node, &["charset"]),
        font_size: binder
            .enumeration(
                &mut node,
                &["fontSize"],
                "class org.apache.logging.log4j.core.layout.HtmlLayout$FontSize",
                &constants,
            )
            .unwrap_or(defaults.font_size),
        font_name: binder
            .string(&mut node, &["fontName"])
            .unwrap_or(defaults.font_name),
        date_pattern: binder
            .string(&mut node, &["datePattern"])
            .unwrap_or(defaults.date_pattern),
        timezone: binder.string(&mut node, &["timezone"]),
    };
    binder.finish(&node, inserted);
    spec
}

/// The facility attribute shared by the syslog layouts: an unknown name warns and keeps the
/// default, as log4j2's enum conversion does.
pub(crate) fn syslog_facility(binder: &mut Binder, node: &mut PNode, default: u8) -> u8 {
    binder
        .enumeration(
            node,
            &["facility"],
            "class org.apache.logging.log4j.core.net.Facility",
            &SYSLOG_FACILITIES,
        )
        .and_then(|code| u8::try_from(code).ok())
        .unwrap_or(default)
}

/// A comma-separated list attribute, each entry trimmed, empty entries dropped.
pub(crate) fn name_list(binder: &mut Binder, node: &mut PNode, names: &[&str]) -> Vec<String> {
    binder
        .string(node, names)
        .map(|list| {
            list.split(',')
                .map(str::trim)
                .filter(|entry| !entry.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// `<Rfc5424Layout>`: log4j2's factory attributes and defaults. Unlike the builder-based
/// layouts it has no `charset`, `header` or `footer`, so log4j2 reports them as invalid.
fn build_rfc5424_layout(binder: &mut Binder, mut node: PNode) -> Rfc5424LayoutSpec {
    let inserted = node.attrs.len();
    let defaults = Rfc5424LayoutSpec::default();
    let mut logger_fields = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::LoggerFields) {
            logger_fields.push(build_logger_fields(binder, child));
        } else {
            node.refused.push(child);
        }
    }
    let facility = syslog_facility(binder, &mut node, defaults.facility);
    let enterprise_number = match node.take(&["enterpriseNumber"]) {
        None => defaults.enterprise_number,
        Some(attr) => {
            let value = binder.substitute(&attr.value, &node, attr.position);
            match value.parse::<i32>() {
                Ok(number) => number,
                Err(_) => {
                    // log4j2's factory attribute has a default, which its warning names.
                    binder.report(
                        Severity::Warning,
                        format!("Error while converting string [{value}] to type [int]. Using default value [{}]. java.lang.NumberFormatException: For input string: \"{value}\"", defaults.enterprise_number),
                        Some(&node),
                        Some(attr.position),
                        Some("attribute enterpriseNumber of Rfc5424Layout: expected an integer".to_string()),
                    );
                    defaults.enterprise_number
                }
            }
        }
    };
    let mut spec = Rfc5424LayoutSpec {
        facility,
        id: binder.string(&mut node, &["id"]),
        enterprise_number,
        include_mdc: binder.boolean(&mut node, &["includeMDC"], defaults.include_mdc),
        mdc_id: binder
            .string(&mut node, &["mdcId"])
            .unwrap_or(defaults.mdc_id),
        mdc_prefix: binder.string(&mut node, &["mdcPrefix"]),
        event_prefix: binder.string(&mut node, &["eventPrefix"]),
        new_line: binder.boolean(&mut node, &["newLine"], defaults.new_line),
        new_line_escape: binder.string(&mut node, &["newLineEscape"]),
        app_name: binder.string(&mut node, &["appName"]),
        message_id: binder.string(&mut node, &["messageId"]),
        mdc_excludes: name_list(binder, &mut node, &["mdcExcludes"]),
        mdc_includes: name_list(binder, &mut node, &["mdcIncludes"]),
        mdc_required: name_list(binder, &mut node, &["mdcRequired"]),
        exception_pattern: binder.string(&mut node, &["exceptionPattern"]),
        use_tls_message_format: binder.boolean(
            &mut node,
            &["useTlsMessageFormat"],
            defaults.use_tls_message_format,
        ),
        logger_fields,
    };
    binder.finish(&node, inserted);
    if !spec.mdc_includes.is_empty() && !spec.mdc_excludes.is_empty() {
        binder.error(
            &node,
            "mdcIncludes and mdcExcludes are mutually exclusive. Includes wil be ignored",
        );
        spec.mdc_includes.clear();
    }
    spec
}

/// `<LoggerFields>`: `<KeyValuePair>` children whose values are patterns.
pub(crate) fn build_logger_fields(binder: &mut Binder, mut node: PNode) -> LoggerFieldsSpec {
    let inserted = node.attrs.len();
    let mut fields = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::KeyValuePair) {
            if let Some(pair) = build_key_value_pair(binder, child) {
                fields.push(pair);
            }
        } else {
            node.refused.push(child);
        }
    }
    let spec = LoggerFieldsSpec {
        fields,
        sd_id: binder.string(&mut node, &["sdId"]),
        enterprise_id: binder.string(&mut node, &["enterpriseId"]),
        discard_if_all_fields_are_empty: binder.boolean(
            &mut node,
            &["discardIfAllFieldsAreEmpty"],
            false,
        ),
    };
    binder.finish(&node, inserted);
    spec
}

/// `<KeyValuePair key value>`; `None` (after an error) when either is missing.
pub(super) fn build_key_value_pair(
    binder: &mut Binder,
    mut node: PNode,
) -> Option<(String, String)> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let key = binder.string(&mut node, &["key"]);
    let value = binder.string(&mut node, &["value"]);
    binder.finish(&node, inserted);
    match (key, value) {
        (Some(key), Some(value)) => Some((key, value)),
        (key, _) => {
            let missing = if key.is_none() { "key" } else { "value" };
            binder.error(
                &node,
                format!("KeyValuePair needs both key and value; '{missing}' is missing, so the field is left out"),
            );
            None
        }
    }
}

pub(super) fn build_selector(binder: &mut Binder, mut node: PNode) -> Option<PatternSelectorSpec> {
    let kind = match node.canonical {
        Some(Plugin::MarkerPatternSelector) => PatternSelectorKind::Marker,
        Some(Plugin::LevelPatternSelector) => PatternSelectorKind::Level,
        Some(Plugin::ScriptPatternSelector) => {
            script_pattern_selector(binder, node);
            return None;
        }
        _ => {
            binder.unsupported(&node);
            return None;
        }
    };
    let inserted = node.attrs.len();
    let mut matches = Vec::new();
    let mut complete = true;
    for mut child in std::mem::take(&mut node.children) {
        if child.canonical != Some(Plugin::PatternMatch) {
            node.refused.push(child);
            continue;
        }
        let child_inserted = child.attrs.len();
        let key = binder.string(&mut child, &["key"]);
        let pattern = binder.string(&mut child, &["pattern"]);
        binder.finish(&child, child_inserted);
        match (key, pattern) {
            (Some(key), Some(pattern)) => matches.push((key, pattern)),
            (key, _) => {
                complete = false;
                let missing = if key.is_none() { "key" } else { "pattern" };
                binder.error(
                    &child,
                    format!("Could not create plugin of type class org.apache.logging.log4j.core.layout.PatternMatch for element PatternMatch: field '{missing}' has invalid value 'null'"),
                );
            }
        }
    }
    let default_pattern = binder.string(&mut node, &["defaultPattern"]);
    let spec = PatternSelectorSpec {
        kind,
        matches,
        default_pattern: default_pattern.clone().unwrap_or_default(),
        always_write_exceptions: binder.boolean(&mut node, &["alwaysWriteExceptions"], true),
        disable_ansi: binder.boolean(&mut node, &["disableAnsi"], false),
        no_console_no_ansi: binder.boolean(&mut node, &["noConsoleNoAnsi"], false),
    };
    binder.finish(&node, inserted);
    let java_class = match kind {
        PatternSelectorKind::Marker => "MarkerPatternSelector",
        PatternSelectorKind::Level => "LevelPatternSelector",
    };
    if default_pattern.is_none() || !complete {
        // log4j2 cannot parse a null pattern and builds no selector at all.
        binder.error(
            &node,
            format!("Could not create plugin of type class org.apache.logging.log4j.core.layout.{java_class} for element {}: java.lang.IllegalArgumentException: Cannot parse pattern 'null'", node.name),
        );
        return None;
    }
    Some(spec)
}

/// `<ScriptPatternSelector>`: its script, pattern matches and attributes are read, then it is
/// refused as log4j2 refuses it without a script engine; the layout keeps its own pattern.
fn script_pattern_selector(binder: &mut Binder, mut node: PNode) {
    let inserted = node.attrs.len();
    let mut slot = ScriptSlot::default();
    for mut child in std::mem::take(&mut node.children) {
        if is_script(&child) {
            slot.offer(binder, &mut node, child);
        } else if child.canonical == Some(Plugin::PatternMatch) {
            let child_inserted = child.attrs.len();
            let _ = binder.string(&mut child, &["key"]);
            let _ = binder.string(&mut child, &["pattern"]);
            binder.finish(&child, child_inserted);
        } else {
            node.refused.push(child);
        }
    }
    let _ = binder.string(&mut node, &["defaultPattern"]);
    for flag in ["alwaysWriteExceptions", "disableAnsi", "noConsoleNoAnsi"] {
        let _ = binder.boolean(&mut node, &[flag], false);
    }
    binder.finish(&node, inserted);
    refuse(
        binder,
        &node,
        slot.script.as_ref(),
        ScriptUser::PatternSelector,
    );
}

fn build_replace(binder: &mut Binder, mut node: PNode) -> Option<ReplaceSpec> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let regex = binder.string(&mut node, &["regex"]);
    let replacement = binder.string(&mut node, &["replacement"]);
    binder.finish(&node, inserted);
    match (regex, replacement) {
        (Some(regex), Some(replacement)) => Some(ReplaceSpec { regex, replacement }),
        (None, _) => {
            binder.error(&node, "A regular expression is required for replacement");
            None
        }
        (Some(_), None) => {
            binder.error(
                &node,
                "A replacement string is required to perform replacement",
            );
            None
        }
    }
}

/// `<JsonTemplateLayout>`: log4j2 2.24's attributes and defaults. The templates are read and
/// compiled when the layout is built (their errors name [`JsonTemplateLayoutSpec::origin`]);
/// here only the attributes are bound.
fn build_json_template_layout(binder: &mut Binder, mut node: PNode) -> JsonTemplateLayoutSpec {
    let inserted = node.attrs.len();
    let defaults = JsonTemplateLayoutSpec::default();
    let mut additional_fields = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::EventTemplateAdditionalField) {
            if let Some(field) = build_additional_field(binder, child) {
                additional_fields.push(field);
            }
        } else {
            node.refused.push(child);
        }
    }
    let file = node.file.clone().or_else(|| binder.file.clone());
    let origin = match file {
        Some(file) => format!("{}:{}", file.display(), node.position),
        None => format!("line {}", node.position),
    };
    // log4j2 takes each default from a `log4j.layout.jsonTemplate.*` system property.
    let property =
        |name: &str| crate::system_property(&format!("log4j.layout.jsonTemplate.{name}"));
    let flag = |name: &str, default: bool| {
        property(name).map_or(default, |value| value.eq_ignore_ascii_case("true"))
    };
    let defaults = JsonTemplateLayoutSpec {
        charset: property("charset"),
        location_info_enabled: flag("locationInfoEnabled", defaults.location_info_enabled),
        stack_trace_enabled: flag("stackTraceEnabled", defaults.stack_trace_enabled),
        event_template: property("eventTemplate"),
        event_template_uri: property("eventTemplateUri").unwrap_or(defaults.event_template_uri),
        event_template_root_object_key: property("eventTemplateRootObjectKey"),
        stack_trace_element_template: property("stackTraceElementTemplate"),
        stack_trace_element_template_uri: property("stackTraceElementTemplateUri")
            .unwrap_or(defaults.stack_trace_element_template_uri),
        event_delimiter: property("eventDelimiter").unwrap_or(defaults.event_delimiter),
        null_event_delimiter_enabled: flag(
            "nullEventDelimiterEnabled",
            defaults.null_event_delimiter_enabled,
        ),
        max_string_length: property("maxStringLength")
            .and_then(|value| value.trim().parse().ok())
            .unwrap_or(defaults.max_string_length),
        truncated_string_suffix: property("truncatedStringSuffix")
            .unwrap_or(defaults.truncated_string_suffix),
        recycler_factory: property("recyclerFactory"),
        timestamp_format_pattern: property("timestampFormatPattern"),
        time_zone: property("timeZone"),
        ..defaults
    };
    let mut spec = JsonTemplateLayoutSpec {
        charset: binder.charset(&mut node, &["charset"]).or(defaults.charset),
        location_info_enabled: binder.boolean(
            &mut node,
            &["locationInfoEnabled"],
            defaults.location_info_enabled,
        ),
        stack_trace_enabled: binder.boolean(
            &mut node,
            &["stackTraceEnabled"],
            defaults.stack_trace_enabled,
        ),
        event_template: binder
            .string(&mut node, &["eventTemplate"])
            .or(defaults.event_template),
        event_template_uri: binder
            .string(&mut node, &["eventTemplateUri"])
            .unwrap_or(defaults.event_template_uri),
        event_template_root_object_key: binder
            .string(&mut node, &["eventTemplateRootObjectKey"])
            .or(defaults.event_template_root_object_key),
        additional_fields,
        stack_trace_element_template: binder
            .string(&mut node, &["stackTraceElementTemplate"])
            .or(defaults.stack_trace_element_template),
        stack_trace_element_template_uri: binder
            .string(&mut node, &["stackTraceElementTemplateUri"])
            .unwrap_or(defaults.stack_trace_element_template_uri),
        event_delimiter: binder
            .string(&mut node, &["eventDelimiter"])
            .unwrap_or(defaults.event_delimiter),
        null_event_delimiter_enabled: binder.boolean(
            &mut node,
            &["nullEventDelimiterEnabled"],
            defaults.null_event_delimiter_enabled,
        ),
        max_string_length: binder
            .int(&mut node, &["maxStringLength"])
            .unwrap_or(defaults.max_string_length),
        truncated_string_suffix: binder
            .string(&mut node, &["truncatedStringSuffix"])
            .unwrap_or(defaults.truncated_string_suffix),
        recycler_factory: binder
            .string(&mut node, &["recyclerFactory"])
            .or(defaults.recycler_factory),
        timestamp_format_pattern: defaults.timestamp_format_pattern,
        time_zone: defaults.time_zone,
        origin,
    };
    // Accepted by every log4j2 layout builder; JsonTemplateLayout has no header or footer.
    let _ = binder.string(&mut node, &["header"]);
    let _ = binder.string(&mut node, &["footer"]);
    binder.finish(&node, inserted);
    if let Some(factory) = &spec.recycler_factory {
        if !is_recycler_factory(factory) {
            binder.report(
                Severity::Warning,
                format!("invalid recycler factory: {factory}; the default is used"),
                Some(&node),
                None,
                Some("recyclerFactory takes dummy, threadLocal or queue (optionally queue:supplier=…,capacity=N); l4rs reuses per-thread buffers whatever it says".to_string()),
            );
            spec.recycler_factory = None;
        }
    }
    spec
}

/// The recycler factory specs log4j2's `RecyclerFactories.ofSpec` accepts.
fn is_recycler_factory(spec: &str) -> bool {
    matches!(spec, "dummy" | "threadLocal" | "queue") || spec.starts_with("queue:")
}

/// `<EventTemplateAdditionalField key value format>`; `None` (after an error naming what is
/// missing) when the key or value is blank, as log4j2's builder rejects them.
fn build_additional_field(
    binder: &mut Binder,
    mut node: PNode,
) -> Option<EventTemplateAdditionalField> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let key = binder.string(&mut node, &["key"]);
    let value = binder.string(&mut node, &["value"]);
    let format = binder.enumeration(
        &mut node,
        &["format"],
        "class org.apache.logging.log4j.layout.template.json.JsonTemplateLayout$EventTemplateAdditionalField$Format",
        &["STRING", "JSON"],
    );
    binder.finish(&node, inserted);
    let blank = |text: &Option<String>| text.as_deref().is_none_or(|t| t.trim().is_empty());
    if blank(&key) || blank(&value) {
        let missing = if blank(&key) { "key" } else { "value" };
        binder.error_help(
            &node,
            format!("Could not create plugin of type class org.apache.logging.log4j.layout.template.json.JsonTemplateLayout$EventTemplateAdditionalField for element EventTemplateAdditionalField: java.lang.IllegalArgumentException: blank {missing}"),
            format!("give the field a non-blank {missing}; it is left out"),
        );
        return None;
    }
    Some(EventTemplateAdditionalField {
        key: key.unwrap_or_default(),
        value: value.unwrap_or_default(),
        json: format == Some(1),
    })
}
