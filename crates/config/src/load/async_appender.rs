//! `<Async>`: log4j2's AsyncAppender, a queue in front of other appenders.

use super::appenders::delegating_appender;
use super::binder::{Binder, MissingField};
use super::loggers::bind_refs_and_filter;
use super::node::PNode;
use crate::model::{AppenderKind, AppenderSpec, AsyncAppenderSpec};
use crate::plugins::Plugin;

/// `AsyncAppender`'s default `bufferSize` (queue slots).
const DEFAULT_BUFFER_SIZE: i32 = 1024;

/// The largest `bufferSize` l4rs allocates (1 Mi slots, about 600 MiB with their event
/// buffers): every slot is allocated when the appender starts, so a larger queue could exhaust
/// memory, where log4j2's `ArrayBlockingQueue` fails and the appender is not created.
pub(crate) const MAX_ASYNC_BUFFER_SIZE: usize = 1024 * 1024;

/// The queue implementations log4j2 lets `<Async>` choose; l4rs always uses its own ring, which
/// behaves as the default bounded `ArrayBlockingQueue`.
const QUEUE_FACTORIES: &[&str] = &[
    "ArrayBlockingQueue",
    "DisruptorBlockingQueue",
    "JCToolsBlockingQueue",
    "LinkedTransferQueue",
];

/// Builds one `<Async>` element; `None` (after a diagnostic) when it cannot be built.
pub(crate) fn build_async_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    // Properties configure nothing here; the queue factory is replaced by l4rs's ring.
    let (appender_refs, filter, failed_refs) = bind_refs_and_filter(binder, &mut node, |child| {
        child.canonical == Some(Plugin::Property)
            || QUEUE_FACTORIES
                .iter()
                .any(|factory| factory.eq_ignore_ascii_case(&child.name))
    });
    // The refs are the builder's first field.
    binder.null_children(&node, &failed_refs);
    let name = binder.string(&mut node, &["name"]);
    let ignore_exceptions = binder.boolean(&mut node, &["ignoreExceptions"], true);
    let blocking = binder.boolean(&mut node, &["blocking"], true);
    let buffer_size_position = node.attr_position(&["bufferSize"]);
    let buffer_size = binder
        .int(&mut node, &["bufferSize"])
        .unwrap_or(DEFAULT_BUFFER_SIZE);
    let shutdown_timeout_ms = binder
        .long(&mut node, &["shutdownTimeout"])
        .map_or(0, |ms| u64::try_from(ms).unwrap_or(0));
    let include_location = binder.boolean(&mut node, &["includeLocation"], false);
    let error_ref = binder.string(&mut node, &["errorRef", "error-ref"]);
    // The builder's required fields, in its order; then the leftover attributes.
    let mut missing = Vec::new();
    if appender_refs.is_empty() {
        // Java prints the empty array's identity hash, which l4rs cannot know.
        missing.push(
            MissingField::attribute(
                "appenderRefs",
                "No appender references provided to AsyncAppender",
            )
            .shown_as("[Lorg.apache.logging.log4j.core.config.AppenderRef;@…")
            .added_as("<AppenderRef ref=\"…\"/>"),
        );
    }
    if name.is_none() {
        missing.push(MissingField::attribute(
            "name",
            "No name provided for AsyncAppender",
        ));
    }
    if !missing.is_empty() {
        binder.invalid_arguments(
            &node,
            "org.apache.logging.log4j.core.appender.AsyncAppender",
            &missing,
        );
        return None;
    }
    binder.finish(&node, inserted);
    let name = name.expect("validated above");
    // log4j2's default queue is `new ArrayBlockingQueue<>(bufferSize)`, which refuses 0 and
    // negative capacities, so the appender is not created.
    let Some(buffer_size) = usize::try_from(buffer_size).ok().filter(|size| *size > 0) else {
        binder.error_help(
            &node,
            format!("Could not create plugin of type class org.apache.logging.log4j.core.appender.AsyncAppender for element {}: java.lang.IllegalArgumentException", node.name),
            format!("bufferSize=\"{buffer_size}\": the queue needs at least one slot; the appender is not created"),
        );
        return None;
    };
    if buffer_size > MAX_ASYNC_BUFFER_SIZE {
        super::appenders::too_large(
            binder,
            &node,
            buffer_size_position,
            "bufferSize",
            buffer_size,
            MAX_ASYNC_BUFFER_SIZE,
        );
        return None;
    }
    let kind = AppenderKind::Async(AsyncAppenderSpec {
        appender_refs,
        error_ref,
        buffer_size,
        blocking,
        shutdown_timeout_ms,
        include_location,
    });
    let appender = delegating_appender(name, ignore_exceptions, filter, kind, &node);
    Some(appender)
}
