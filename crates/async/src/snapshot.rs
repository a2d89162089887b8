//! The owned copy of an event that crosses to the background thread.

use std::cell::Cell;
use std::sync::Arc;

use l4rs_core::context::{ContextMap, ContextStack};
use l4rs_core::Timestamp;
use l4rs_core::{
    Layout, LayoutId, Level, Location, LogEvent, Marker, Message, Rendered, ThreadInfo, Throwable,
    ThrowableRef,
};

/// Buffers that grew beyond this many bytes are replaced after use, so one huge message does not
/// pin its memory in a queue slot forever (log4j2 trims its reusable messages the same way).
const MAX_RETAINED_TEXT: usize = 64 * 1024;
/// Text rendered ahead ([`EventSnapshot::render`]) past this size is dropped after use: a line
/// with a long trace would otherwise stay in every slot it passed through.
const MAX_RETAINED_RENDERED: usize = 16 * 1024;
/// The message capacity a fresh snapshot starts with (log4j2's `initialReusableMsgSize`).
const INITIAL_MESSAGE_CAPACITY: usize = 128;

/// An owned copy of a [`LogEvent`]: everything a layout can print, taken before the log call
/// returns, so that later changes to the arguments, the MDC or the throwable cannot change the
/// line.
///
/// A snapshot is meant to be reused: [`EventSnapshot::capture`] overwrites the previous content
/// in place, reusing every string, vector and box it already owns (including the frames of a
/// previous throwable), so capturing allocates nothing once the buffers have grown to the size
/// of the events that pass through. The message is formatted during the capture, in the calling
/// thread, as log4j2 does unless `log4j2.formatMsgAsync` is set.
///
/// A prepared `l4rs::Throwable` is owned by the caller and passed by reference; it is
/// immutable and shared between clones, so the snapshot keeps a clone: a reference count, as
/// log4j2's ring keeps a reference to the caller's exception. Nothing is copied or allocated on
/// the producer, and the snapshot keeps the clone after the event is handled, so capturing the
/// same throwable again (a program logging one error repeatedly) does not even touch the count.
/// An error that is not a `Throwable` is converted into buffers of the snapshot's own, reused
/// from one conversion to the next.
#[derive(Debug)]
pub struct EventSnapshot {
    logger_name: String,
    level: Level,
    message: String,
    timestamp: Timestamp,
    thread_name: String,
    thread_id: u64,
    thread_priority: i32,
    has_location: bool,
    location_class: String,
    location_method: String,
    location_file: String,
    location_line: i32,
    /// Which of the two fields below holds the event's throwable, if it has one.
    throwable: Held,
    /// The last prepared throwable captured, shared with the caller's.
    shared_throwable: Option<Throwable>,
    /// The buffers of the last error converted at capture time, reused by the next one; `None`
    /// for a fresh snapshot and after [`EventSnapshot::take_conversion_buffers`].
    converted_throwable: Option<Throwable>,
    context_map: ContextMap,
    context_stack: ContextStack,
    marker: Option<Arc<Marker>>,
    nano_time: i64,
    /// The event as a layout formatted it at capture ([`EventSnapshot::render`]), reused.
    rendered: String,
    /// The layout `rendered` holds the text of, for the captured event; `None` when it holds
    /// none.
    rendered_by: Option<LayoutId>,
}

impl Default for EventSnapshot {
    fn default() -> EventSnapshot {
        EventSnapshot::new()
    }
}

impl EventSnapshot {
    /// An empty snapshot with a small preallocated message buffer.
    pub fn new() -> EventSnapshot {
        EventSnapshot {
            logger_name: String::new(),
            level: Level::INFO,
            message: String::with_capacity(INITIAL_MESSAGE_CAPACITY),
            timestamp: Timestamp::from_millis(0),
            thread_name: String::new(),
            thread_id: 0,
            thread_priority: 5,
            has_location: false,
            location_class: String::new(),
            location_method: String::new(),
            location_file: String::new(),
            location_line: 0,
            throwable: Held::None,
            shared_throwable: None,
            converted_throwable: None,
            context_map: ContextMap::new(),
            context_stack: ContextStack::new(),
            marker: None,
            nano_time: 0,
            rendered: String::new(),
            rendered_by: None,
        }
    }

    /// Overwrites this snapshot with `event`. The message is formatted now (running the
    /// arguments' `Display` code on the calling thread). The location is kept only when
    /// `include_location` is true and the event has one (log4j2's `includeLocation`).
    pub fn capture(&mut self, event: &LogEvent<'_>, include_location: bool) {
        copy_str(&mut self.logger_name, event.logger_name);
        self.level = event.level;
        self.message.clear();
        event.message.write_to(&mut self.message);
        self.timestamp = event.timestamp;
        copy_str(&mut self.thread_name, event.thread.name);
        self.thread_id = event.thread.id;
        self.thread_priority = event.thread.priority;
        match event.location.filter(|_| include_location) {
            Some(location) => {
                self.has_location = true;
                copy_str(&mut self.location_class, location.class);
                copy_str(&mut self.location_method, location.method);
                copy_str(&mut self.location_file, location.file);
                self.location_line = location.line;
            }
            None => self.has_location = false,
        }
        self.throwable = match &event.throwable {
            None => Held::None,
            Some(prepared @ ThrowableRef::Throwable(_)) => {
                capture_into(&mut self.shared_throwable, *prepared);
                Held::Shared
            }
            Some(error) => {
                capture_into(&mut self.converted_throwable, *error);
                Held::Converted
            }
        };
        self.context_map.clone_from(event.context_map);
        self.context_stack.clone_from(event.context_stack);
        // Markers live in a process-wide registry for ever; looking the name up again gives
        // the same marker as a shared handle without allocating.
        self.marker = event.marker.map(|marker| Marker::get(marker.name()));
        self.nano_time = event.nano_time;
        self.rendered_by = None;
    }

    /// Formats the captured event with `layout` now, on the calling thread, so that the
    /// appender using that layout copies the text instead of formatting it on the queue's
    /// thread. The layout sees the event the queue's thread will hand on (the location as
    /// captured; not the end of its batch, which no layout that renders ahead prints).
    ///
    /// Nothing is rendered, and the queue's thread formats as usual, when the layout panics
    /// (the caller's log call must not) or logs while it formats (the nested call formats on
    /// the queue's thread, where an appender that logs into itself is caught).
    pub fn render(&mut self, layout: &Arc<dyn Layout>) {
        thread_local! {
            static RENDERING: Cell<bool> = const { Cell::new(false) };
        }
        /// Clears the flag also when the layout unwinds.
        struct Done;
        impl Drop for Done {
            fn drop(&mut self) {
                let _ = RENDERING.try_with(|rendering| rendering.set(false));
            }
        }
        self.rendered_by = None;
        if RENDERING.try_with(|rendering| rendering.replace(true)) != Ok(false) {
            return;
        }
        let _done = Done;
        let mut text = std::mem::take(&mut self.rendered);
        text.clear();
        let event = self.event(false);
        let formatted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            layout.format(&event, &mut text);
        }));
        self.rendered = text;
        if formatted.is_ok() {
            self.rendered_by = Some(LayoutId::of(layout));
        }
    }

    /// The snapshot as an event, with the given end-of-batch flag.
    pub fn event(&self, end_of_batch: bool) -> LogEvent<'_> {
        LogEvent {
            logger_name: &self.logger_name,
            level: self.level,
            message: Message::Text(&self.message),
            timestamp: self.timestamp,
            thread: ThreadInfo {
                name: &self.thread_name,
                id: self.thread_id,
                priority: self.thread_priority,
            },
            location: self.has_location.then_some(Location {
                class: &self.location_class,
                method: &self.location_method,
                file: &self.location_file,
                line: self.location_line,
            }),
            throwable: match self.throwable {
                Held::None => None,
                Held::Shared => self.shared_throwable.as_ref(),
                Held::Converted => self.converted_throwable.as_ref(),
            }
            .map(ThrowableRef::Throwable),
            context_map: &self.context_map,
            context_stack: &self.context_stack,
            marker: self.marker.as_deref(),
            nano_time: self.nano_time,
            end_of_batch,
            rendered: self.rendered_by.map(|layout| Rendered {
                layout,
                text: &self.rendered,
            }),
        }
    }

    /// The level of the captured event.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The formatted message of the captured event.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// True when converting an error at capture would reuse buffers that held one (a snapshot
    /// that never converted one allocates them). Prepared throwables need none: they are
    /// shared.
    pub fn has_conversion_buffers(&self) -> bool {
        self.converted_throwable.is_some()
    }

    /// Takes out the buffers of the last converted error (after the event was handled), so
    /// that another snapshot can reuse them through [`EventSnapshot::put_conversion_buffers`].
    pub fn take_conversion_buffers(&mut self) -> Option<Throwable> {
        if self.throwable == Held::Converted {
            self.throwable = Held::None;
        }
        self.converted_throwable.take()
    }

    /// Gives this snapshot the buffers `spare` of an error converted before, to convert the
    /// next one into without allocating.
    pub fn put_conversion_buffers(&mut self, spare: Throwable) {
        self.converted_throwable = Some(spare);
    }

    /// Drops buffers that grew unusually large and releases the marker, so a slot does not
    /// keep a huge message (or a marker handle) alive after its event was written. Called by
    /// the background thread after dispatching, off the producers' path.
    pub fn trim(&mut self) {
        // Only writes when there is something to drop: the next producer finds the snapshot's
        // cache lines shared rather than modified by this thread.
        if self.message.capacity() > MAX_RETAINED_TEXT {
            self.message = String::with_capacity(INITIAL_MESSAGE_CAPACITY);
        }
        if self.logger_name.capacity() > MAX_RETAINED_TEXT {
            self.logger_name = String::new();
        }
        if self.rendered.capacity() > MAX_RETAINED_RENDERED {
            self.rendered = String::new();
            self.rendered_by = None;
        }
        if self.marker.is_some() {
            self.marker = None;
        }
    }
}

/// Where a snapshot holds its event's throwable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Held {
    /// The event has none.
    None,
    /// In `shared_throwable`.
    Shared,
    /// In `converted_throwable`.
    Converted,
}

/// Puts `throwable` into `slot`, reusing what the slot holds: for a prepared throwable a clone
/// of the caller's (nothing when it already is one), for an error its conversion.
fn capture_into(slot: &mut Option<Throwable>, throwable: ThrowableRef<'_>) {
    match slot {
        Some(kept) => throwable.resolve_into(kept),
        None => *slot = Some(throwable.resolve().into_owned()),
    }
}

/// `target = source`, reusing `target`'s buffer.
fn copy_str(target: &mut String, source: &str) {
    target.clear();
    target.push_str(source);
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_core::StackFrame;

    #[test]
    fn captures_everything_a_layout_prints() {
        let mut map = ContextMap::new();
        map.insert("user", "ann");
        let mut stack = ContextStack::new();
        stack.push("outer");
        let throwable = Throwable::new("x.Boom")
            .with_message("bad")
            .with_frames(vec![StackFrame::java("a.B", "c", Some("B.java"), 3)]);
        let marker = Marker::get("ASYNC_SNAPSHOT_TEST");
        let mut value = String::from("before");
        let mut snapshot = EventSnapshot::new();
        let capture = |snapshot: &mut EventSnapshot, args: std::fmt::Arguments<'_>| {
            let event = LogEvent {
                location: Some(Location {
                    class: "app::db",
                    method: "query",
                    file: "db.rs",
                    line: 42,
                }),
                throwable: Some(ThrowableRef::Throwable(&throwable)),
                context_map: &map,
                context_stack: &stack,
                marker: Some(&marker),
                nano_time: 7,
                ..LogEvent::new("app.db", Level::WARN, Message::Args(args))
            };
            snapshot.capture(&event, true);
        };
        capture(&mut snapshot, format_args!("value={value}"));
        value.push_str(" and after");
        map.insert("user", "bob");
        let event = snapshot.event(true);
        assert_eq!(event.message.as_str(), Some("value=before"));
        assert_eq!(event.logger_name, "app.db");
        assert_eq!(event.level, Level::WARN);
        assert_eq!(event.location.unwrap().line, 42);
        assert_eq!(event.location.unwrap().method, "query");
        assert_eq!(event.context_map.get("user"), Some("ann"));
        assert_eq!(event.context_stack.iter().collect::<Vec<_>>(), ["outer"]);
        assert_eq!(event.marker.unwrap().name(), "ASYNC_SNAPSHOT_TEST");
        assert_eq!(*event.throwable.unwrap().resolve(), throwable);
        assert_eq!(event.nano_time, 7);
        assert!(event.end_of_batch);
    }

    #[test]
    fn a_prepared_throwable_is_shared_not_copied() {
        let throwable = Throwable::new("x.Boom").with_message("bad");
        let event = LogEvent {
            throwable: Some(ThrowableRef::Throwable(&throwable)),
            ..LogEvent::new("a", Level::ERROR, Message::Text("first"))
        };
        let mut snapshot = EventSnapshot::new();
        snapshot.capture(&event, false);
        let captured = snapshot
            .event(false)
            .throwable
            .unwrap()
            .resolve()
            .into_owned();
        assert!(std::ptr::eq(captured.class_name(), throwable.class_name()));
        assert!(
            !snapshot.has_conversion_buffers(),
            "sharing needs no buffers from the spare pool"
        );
    }

    #[test]
    fn conversion_buffers_move_between_snapshots() {
        let error = std::io::Error::other("disk full");
        let event = LogEvent {
            throwable: Some(ThrowableRef::from_dyn_error(&error)),
            ..LogEvent::new("a", Level::ERROR, Message::Text("first"))
        };
        let expected = Throwable::from_dyn_error(&error);
        let mut handled = EventSnapshot::new();
        assert!(!handled.has_conversion_buffers());
        handled.capture(&event, false);
        assert!(handled.has_conversion_buffers());
        assert_eq!(*handled.event(false).throwable.unwrap().resolve(), expected);
        let spare = handled.take_conversion_buffers().expect("buffers");
        let buffer = spare.class_name().as_ptr();
        assert!(!handled.has_conversion_buffers());
        assert!(handled.event(false).throwable.is_none());
        let mut next = EventSnapshot::new();
        next.put_conversion_buffers(spare);
        assert!(next.has_conversion_buffers());
        next.capture(&event, false);
        let captured = next.event(false).throwable.unwrap().resolve().into_owned();
        assert_eq!(captured, expected);
        assert_eq!(
            captured.class_name().as_ptr(),
            buffer,
            "the spare is reused"
        );
    }

    #[test]
    fn a_shared_throwable_then_a_conversion_then_none() {
        let prepared = Throwable::new("x.Prepared");
        let error = std::fmt::Error;
        let mut snapshot = EventSnapshot::new();
        for (throwable, expected) in [
            (Some(ThrowableRef::Throwable(&prepared)), Some("x.Prepared")),
            (
                Some(ThrowableRef::from_dyn_error(&error)),
                Some("core::fmt::Error"),
            ),
            (Some(ThrowableRef::Throwable(&prepared)), Some("x.Prepared")),
            (None, None),
        ] {
            let event = LogEvent {
                throwable,
                ..LogEvent::new("a", Level::ERROR, Message::Text("m"))
            };
            snapshot.capture(&event, false);
            let captured = snapshot
                .event(false)
                .throwable
                .map(|t| t.resolve().into_owned());
            assert_eq!(
                captured.as_ref().map(Throwable::class_name),
                expected,
                "{captured:?}"
            );
        }
    }

    #[test]
    fn rendered_text_belongs_to_its_layout_and_to_its_event_only() {
        let layout: Arc<dyn Layout> = Arc::new(l4rs_test_support::LineLayout::new().with_level());
        let other: Arc<dyn Layout> = Arc::new(l4rs_test_support::LineLayout::new());
        let mut snapshot = EventSnapshot::new();
        snapshot.capture(
            &LogEvent::new("a", Level::WARN, Message::Text("first")),
            false,
        );
        assert!(snapshot.event(false).rendered.is_none());
        snapshot.render(&layout);
        let rendered = snapshot.event(true).rendered.expect("rendered");
        assert_eq!(rendered.text_for(&layout), Some("WARN first\n"));
        assert_eq!(
            rendered.text_for(&other),
            None,
            "another layout formats itself"
        );
        snapshot.capture(
            &LogEvent::new("a", Level::INFO, Message::Text("second")),
            false,
        );
        assert!(
            snapshot.event(false).rendered.is_none(),
            "the next capture drops the text of the one before"
        );
    }

    #[test]
    fn a_layout_that_panics_or_renders_while_rendering_leaves_the_formatting_to_the_queue() {
        /// Panics while formatting.
        struct Panicking;
        impl Layout for Panicking {
            fn format(&self, _event: &LogEvent<'_>, _out: &mut String) {
                panic!("a layout failed (expected by this test)");
            }
        }
        /// Renders another event while formatting, as a layout that logs would; records
        /// whether that one got its text.
        struct Nesting(std::sync::Mutex<Option<bool>>);
        impl Layout for Nesting {
            fn format(&self, event: &LogEvent<'_>, out: &mut String) {
                let inner: Arc<dyn Layout> = Arc::new(l4rs_test_support::LineLayout::new());
                let mut other = EventSnapshot::new();
                other.capture(event, false);
                other.render(&inner);
                *self.0.lock().unwrap() = Some(other.event(false).rendered.is_some());
                out.push_str("outer");
            }
        }
        let mut snapshot = EventSnapshot::new();
        snapshot.capture(&LogEvent::new("a", Level::INFO, Message::Text("m")), false);
        let panicking: Arc<dyn Layout> = Arc::new(Panicking);
        snapshot.render(&panicking);
        assert!(
            snapshot.event(false).rendered.is_none(),
            "a panic renders nothing"
        );
        let nesting = Arc::new(Nesting(std::sync::Mutex::new(None)));
        let layout: Arc<dyn Layout> = nesting.clone();
        snapshot.render(&layout);
        let text = snapshot
            .event(false)
            .rendered
            .and_then(|r| r.text_for(&layout));
        assert_eq!(text, Some("outer"), "rendering works again after a panic");
        assert_eq!(
            *nesting.0.lock().unwrap(),
            Some(false),
            "the nested render leaves its event to the queue's thread"
        );
    }

    #[test]
    fn reuse_clears_what_the_next_event_lacks() {
        let throwable = Throwable::new("x.Boom");
        let mut snapshot = EventSnapshot::new();
        let first = LogEvent {
            throwable: Some(ThrowableRef::Throwable(&throwable)),
            location: Some(Location {
                class: "c",
                method: "m",
                file: "f",
                line: 1,
            }),
            ..LogEvent::new("a", Level::ERROR, Message::Text("first"))
        };
        snapshot.capture(&first, true);
        snapshot.capture(
            &LogEvent::new("b", Level::INFO, Message::Text("second")),
            true,
        );
        let event = snapshot.event(false);
        assert_eq!(event.message.as_str(), Some("second"));
        assert!(event.throwable.is_none());
        assert!(event.location.is_none());
        snapshot.capture(&first, false);
        assert!(
            snapshot.event(false).location.is_none(),
            "includeLocation=false"
        );
    }
}
