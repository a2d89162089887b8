//! `<Async>`: log4j2's AsyncAppender, a queue in front of other appenders.

use super::appenders::delegating_appender;
use super::binder::{Binder, MissingField};
use super::loggers::bind_refs_and_filter;
use super::node::PNode;
use crate::model::{AppenderKind, AppenderSpec, AsyncAppenderSpec};
use crate::plugins::Plugin;
use crate::wait_strategy::WaitStrategy;

/// `AsyncAppender`'s default `bufferSize` (queue slots).
const DEFAULT_BUFFER_SIZE: i32 = 1024;

/// The largest `bufferSize` l4rs allocates (1 Mi slots, about 600 MiB with their event
/// buffers): every slot is allocated when the appender starts, so a larger queue could exhaust
/// memory, where log4j2's `ArrayBlockingQueue` fails and the appender is not created.
pub(crate) const MAX_ASYNC_BUFFER_SIZE: usize = 1024 * 1024;

/// The queue implementations log4j2 lets `<Async>` choose. l4rs always uses its own bounded
/// ring; from the element it takes how the ring's thread waits while the queue is empty.
const QUEUE_FACTORIES: &[&str] = &[
    "ArrayBlockingQueue",
    "DisruptorBlockingQueue",
    "JCToolsBlockingQueue",
    "LinkedTransferQueue",
];

/// The wait strategy that stands for the queue a factory element names: how that queue's
/// consumer waits in log4j2 when it takes from an empty queue.
///
/// * `ArrayBlockingQueue` and `LinkedTransferQueue` block until an event comes: the default,
///   which blocks too and looks again every 10 ms.
/// * `DisruptorBlockingQueue` (Conversant's), by `spinPolicy`: `WAITING` (the default) polls,
///   then yields between polls, never blocking; `BLOCKING` blocks; `SPINNING` spins.
/// * `JCToolsBlockingQueue`, by `waitStrategy`: `SPIN`, `YIELD`, `PARK` (the default: a
///   1 ns park between polls) or `PROGRESSIVE` (one poll, 100 yields, then 1 ns parks).
fn queue_wait_strategy(binder: &mut Binder, mut node: PNode) -> WaitStrategy {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let one_nanosecond = std::time::Duration::from_nanos(1);
    let strategy = if node.name.eq_ignore_ascii_case("DisruptorBlockingQueue") {
        let policy = binder.enumeration(
            &mut node,
            &["SpinPolicy"],
            "class com.conversantmedia.util.concurrent.SpinPolicy",
            &["WAITING", "BLOCKING", "SPINNING"],
        );
        match policy {
            Some(1) => WaitStrategy::Block,
            Some(2) => WaitStrategy::BusySpin,
            _ => WaitStrategy::Yield,
        }
    } else if node.name.eq_ignore_ascii_case("JCToolsBlockingQueue") {
        let strategy = binder.enumeration(
            &mut node,
            &["WaitStrategy"],
            "class org.apache.logging.log4j.core.async.JCToolsBlockingQueueFactory$WaitStrategy",
            &["SPIN", "YIELD", "PARK", "PROGRESSIVE"],
        );
        match strategy {
            Some(0) => WaitStrategy::BusySpin,
            Some(1) => WaitStrategy::Yield,
            Some(3) => WaitStrategy::Sleep {
                retries: 101,
                sleep: one_nanosecond,
            },
            _ => WaitStrategy::Sleep {
                retries: 0,
                sleep: one_nanosecond,
            },
        }
    } else {
        WaitStrategy::default()
    };
    binder.finish(&node, inserted);
    strategy
}

/// Builds one `<Async>` element; `None` (after a diagnostic) when it cannot be built.
pub(crate) fn build_async_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    // The first queue factory element sets how the ring's thread waits.
    let is_queue_factory = |child: &PNode| {
        QUEUE_FACTORIES
            .iter()
            .any(|factory| factory.eq_ignore_ascii_case(&child.name))
    };
    let wait_strategy = match node.children.iter().position(is_queue_factory) {
        Some(index) => queue_wait_strategy(binder, node.children.remove(index)),
        None => WaitStrategy::default(),
    };
    // Properties configure nothing here.
    let (appender_refs, filter, failed_refs) = bind_refs_and_filter(binder, &mut node, |child| {
        child.canonical == Some(Plugin::Property) || is_queue_factory(child)
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
        wait_strategy,
    });
    let appender = delegating_appender(name, ignore_exceptions, filter, kind, &node);
    Some(appender)
}
