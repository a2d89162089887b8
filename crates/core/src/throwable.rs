//! Java-style throwables: what `%ex` renders.

use std::error::Error;
use std::fmt;
use std::sync::Arc;

/// How a frame joins its "class" and method when printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameStyle {
    /// `com.example.Service.handle(Service.java:30)`.
    Java,
    /// `my_app::db::query(db.rs:42)`.
    Rust,
}

/// One stack frame, printed by `%ex` as Java's `StackTraceElement.toString()`.
#[derive(Debug, PartialEq, Eq)]
pub struct StackFrame {
    /// The declaring class (Java) or module path (Rust).
    pub class: String,
    /// The method or function name.
    pub method: String,
    /// The file name, if known.
    pub file: Option<String>,
    /// The line: `-2` means a native method, other negative values an unknown line.
    pub line: i32,
    /// How `class` and `method` are joined.
    pub style: FrameStyle,
}

impl Clone for StackFrame {
    fn clone(&self) -> StackFrame {
        StackFrame {
            class: self.class.clone(),
            method: self.method.clone(),
            file: self.file.clone(),
            line: self.line,
            style: self.style,
        }
    }

    /// Copies `source` reusing `self`'s strings, so that asynchronous stages can snapshot a
    /// throwable per event without allocating once their buffers have grown.
    fn clone_from(&mut self, source: &StackFrame) {
        self.class.clone_from(&source.class);
        self.method.clone_from(&source.method);
        self.file.clone_from(&source.file);
        self.line = source.line;
        self.style = source.style;
    }
}

impl StackFrame {
    /// A Java frame (`class.method`).
    pub fn java(
        class: impl Into<String>,
        method: impl Into<String>,
        file: Option<&str>,
        line: i32,
    ) -> StackFrame {
        StackFrame {
            class: class.into(),
            method: method.into(),
            file: file.map(str::to_string),
            line,
            style: FrameStyle::Java,
        }
    }

    /// A Rust frame (`module::function`).
    pub fn rust(
        module: impl Into<String>,
        function: impl Into<String>,
        file: Option<&str>,
        line: i32,
    ) -> StackFrame {
        StackFrame {
            class: module.into(),
            method: function.into(),
            file: file.map(str::to_string),
            line,
            style: FrameStyle::Rust,
        }
    }

    /// Writes `class.method(file:line)` exactly as Java's `StackTraceElement.toString()` does:
    /// `(Native Method)` for line -2, `(Unknown Source)` without a file, `(file)` for a
    /// negative line.
    pub fn write_to(&self, out: &mut String) {
        out.push_str(&self.class);
        if !self.class.is_empty() {
            out.push_str(match self.style {
                FrameStyle::Java => ".",
                FrameStyle::Rust => "::",
            });
        }
        out.push_str(&self.method);
        out.push('(');
        if self.line == -2 {
            out.push_str("Native Method");
        } else {
            match &self.file {
                None => out.push_str("Unknown Source"),
                Some(file) => {
                    out.push_str(file);
                    if self.line >= 0 {
                        out.push(':');
                        let _ = fmt::Write::write_fmt(out, format_args!("{}", self.line));
                    }
                }
            }
        }
        out.push(')');
    }
}

impl fmt::Display for StackFrame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        self.write_to(&mut text);
        f.write_str(&text)
    }
}

/// An exception as log4j2 sees one: a type name, an optional message, stack frames, an
/// optional cause and suppressed throwables.
///
/// Build one from any error with [`Throwable::from_error`] (the source chain becomes the causes),
/// with [`Throwable::capture`] (adds a backtrace of the current thread, resolved once), or field by
/// field with [`Throwable::new`] and the `with_*` methods.
///
/// A throwable is immutable once built and shared between clones, as Java passes exceptions
/// by reference: cloning one (as an asynchronous stage does for every event that carries one)
/// bumps a reference count instead of copying its names and frames, so queuing it costs no
/// allocation. The `with_*` methods change a shared throwable by copying it first.
pub struct Throwable {
    parts: Arc<Parts>,
}

/// What a [`Throwable`] holds, behind the reference count its clones share.
#[derive(Clone, PartialEq, Eq)]
struct Parts {
    class_name: String,
    message: Option<String>,
    /// `None` when there are no frames (so an empty throwable owns no shared block). Shared
    /// on their own too, so that changing a copy (copy on write) does not copy every frame.
    frames: Option<Arc<[StackFrame]>>,
    cause: Option<Throwable>,
    suppressed: Vec<Throwable>,
}

impl Parts {
    /// A throwable of type `class_name` and nothing else.
    fn empty(class_name: String) -> Parts {
        Parts {
            class_name,
            message: None,
            frames: None,
            cause: None,
            suppressed: Vec::new(),
        }
    }
}

impl PartialEq for Throwable {
    fn eq(&self, other: &Throwable) -> bool {
        Arc::ptr_eq(&self.parts, &other.parts) || self.parts == other.parts
    }
}

impl Eq for Throwable {}

impl fmt::Debug for Throwable {
    /// The fields as a derived `Debug` would print them, with the frames as a list.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Throwable")
            .field("class_name", &self.parts.class_name)
            .field("message", &self.parts.message)
            .field("frames", &self.frames())
            .field("cause", &self.parts.cause)
            .field("suppressed", &self.parts.suppressed)
            .finish()
    }
}

impl Clone for Throwable {
    fn clone(&self) -> Throwable {
        Throwable {
            parts: Arc::clone(&self.parts),
        }
    }

    /// Shares `source`; when `self` already shares it (an asynchronous stage capturing the
    /// same throwable again), nothing is done, so the reference count's cache line is not
    /// touched.
    fn clone_from(&mut self, source: &Throwable) {
        if !Arc::ptr_eq(&self.parts, &source.parts) {
            self.parts = Arc::clone(&source.parts);
        }
    }
}

impl Throwable {
    /// Makes `self` the conversion of `error` (type `type_name`) and its source chain, as
    /// [`Throwable::from_dyn_error`] would, reusing `self`'s buffers.
    fn assign_from_error(&mut self, type_name: &str, error: &(dyn Error + 'static)) {
        self.assign_from_error_in(type_name, error, &mut Chain::starting_at(error));
    }

    /// [`Throwable::assign_from_error`] for an error of the source chain `chain` walked so far.
    fn assign_from_error_in<'a>(
        &mut self,
        type_name: &str,
        error: &'a (dyn Error + 'static),
        chain: &mut Chain<'a>,
    ) {
        let parts = self.parts_to_overwrite();
        parts.class_name.clear();
        parts.class_name.push_str(type_name);
        let message = parts.message.get_or_insert_with(String::new);
        message.clear();
        let _ = fmt::Write::write_fmt(message, format_args!("{error}"));
        parts.frames = None;
        parts.suppressed.clear();
        match chain.next(error) {
            Link::Source(source) => match &mut parts.cause {
                Some(cause) => {
                    cause.assign_from_error_in(dyn_error_type_name(source), source, chain)
                }
                None => parts.cause = Some(Throwable::from_dyn_error_in(source, chain)),
            },
            Link::Circular(source) => parts.cause = Some(Throwable::circular(source)),
            Link::End => parts.cause = None,
        }
    }

    /// The parts, for a caller that sets every one of them: `self`'s own when no clone shares
    /// them (so their buffers are reused), else new ones, leaving the clones as they were.
    fn parts_to_overwrite(&mut self) -> &mut Parts {
        if Arc::get_mut(&mut self.parts).is_none() {
            self.parts = Arc::new(Parts::empty(String::new()));
        }
        // Unique by now, so this never copies.
        Arc::make_mut(&mut self.parts)
    }

    /// The parts, for a caller that changes some of them: copied first when a clone shares
    /// them.
    fn parts_mut(&mut self) -> &mut Parts {
        Arc::make_mut(&mut self.parts)
    }

    /// The cause of `error` in the source chain `chain` walked so far.
    fn cause_in<'a>(error: &'a (dyn Error + 'static), chain: &mut Chain<'a>) -> Option<Throwable> {
        match chain.next(error) {
            Link::Source(source) => Some(Throwable::from_dyn_error_in(source, chain)),
            Link::Circular(source) => Some(Throwable::circular(source)),
            Link::End => None,
        }
    }

    /// [`Throwable::from_dyn_error`] for an error of the source chain `chain` walked so far.
    fn from_dyn_error_in<'a>(error: &'a (dyn Error + 'static), chain: &mut Chain<'a>) -> Throwable {
        let mut throwable =
            Throwable::new(dyn_error_type_name(error)).with_message(error.to_string());
        throwable.parts_mut().cause = Throwable::cause_in(error, chain);
        throwable
    }

    /// The stand-in for a source already in the chain: Java prints such a cause as
    /// `[CIRCULAR REFERENCE: <toString>]`; here it is the type name of the last cause.
    fn circular(source: &(dyn Error + 'static)) -> Throwable {
        Throwable::new(format!(
            "[CIRCULAR REFERENCE: {}: {source}]",
            dyn_error_type_name(source)
        ))
    }

    /// A throwable of type `class_name` with no message, frames, cause or suppressed throwables.
    pub fn new(class_name: impl Into<String>) -> Throwable {
        Throwable {
            parts: Arc::new(Parts::empty(class_name.into())),
        }
    }

    /// Sets the message (`getMessage()`).
    pub fn with_message(mut self, message: impl Into<String>) -> Throwable {
        self.parts_mut().message = Some(message.into());
        self
    }

    /// Sets the stack frames, innermost first.
    pub fn with_frames(mut self, frames: Vec<StackFrame>) -> Throwable {
        self.parts_mut().frames = (!frames.is_empty()).then(|| Arc::from(frames));
        self
    }

    /// Sets the cause (`Caused by:`).
    pub fn with_cause(mut self, cause: Throwable) -> Throwable {
        self.parts_mut().cause = Some(cause);
        self
    }

    /// Adds a suppressed throwable (`Suppressed:`).
    pub fn with_suppressed(mut self, suppressed: Throwable) -> Throwable {
        self.parts_mut().suppressed.push(suppressed);
        self
    }

    /// Converts an error and its `source()` chain. The top error's type name comes from the
    /// type system; sources are behind `dyn Error`, so their names are found by downcasting to
    /// well-known std types, else taken from the leading type name in their `Debug` output.
    pub fn from_error<E: Error + 'static>(error: &E) -> Throwable {
        let mut throwable =
            Throwable::new(std::any::type_name::<E>()).with_message(error.to_string());
        throwable.parts_mut().cause = Throwable::cause_in(error, &mut Chain::starting_at(error));
        throwable
    }

    /// Converts a `dyn Error` and its source chain (type names as in [`Throwable::from_error`]).
    pub fn from_dyn_error(error: &(dyn Error + 'static)) -> Throwable {
        Throwable::from_dyn_error_in(error, &mut Chain::starting_at(error))
    }

    /// Like [`Throwable::from_error`], with the current thread's backtrace as the frames of the
    /// top throwable. The backtrace is resolved here, once; rendering it later costs no symbol
    /// lookups.
    pub fn capture<E: Error + 'static>(error: &E) -> Throwable {
        let backtrace = std::backtrace::Backtrace::force_capture();
        let frames = frames_from_backtrace(&backtrace.to_string());
        Throwable::from_error(error).with_frames(frames)
    }

    /// The type name printed in the header line.
    pub fn class_name(&self) -> &str {
        &self.parts.class_name
    }

    /// The message, if any.
    pub fn message(&self) -> Option<&str> {
        self.parts.message.as_deref()
    }

    /// The frames, innermost first.
    pub fn frames(&self) -> &[StackFrame] {
        self.parts.frames.as_deref().unwrap_or(&[])
    }

    /// The cause.
    pub fn cause(&self) -> Option<&Throwable> {
        self.parts.cause.as_ref()
    }

    /// The suppressed throwables, in the order they were added.
    pub fn suppressed(&self) -> &[Throwable] {
        &self.parts.suppressed
    }

    /// The deepest cause (the throwable itself when it has none).
    pub fn root_cause(&self) -> &Throwable {
        let mut current = self;
        while let Some(cause) = current.cause() {
            current = cause;
        }
        current
    }

    /// Writes Java's `Throwable.toString()`: `class` or `class: message`.
    pub fn write_header(&self, out: &mut String) {
        out.push_str(&self.parts.class_name);
        if let Some(message) = &self.parts.message {
            out.push_str(": ");
            out.push_str(message);
        }
    }
}

impl fmt::Display for Throwable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut header = String::new();
        self.write_header(&mut header);
        f.write_str(&header)
    }
}

/// A throwable is an error: its `Display` is Java's `toString()` (`class: message`) and its
/// `source()` is its cause. So an l4rs throwable can be passed where an error is expected, as
/// a `tracing` field (`error = &throwable as &dyn Error`), and l4rs recognises it there and
/// renders its frames.
impl Error for Throwable {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.cause().map(|cause| cause as &(dyn Error + 'static))
    }
}

/// The throwable attached to one event, borrowed from the caller.
#[derive(Clone, Copy)]
pub enum ThrowableRef<'a> {
    /// A prepared throwable, rendered without any conversion.
    Throwable(&'a Throwable),
    /// An error passed straight to a log macro, with its static type name; converted to a
    /// [`Throwable`] only if a layout renders it.
    Error {
        /// The error.
        error: &'a (dyn Error + 'static),
        /// `std::any::type_name` of the error's type.
        type_name: &'static str,
    },
}

impl<'a> ThrowableRef<'a> {
    /// The event's throwable for an error known only as `dyn Error`: the throwable itself
    /// when the error is an l4rs [`Throwable`] (so its frames are rendered), else the error,
    /// converted only if a layout renders it, with its type name found as
    /// [`Throwable::from_dyn_error`] finds it.
    pub fn from_dyn_error(error: &'a (dyn Error + 'static)) -> ThrowableRef<'a> {
        match error.downcast_ref::<Throwable>() {
            Some(throwable) => ThrowableRef::Throwable(throwable),
            None => ThrowableRef::Error {
                error,
                type_name: dyn_error_type_name(error),
            },
        }
    }
}

impl ThrowableRef<'_> {
    /// The throwable as a [`Throwable`], borrowed when it already is one, converted otherwise.
    pub fn resolve(&self) -> std::borrow::Cow<'_, Throwable> {
        match *self {
            ThrowableRef::Throwable(throwable) => std::borrow::Cow::Borrowed(throwable),
            ThrowableRef::Error { error, type_name } => {
                let mut throwable = Throwable::new(type_name).with_message(error.to_string());
                throwable.parts_mut().cause =
                    Throwable::cause_in(error, &mut Chain::starting_at(error));
                std::borrow::Cow::Owned(throwable)
            }
        }
    }
}

impl ThrowableRef<'_> {
    /// Writes the throwable into `target` as an owned [`Throwable`] (what [`resolve`] returns):
    /// a prepared throwable is shared (a reference count), an error is converted into
    /// `target`'s own strings and boxes when no clone shares them. Asynchronous stages use it
    /// to keep a caller's throwable past the call without allocating once their slot has
    /// grown.
    ///
    /// [`resolve`]: ThrowableRef::resolve
    pub fn resolve_into(&self, target: &mut Throwable) {
        match *self {
            ThrowableRef::Throwable(throwable) => target.clone_from(throwable),
            ThrowableRef::Error { error, type_name } => target.assign_from_error(type_name, error),
        }
    }
}

impl fmt::Debug for ThrowableRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThrowableRef::Throwable(t) => write!(f, "Throwable({t})"),
            ThrowableRef::Error { type_name, error } => write!(f, "Error({type_name}: {error})"),
        }
    }
}

/// Turns the argument of `error = …` in the log macros into a [`ThrowableRef`].
///
/// Implemented for [`Throwable`], every `Error + 'static` type and `dyn Error`; boxed errors
/// reach the `dyn Error` impl through method-call auto-deref, which is how the macros call it.
pub trait AsThrowableRef {
    /// Borrows `self` as the event's throwable.
    fn as_throwable_ref(&self) -> ThrowableRef<'_>;
}

/// A [`Throwable`] (itself an `Error`) is borrowed as it is; any other error is converted
/// only if a layout renders it. The check is on the static type, so it costs nothing at run
/// time.
impl<E: Error + 'static> AsThrowableRef for E {
    fn as_throwable_ref(&self) -> ThrowableRef<'_> {
        match (self as &(dyn Error + 'static)).downcast_ref::<Throwable>() {
            Some(throwable) => ThrowableRef::Throwable(throwable),
            None => ThrowableRef::Error {
                error: self,
                type_name: std::any::type_name::<E>(),
            },
        }
    }
}

impl AsThrowableRef for dyn Error + 'static {
    fn as_throwable_ref(&self) -> ThrowableRef<'_> {
        ThrowableRef::from_dyn_error(self)
    }
}

impl AsThrowableRef for dyn Error + Send + Sync + 'static {
    fn as_throwable_ref(&self) -> ThrowableRef<'_> {
        ThrowableRef::from_dyn_error(self)
    }
}

/// How many errors of a `source()` chain are converted: a chain longer than any real one is
/// cut there (a `source()` that makes a new error each time never repeats a pointer).
const MAX_CHAIN: usize = 64;

/// The errors of a `source()` chain walked so far, to stop at one that comes back (an error
/// that is its own source overflowed the stack) and at [`MAX_CHAIN`]. On the stack: converting
/// a chain allocates nothing more than the throwables.
struct Chain<'a> {
    seen: [&'a (dyn Error + 'static); MAX_CHAIN],
    len: usize,
}

/// What follows an error in its source chain.
enum Link<'a> {
    /// A source not met before.
    Source(&'a (dyn Error + 'static)),
    /// A source already in the chain: the chain loops.
    Circular(&'a (dyn Error + 'static)),
    /// No source, or the chain is [`MAX_CHAIN`] long.
    End,
}

impl<'a> Chain<'a> {
    fn starting_at(error: &'a (dyn Error + 'static)) -> Chain<'a> {
        Chain {
            seen: [error; MAX_CHAIN],
            len: 1,
        }
    }

    /// True when `source` is an error of the chain: the same address and the same type. A
    /// wrapper and the error it holds at offset 0 share an address, so the address alone is
    /// not enough; the vtable tells the type apart but one type may have several, so the type
    /// name decides when the vtables differ (rare: only for equal addresses).
    fn has(&self, source: &(dyn Error + 'static)) -> bool {
        self.seen[..self.len].iter().any(|&seen| {
            std::ptr::addr_eq(seen, source)
                && (std::ptr::eq(seen, source)
                    || dyn_error_type_name(seen) == dyn_error_type_name(source))
        })
    }

    fn next(&mut self, error: &'a (dyn Error + 'static)) -> Link<'a> {
        let Some(source) = error.source() else {
            return Link::End;
        };
        if self.has(source) {
            return Link::Circular(source);
        }
        if self.len == MAX_CHAIN {
            return Link::End;
        }
        self.seen[self.len] = source;
        self.len += 1;
        Link::Source(source)
    }
}

fn dyn_error_type_name(error: &(dyn Error + 'static)) -> &'static str {
    macro_rules! known {
        ($($ty:ty),*) => {
            $(if error.is::<$ty>() { return std::any::type_name::<$ty>(); })*
        };
    }
    known!(
        std::io::Error,
        std::fmt::Error,
        std::num::ParseIntError,
        std::num::ParseFloatError,
        std::str::Utf8Error,
        std::string::FromUtf8Error,
        std::str::ParseBoolError,
        std::num::TryFromIntError,
        std::char::ParseCharError,
        std::net::AddrParseError,
        std::time::SystemTimeError,
        std::env::VarError
    );
    // A derived `Debug` starts with the type's own name (`ConfigError { .. }`, `Timeout(3)`).
    // Only that name is read: formatting stops at the first character after it, into a
    // buffer on the stack, and the name is found in the thread's cache of names met before,
    // so converting the same kinds of error again and again allocates nothing and takes no
    // lock (the `tracing` layer converts a `dyn Error` for every event that carries one).
    let mut leading = LeadingName::default();
    let _ = fmt::Write::write_fmt(&mut leading, format_args!("{error:?}"));
    let Some(name) = leading.name() else {
        return "std::error::Error";
    };
    thread_local! {
        static NAMES_MET: std::cell::RefCell<Vec<&'static str>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    NAMES_MET
        .try_with(|names| {
            let mut names = names.try_borrow_mut().ok()?;
            if let Some(known) = names.iter().find(|known| **known == name) {
                return Some(*known);
            }
            let interned = intern(name);
            if names.len() < NAMES_MET_PER_THREAD {
                names.push(interned);
            }
            Some(interned)
        })
        .ok()
        .flatten()
        .unwrap_or_else(|| intern(name))
}

/// How many source type names each thread remembers (a program has few error types; the
/// bound keeps the linear search short).
const NAMES_MET_PER_THREAD: usize = 64;

/// The identifier a `Debug` output starts with, collected on the stack: writing fails (which
/// stops the formatting) at the first character that cannot be part of it.
struct LeadingName {
    bytes: [u8; 128],
    len: usize,
    /// True when the name is longer than the buffer.
    overflow: bool,
}

impl Default for LeadingName {
    fn default() -> LeadingName {
        LeadingName {
            bytes: [0; 128],
            len: 0,
            overflow: false,
        }
    }
}

impl LeadingName {
    /// The name when it starts with an upper-case letter (a type name), as Rust names types.
    fn name(&self) -> Option<&str> {
        let name = std::str::from_utf8(&self.bytes[..self.len]).ok()?;
        (!self.overflow && name.chars().next().is_some_and(char::is_uppercase)).then_some(name)
    }
}

impl fmt::Write for LeadingName {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let end = text
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
            .map_or(text.len(), |(index, _)| index);
        let Some(room) = self.bytes.get_mut(self.len..self.len + end) else {
            self.overflow = true;
            return Err(fmt::Error);
        };
        room.copy_from_slice(&text.as_bytes()[..end]);
        self.len += end;
        if end < text.len() {
            Err(fmt::Error)
        } else {
            Ok(())
        }
    }
}

/// How many distinct source type names are kept for the process: names are leaked to be
/// `&'static`, so a program that makes up type names without end must not grow memory without
/// end. Past the bound, a new name is reported as `std::error::Error`.
const INTERNED_NAMES: usize = 4096;

/// Keeps each distinct source type name once, so a `&'static str` can name it. A name met
/// before is found by `&str` and costs no allocation: only a new one is copied (a thread that
/// met more names than it remembers comes here for each of them).
fn intern(name: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(|| Mutex::new(HashSet::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(existing) = names.get(name) {
        return existing;
    }
    if names.len() >= INTERNED_NAMES {
        return "std::error::Error";
    }
    let leaked: &'static str = Box::leak(Box::from(name));
    names.insert(leaked);
    leaked
}

/// Parses std's `Backtrace` display (`  3: my_app::db::query` then `at src/db.rs:42:9`) into
/// frames, dropping the frames of the capture machinery itself.
fn frames_from_backtrace(text: &str) -> Vec<StackFrame> {
    let mut frames: Vec<StackFrame> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(location) = trimmed.strip_prefix("at ") {
            if let Some(frame) = frames.last_mut() {
                let mut parts = location.rsplitn(3, ':');
                let _column = parts.next();
                let line_number = parts.next().and_then(|l| l.parse::<i32>().ok());
                let path = parts.next();
                if let (Some(path), Some(line_number)) = (path, line_number) {
                    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
                    frame.file = Some(file.to_string());
                    frame.line = line_number;
                }
            }
            continue;
        }
        let Some((index, symbol)) = trimmed.split_once(": ") else {
            continue;
        };
        if index.parse::<usize>().is_err() {
            continue;
        }
        let (module, function) = match symbol.rfind("::") {
            Some(split) => (&symbol[..split], &symbol[split + 2..]),
            None => ("", symbol),
        };
        frames.push(StackFrame::rust(module, function, None, -1));
    }
    let skip = frames
        .iter()
        .rposition(|frame| {
            frame.class.starts_with("std::backtrace")
                || (frame.class.ends_with("throwable::Throwable")
                    && frame.method.starts_with("capture"))
        })
        .map_or(0, |index| index + 1);
    frames.drain(..skip);
    // Below std's short-backtrace marker are only the runtime's start-up frames (the same cut
    // std's own short panic backtraces make).
    if let Some(end) = frames
        .iter()
        .position(|frame| frame.method.starts_with("__rust_begin_short_backtrace"))
    {
        frames.truncate(end);
    }
    frames
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error that is its own source (the review's probe review_cyclic_source.rs).
    #[derive(Debug)]
    struct OwnSource;
    impl fmt::Display for OwnSource {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("loop")
        }
    }
    impl Error for OwnSource {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(self)
        }
    }

    /// An error whose source is a new error each time: no pointer repeats.
    #[derive(Debug)]
    struct Endless(#[allow(dead_code)] u64);
    impl fmt::Display for Endless {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("endless")
        }
    }
    impl Error for Endless {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            // Leaked once per level: the test's chain is bounded by MAX_CHAIN.
            let next: &'static Endless = Box::leak(Box::new(Endless(0)));
            Some(next)
        }
    }

    fn chain_length(throwable: &Throwable) -> usize {
        std::iter::successors(Some(throwable), |t| Throwable::cause(t)).count()
    }

    #[test]
    fn a_source_chain_that_loops_ends_at_a_circular_reference() {
        let error: &(dyn Error + 'static) = &OwnSource;
        let expected = |throwable: &Throwable| {
            assert_eq!(chain_length(throwable), 2, "{throwable:?}");
            let cause = throwable.cause().expect("cause");
            assert!(
                cause.class_name().starts_with("[CIRCULAR REFERENCE: ")
                    && cause.class_name().ends_with(": loop]"),
                "{cause:?}"
            );
        };
        expected(&Throwable::from_error(&OwnSource));
        expected(&Throwable::from_dyn_error(error));
        expected(&ThrowableRef::from_dyn_error(error).resolve());
        // The reusing conversion, into a fresh target and into one that has causes already.
        let mut target = Throwable::new("");
        ThrowableRef::from_dyn_error(error).resolve_into(&mut target);
        expected(&target);
        ThrowableRef::from_dyn_error(error).resolve_into(&mut target);
        expected(&target);
    }

    #[test]
    fn a_name_is_interned_once() {
        let first = intern("InternedOnce");
        let again = intern(&String::from("InternedOnce"));
        assert!(std::ptr::eq(first, again));
        assert_eq!(first, "InternedOnce");
    }

    #[test]
    fn a_source_chain_that_never_ends_is_cut() {
        let error = Endless(0);
        let converted = Throwable::from_error(&error);
        assert_eq!(chain_length(&converted), MAX_CHAIN);
        let mut target = Throwable::new("");
        ThrowableRef::from_dyn_error(&error).resolve_into(&mut target);
        assert_eq!(chain_length(&target), MAX_CHAIN);
    }

    #[test]
    fn frames_print_like_java_stack_trace_elements() {
        let mut out = String::new();
        StackFrame::java("com.example.Service", "handle", Some("Service.java"), 30)
            .write_to(&mut out);
        out.push('|');
        StackFrame::java("a.B", "n", None, 3).write_to(&mut out);
        out.push('|');
        StackFrame::java("a.B", "n", Some("B.java"), -2).write_to(&mut out);
        out.push('|');
        StackFrame::java("a.B", "n", Some("B.java"), -1).write_to(&mut out);
        out.push('|');
        StackFrame::rust("app::db", "query", Some("db.rs"), 4).write_to(&mut out);
        assert_eq!(
            out,
            "com.example.Service.handle(Service.java:30)|a.B.n(Unknown Source)|a.B.n(Native Method)|a.B.n(B.java)|app::db::query(db.rs:4)"
        );
    }

    #[derive(Debug)]
    struct Outer(std::io::Error);
    impl fmt::Display for Outer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("outer failed")
        }
    }
    impl Error for Outer {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn errors_become_throwables_with_their_source_chain() {
        let error = Outer(std::io::Error::other("disk full"));
        let throwable = Throwable::from_error(&error);
        assert!(throwable.class_name().ends_with("Outer"));
        assert_eq!(throwable.message(), Some("outer failed"));
        let cause = throwable.cause().unwrap();
        assert_eq!(cause.class_name(), "std::io::error::Error");
        assert_eq!(cause.message(), Some("disk full"));
        assert_eq!(throwable.root_cause().message(), Some("disk full"));
    }

    #[test]
    fn clones_share_everything_and_copy_on_write() {
        let original = Throwable::new("x.Y").with_message("why");
        let copy = original.clone();
        assert!(std::ptr::eq(copy.class_name(), original.class_name()));
        assert!(std::ptr::eq(
            copy.message().unwrap(),
            original.message().unwrap()
        ));
        let changed = copy.with_message("other").with_cause(Throwable::new("x.C"));
        assert_eq!(original.message(), Some("why"));
        assert!(original.cause().is_none());
        assert_eq!(changed.message(), Some("other"));
        assert_eq!(changed.class_name(), "x.Y");
    }

    #[test]
    fn a_conversion_reuses_its_own_buffers_and_spares_a_shared_throwable() {
        let error = Outer(std::io::Error::other("disk full"));
        let mut target = Throwable::new("a.much.longer.class.name.than.the.error.has");
        let buffer = target.class_name().as_ptr();
        error.as_throwable_ref().resolve_into(&mut target);
        assert_eq!(target, *error.as_throwable_ref().resolve());
        assert_eq!(target.class_name().as_ptr(), buffer, "the buffer is reused");
        // Converting into a throwable that a clone shares leaves the clone as it was.
        let shared = target.clone();
        let before = format!("{shared:?}");
        std::fmt::Error.as_throwable_ref().resolve_into(&mut target);
        assert_eq!(
            format!("{shared:?}"),
            before,
            "a clone is never written through"
        );
        assert_eq!(target.class_name(), "core::fmt::Error");
    }

    #[test]
    fn clones_share_the_frames_instead_of_copying_them() {
        let original = Throwable::new("x.Y").with_frames(vec![
            StackFrame::java("a.B", "c", Some("B.java"), 3),
            StackFrame::rust("m", "f", None, -1),
        ]);
        let copy = original.clone();
        assert_eq!(copy, original);
        assert!(std::ptr::eq(copy.frames(), original.frames()));
        let mut target =
            Throwable::new("old").with_frames(vec![StackFrame::java("o", "p", None, 1)]);
        target.clone_from(&original);
        assert_eq!(target, original);
        assert!(std::ptr::eq(target.frames(), original.frames()));
        assert!(Throwable::new("x")
            .with_frames(Vec::new())
            .frames()
            .is_empty());
        assert_eq!(
            format!("{:?}", Throwable::new("x.Z")),
            r#"Throwable { class_name: "x.Z", message: None, frames: [], cause: None, suppressed: [] }"#
        );
    }

    #[test]
    fn resolve_into_matches_resolve_and_clone_from_copies() {
        let error = Outer(std::io::Error::other("disk full"));
        let reference = error.as_throwable_ref();
        let mut target = Throwable::new("old")
            .with_message("stale")
            .with_frames(vec![StackFrame::java("a.B", "c", None, 1)])
            .with_suppressed(Throwable::new("s"));
        reference.resolve_into(&mut target);
        assert_eq!(target, *reference.resolve());
        let prepared = Throwable::new("x.Y")
            .with_frames(vec![
                StackFrame::java("a.B", "c", Some("B.java"), 3),
                StackFrame::rust("m", "f", None, -1),
            ])
            .with_cause(Throwable::new("x.Cause").with_message("why"))
            .with_suppressed(Throwable::new("x.S"));
        prepared.as_throwable_ref().resolve_into(&mut target);
        assert_eq!(target, prepared);
        Throwable::new("short")
            .as_throwable_ref()
            .resolve_into(&mut target);
        assert_eq!(target, Throwable::new("short"));
    }

    #[test]
    fn captured_backtraces_start_at_the_caller() {
        let throwable = Throwable::capture(&std::fmt::Error);
        assert!(!throwable.frames().is_empty());
        let first = &throwable.frames()[0];
        assert!(
            first
                .method
                .contains("captured_backtraces_start_at_the_caller"),
            "{first:?}"
        );
    }

    #[test]
    fn any_error_or_throwable_converts_to_a_reference() {
        let throwable = Throwable::new("x.Y");
        assert!(matches!(
            throwable.as_throwable_ref(),
            ThrowableRef::Throwable(_)
        ));
        let boxed: Box<dyn Error + Send + Sync> = Box::new(std::fmt::Error);
        match boxed.as_throwable_ref() {
            ThrowableRef::Error { type_name, .. } => assert_eq!(type_name, "core::fmt::Error"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_throwable_behind_dyn_error_is_rendered_as_itself() {
        let throwable = Throwable::new("x.Y")
            .with_message("top")
            .with_cause(Throwable::new("x.Cause"));
        let error: &(dyn Error + 'static) = &throwable;
        match ThrowableRef::from_dyn_error(error) {
            ThrowableRef::Throwable(found) => assert!(std::ptr::eq(found, &throwable)),
            other => panic!("{other:?}"),
        }
        // Java's toString() as Display, the cause as the source.
        assert_eq!(error.to_string(), "x.Y: top");
        assert_eq!(
            error.source().map(|s| s.to_string()).as_deref(),
            Some("x.Cause")
        );
    }

    #[derive(Debug)]
    struct Timeout(#[allow(dead_code)] u32);
    impl fmt::Display for Timeout {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("timed out")
        }
    }
    impl Error for Timeout {}

    /// An error whose `Debug` is one very long identifier.
    struct LongName;
    impl fmt::Debug for LongName {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&"A".repeat(200))
        }
    }
    impl fmt::Display for LongName {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("long")
        }
    }
    impl Error for LongName {}

    #[test]
    fn a_dyn_error_is_named_by_the_start_of_its_debug_output() {
        let timeout: &(dyn Error + 'static) = &Timeout(3);
        assert_eq!(dyn_error_type_name(timeout), "Timeout");
        // Met again on this thread: the same interned name.
        assert!(std::ptr::eq(
            dyn_error_type_name(timeout),
            dyn_error_type_name(&Timeout(4))
        ));
        assert_eq!(dyn_error_type_name(&LongName), "std::error::Error");
        assert_eq!(
            dyn_error_type_name(&std::io::Error::other("x")),
            "std::io::error::Error"
        );
    }
}
