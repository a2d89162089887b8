//! The log event: one log call, borrowed from the caller.

use std::fmt;
use std::sync::Arc;

use crate::context::{ContextMap, ContextStack, EMPTY_CONTEXT_MAP, EMPTY_CONTEXT_STACK};
use crate::layout::LayoutId;
use crate::{Layout, Level, Location, Marker, ThrowableRef, Timestamp};

/// The message of a log call. Message text is never interpreted: `{}`, `%` and `${…}` in it
/// print as they are.
#[derive(Clone, Copy)]
pub enum Message<'a> {
    /// Arguments of a `format_args!` call, formatted only when a layout prints them.
    Args(fmt::Arguments<'a>),
    /// Ready text.
    Text(&'a str),
}

impl Message<'_> {
    /// Appends the message text to `out`.
    #[inline]
    pub fn write_to(&self, out: &mut String) {
        match self {
            Message::Text(text) => out.push_str(text),
            Message::Args(args) => match args.as_str() {
                Some(text) => out.push_str(text),
                None => {
                    let _ = fmt::Write::write_fmt(out, *args);
                }
            },
        }
    }

    /// The text when it needs no formatting.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Message::Text(text) => Some(text),
            Message::Args(args) => args.as_str(),
        }
    }
}

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Text(text) => f.write_str(text),
            Message::Args(args) => f.write_fmt(*args),
        }
    }
}

impl fmt::Debug for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string())
    }
}

/// The thread that made a log call: `%t`, `%tid` and `%tp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadInfo<'a> {
    /// The thread's name.
    pub name: &'a str,
    /// The thread's id: 1 for the thread named `main` (as the JVM numbers its main thread),
    /// other threads from 2 in the order they first log.
    pub id: u64,
    /// The thread's priority; Rust threads have none, so log4j2's default 5 is reported.
    pub priority: i32,
}

/// An event's text as a layout already formatted it, on the thread that made the call, before an
/// asynchronous stage queued the event (see [`Layout::renders_ahead`]). The appender whose
/// layout it is writes the text instead of formatting the event again; every other appender
/// ignores it.
#[derive(Clone, Copy, Debug)]
pub struct Rendered<'a> {
    /// The layout that formatted `text`.
    pub layout: LayoutId,
    /// The formatted event.
    pub text: &'a str,
}

impl<'a> Rendered<'a> {
    /// The text, when `layout` is the one that formatted it.
    #[inline]
    pub fn text_for(&self, layout: &Arc<dyn Layout>) -> Option<&'a str> {
        (self.layout == LayoutId::of(layout)).then_some(self.text)
    }
}

/// One log call as the pipeline sees it. Everything is borrowed, so building an event costs
/// nothing; an event never outlives the call that made it.
#[derive(Clone, Copy, Debug)]
pub struct LogEvent<'a> {
    /// The name of the logger the call was made on (`""` for the root logger).
    pub logger_name: &'a str,
    /// The event's level.
    pub level: Level,
    /// The message.
    pub message: Message<'a>,
    /// When the call was made.
    pub timestamp: Timestamp,
    /// The calling thread.
    pub thread: ThreadInfo<'a>,
    /// The caller's location, when captured and made visible (see log4j2's `includeLocation`).
    pub location: Option<Location<'a>>,
    /// The throwable passed to the call.
    pub throwable: Option<ThrowableRef<'a>>,
    /// The thread context map (MDC) at the time of the call.
    pub context_map: &'a ContextMap,
    /// The thread context stack (NDC) at the time of the call.
    pub context_stack: &'a ContextStack,
    /// The event's marker.
    pub marker: Option<&'a Marker>,
    /// A monotonic nanosecond reading taken for the event (`%N`), 0 when not taken.
    pub nano_time: i64,
    /// True when an asynchronous stage saw its queue empty after this event.
    pub end_of_batch: bool,
    /// The event's text as its target appender's layout formatted it ahead of the queue, if it
    /// did (set only by an asynchronous stage, for the one appender its events go to).
    pub rendered: Option<Rendered<'a>>,
}

impl<'a> LogEvent<'a> {
    /// An event with the given logger, level and message, stamped now on the thread `main`
    /// (id 1, priority 5), with no location, throwable, context or marker. The fields are public
    /// to set the rest.
    pub fn new(logger_name: &'a str, level: Level, message: Message<'a>) -> LogEvent<'a> {
        LogEvent {
            logger_name,
            level,
            message,
            timestamp: Timestamp::now(),
            thread: ThreadInfo {
                name: "main",
                id: 1,
                priority: 5,
            },
            location: None,
            throwable: None,
            context_map: &EMPTY_CONTEXT_MAP,
            context_stack: &EMPTY_CONTEXT_STACK,
            marker: None,
            nano_time: 0,
            end_of_batch: false,
            rendered: None,
        }
    }

    /// The empty event that header and footer patterns are evaluated against: no logger name,
    /// level ERROR (as log4j2 prints it), empty message, time now.
    pub fn empty() -> LogEvent<'static> {
        LogEvent::new("", Level::ERROR, Message::Text(""))
    }
}
