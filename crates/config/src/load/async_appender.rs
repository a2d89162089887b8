//! `<Async>`: log4j2's AsyncAppender, a queue in front of other appenders.

use std::time::Duration;

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

/// The shortest park Java and Rust ask for (`parkNanos(1)`); the kernel's timer makes it tens
/// of microseconds.
const SHORTEST_PARK: Duration = Duration::from_nanos(1);

/// A queue factory's attribute that says how its consumer waits, with the strategy each of its
/// constants stands for.
struct WaitAttribute {
    /// The factory element.
    element: &'static str,
    /// The attribute.
    name: &'static str,
    /// Its Java type, as log4j2's conversion warning names it.
    java_type: &'static str,
    /// Each constant and its strategy.
    constants: &'static [(&'static str, WaitStrategy)],
    /// The constant of log4j2's `defaultString`, used for a value Java cannot convert.
    default: usize,
}

/// Conversant's `SpinPolicy`, each constant with the strategy its single consumer's wait is
/// closest to: `WAITING` (the default) polls, then yields between polls (with a few 50 ns parks
/// on the way) and never blocks; `BLOCKING` blocks on a condition; `SPINNING` spins.
const SPIN_POLICY: WaitAttribute = WaitAttribute {
    element: "DisruptorBlockingQueue",
    name: "SpinPolicy",
    java_type: "class com.conversantmedia.util.concurrent.SpinPolicy",
    constants: &[
        ("WAITING", WaitStrategy::Yield),
        ("BLOCKING", WaitStrategy::Block),
        ("SPINNING", WaitStrategy::BusySpin),
    ],
    default: 0,
};

/// JCTools' `WaitStrategy` of log4j2's `JCToolsBlockingQueueFactory`, by how its `take` waits:
/// `SPIN` polls; `YIELD` yields between polls (l4rs's `Yield` spins 100 polls first); `PARK`
/// (the default) parks the shortest time between polls; `PROGRESSIVE` counts from 100, parking
/// above 200 and yielding above 100: one plain poll, 100 yields, then short parks, which is
/// `Sleep` with 101 retries (its last 100 yield).
const JCTOOLS_WAIT_STRATEGY: WaitAttribute = WaitAttribute {
    element: "JCToolsBlockingQueue",
    name: "WaitStrategy",
    java_type: "class org.apache.logging.log4j.core.async.JCToolsBlockingQueueFactory$WaitStrategy",
    constants: &[
        ("SPIN", WaitStrategy::BusySpin),
        ("YIELD", WaitStrategy::Yield),
        (
            "PARK",
            WaitStrategy::Sleep {
                retries: 0,
                sleep: SHORTEST_PARK,
            },
        ),
        (
            "PROGRESSIVE",
            WaitStrategy::Sleep {
                retries: 101,
                sleep: SHORTEST_PARK,
            },
        ),
    ],
    default: 2,
};

/// The wait strategy that stands for the queue a factory element names: how that queue's
/// consumer waits in log4j2 when it takes from an empty queue. `ArrayBlockingQueue` and
/// `LinkedTransferQueue` block until an event comes: the default, which blocks too (and looks
/// again every 10 ms).
fn queue_wait_strategy(binder: &mut Binder, mut node: PNode) -> WaitStrategy {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let attribute = [SPIN_POLICY, JCTOOLS_WAIT_STRATEGY]
        .into_iter()
        .find(|attribute| attribute.element.eq_ignore_ascii_case(&node.name));
    let strategy = match attribute {
        None => WaitStrategy::default(),
        Some(attribute) => {
            let names: Vec<&str> = attribute.constants.iter().map(|(name, _)| *name).collect();
            let chosen = binder
                .enumeration_defaulting(
                    &mut node,
                    &[attribute.name],
                    attribute.java_type,
                    &names,
                    names[attribute.default],
                )
                .unwrap_or(attribute.default);
            attribute.constants[chosen].1
        }
    };
    binder.finish(&node, inserted);
    strategy
}

/// Builds one `<Async>` element; `None` (after a diagnostic) when it cannot be built.
pub(crate) fn build_async_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    // log4j2's builder has one queue factory field, which takes the first such child; every
    // one is built (and reports its own problems), and a later one is reported as unused
    // after the appender's attributes.
    let mut wait_strategy = None;
    let mut unused_factories = Vec::new();
    // Properties configure nothing here.
    let (appender_refs, filter, failed_refs) =
        bind_refs_and_filter(binder, &mut node, |binder, child| {
            if child.canonical == Some(Plugin::Property) {
                return None;
            }
            if !QUEUE_FACTORIES
                .iter()
                .any(|factory| factory.eq_ignore_ascii_case(&child.name))
            {
                return Some(child);
            }
            let stub = child.stub();
            let strategy = queue_wait_strategy(binder, child);
            match wait_strategy {
                None => wait_strategy = Some(strategy),
                Some(_) => unused_factories.push(stub),
            }
            None
        });
    let wait_strategy = wait_strategy.unwrap_or_default();
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
    for unused in &unused_factories {
        binder.unexpected_child(&node, unused);
    }
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
