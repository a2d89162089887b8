//! `<GelfLayout>` with its `<KeyValuePair>` fields and `<PatternSelector>`.

use super::binder::Binder;
use super::layout::{build_key_value_pair, build_selector, name_list};
use super::node::PNode;
use crate::model::{GelfCompression, GelfLayoutSpec, PatternLayoutSpec};
use crate::plugins::Plugin;

/// `GelfLayout.CompressionType`'s constants, in the order of [`GelfCompression`]'s variants.
const COMPRESSION_TYPES: [&str; 3] = ["GZIP", "ZLIB", "OFF"];

/// `<GelfLayout>`: log4j2 2.24's builder attributes and defaults; `None` (after log4j2's error)
/// when the builder throws: a NUL delimiter with compression on.
pub(crate) fn build_gelf_layout(binder: &mut Binder, mut node: PNode) -> Option<GelfLayoutSpec> {
    let inserted = node.attrs.len();
    let defaults = GelfLayoutSpec::default();
    let mut additional_fields = Vec::new();
    let mut selector = None;
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::KeyValuePair) {
            if let Some(pair) = build_key_value_pair(binder, child) {
                additional_fields.push(pair);
            }
        } else if child.name.to_ascii_lowercase().ends_with("patternselector") && selector.is_none()
        {
            selector = build_selector(binder, child);
        } else {
            node.refused.push(child);
        }
    }
    let compression = binder
        .enumeration(
            &mut node,
            &["compressionType"],
            "class org.apache.logging.log4j.core.layout.GelfLayout$CompressionType",
            &COMPRESSION_TYPES,
        )
        .map_or(defaults.compression, |index| {
            [
                GelfCompression::Gzip,
                GelfCompression::Zlib,
                GelfCompression::Off,
            ][index]
        });
    let include_stacktrace = binder.boolean(
        &mut node,
        &["includeStacktrace"],
        defaults.include_stacktrace,
    );
    let mut message_pattern = binder.string(&mut node, &["messagePattern"]);
    if message_pattern.is_some() && selector.is_some() {
        binder.error(
            &node,
            "A message pattern and PatternSelector cannot both be specified on GelfLayout, ignoring message pattern",
        );
        message_pattern = None;
    }
    // log4j2 builds a PatternLayout that writes exceptions exactly when includeStacktrace is on.
    let message_layout = match (message_pattern, selector) {
        (_, Some(selector)) => Some(PatternLayoutSpec {
            selector: Some(selector),
            always_write_exceptions: include_stacktrace,
            ..PatternLayoutSpec::default()
        }),
        (Some(pattern), None) => Some(PatternLayoutSpec {
            pattern,
            always_write_exceptions: include_stacktrace,
            ..PatternLayoutSpec::default()
        }),
        (None, None) => None,
    };
    let spec = GelfLayoutSpec {
        host: binder.string(&mut node, &["host"]),
        compression,
        compression_threshold: binder
            .int(&mut node, &["compressionThreshold"])
            .unwrap_or(defaults.compression_threshold),
        include_stacktrace,
        include_thread_context: binder.boolean(
            &mut node,
            &["includeThreadContext"],
            defaults.include_thread_context,
        ),
        thread_context_includes: optional_list(binder, &mut node, "threadContextIncludes"),
        thread_context_excludes: optional_list(binder, &mut node, "threadContextExcludes"),
        thread_context_prefix: binder
            .string(&mut node, &["threadContextPrefix"])
            .unwrap_or_default(),
        include_null_delimiter: binder.boolean(
            &mut node,
            &["includeNullDelimiter"],
            defaults.include_null_delimiter,
        ),
        include_new_line_delimiter: binder.boolean(
            &mut node,
            &["includeNewLineDelimiter"],
            defaults.include_new_line_delimiter,
        ),
        omit_empty_fields: binder.boolean(
            &mut node,
            &["omitEmptyFields"],
            defaults.omit_empty_fields,
        ),
        message_layout,
        additional_fields,
    };
    // Builder attributes l4rs accepts without effect: log4j2 applies map message fields only to
    // MapMessages, which l4rs events never carry, and GelfLayout always writes UTF-8 without a
    // header or footer whatever the generic layout attributes say.
    for ignored in [
        "includeMapMessage",
        "mapMessageIncludes",
        "mapMessageExcludes",
        "mapPrefix",
        "charset",
        "header",
        "footer",
    ] {
        let _ = binder.string(&mut node, &[ignored]);
    }
    binder.finish(&node, inserted);
    if spec.include_null_delimiter && spec.compression != GelfCompression::Off {
        binder.builder_threw(
            &node,
            "org.apache.logging.log4j.core.layout.GelfLayout",
            "java.lang.IllegalArgumentException: null delimiter cannot be used with compression",
            None,
            "set compressionType=\"OFF\" on <GelfLayout> to use includeNullDelimiter; the appender uses its default layout",
        );
        return None;
    }
    Some(spec)
}

/// A comma-separated key list; `None` when the attribute is absent.
fn optional_list(binder: &mut Binder, node: &mut PNode, name: &str) -> Option<Vec<String>> {
    if node.attrs.iter().any(|a| a.name.eq_ignore_ascii_case(name)) {
        Some(name_list(binder, node, &[name]))
    } else {
        None
    }
}
