//! The vocabulary every other l4rs crate speaks.
//!
//! `l4rs-core` holds the types that travel through the logging pipeline and the traits that the
//! pipeline's stages implement:
//!
//! * [`Level`] with log4j2's integer levels and a registry for custom levels;
//! * [`LogEvent`], a borrowed view of one log call that costs nothing to build;
//! * [`Throwable`], a Java-style exception (type name, message, frames, cause, suppressed);
//! * [`Marker`], [`ContextMap`] (MDC) and [`ContextStack`] (NDC);
//! * the [`Appender`], [`Layout`] and [`Filter`] traits;
//! * the [`status`] logger, which reports configuration and runtime problems the way log4j2's
//!   `StatusLogger` does.
//!
//! Nothing here performs I/O except the status logger, which writes to stderr, [`fs`], which
//! opens files without blocking for the crates that do, and a hidden `socket` module, which
//! sets the options of the sockets the socket appenders open.

pub mod appender;
pub mod batch;
pub mod buffer;
pub mod calendar;
pub mod context;
pub mod event;
pub mod filter;
pub mod fs;
pub mod interpolate;
pub mod layout;
pub mod level;
pub mod location;
pub mod marker;
// For l4rs's own crates (the socket appenders and their tests), not an API of l4rs-core: the
// calls take a raw descriptor the caller must keep open.
#[doc(hidden)]
pub mod socket;
pub mod status;
pub mod throwable;
pub mod time;

pub use appender::{AppendError, Appender};
pub use context::{ContextMap, ContextStack};
pub use event::{LogEvent, Message, Rendered, ThreadInfo};
pub use filter::{Filter, FilterResult};
pub use interpolate::Interpolator;
pub use layout::{Layout, LayoutId};
pub use level::{Level, LevelParseError};
pub use location::Location;
pub use marker::Marker;
pub use throwable::{StackFrame, Throwable, ThrowableRef};
pub use time::Timestamp;
