//! The logging macros and the helpers they expand to.
//!
//! Every macro takes the logger first, then optionally `error = <expr>` (a reference to an
//! `l4rs::Throwable`, to any `std::error::Error + 'static`, or to a `Box<dyn Error>`, with or
//! without `+ Send + Sync`: `error = &boxed` works) and/or `marker = <expr>` (a `&Marker`, or
//! the `&Arc<Marker>` that `Marker::get` gives), then a format string and arguments as for
//! `format!`:
//!
//! ```no_run
//! let logger = l4rs::get_logger("app");
//! let error = std::io::Error::other("disk full");
//! l4rs::info!(logger, "started {} workers", 4);
//! l4rs::error!(logger, error = &error, "write failed after {} retries", 3);
//! ```
//!
//! A disabled call costs one atomic load; the location (`%C %M %F %L`) is fixed at compile
//! time and resolved once per call site.

pub use l4rs_core::location::{file_name_from_path, function_name_from_type_name};
pub use l4rs_core::throwable::AsThrowableRef;
pub use l4rs_core::Location;

/// `std::any::type_name` of a value's type; applied to a function item nested in the caller,
/// it names the caller.
#[doc(hidden)]
pub fn type_name_of<T>(_: T) -> &'static str {
    std::any::type_name::<T>()
}

/// Logs at an explicit level: `l4rs::log!(logger, Level::INFO, "x = {}", x)`.
#[macro_export]
macro_rules! log {
    ($logger:expr, $level:expr, error = $error:expr, marker = $marker:expr, $($arg:tt)+) => {
        $crate::__log_impl!($logger, $level, ::core::option::Option::Some(($error).as_throwable_ref()), ::core::option::Option::Some::<&$crate::Marker>($marker), $($arg)+)
    };
    ($logger:expr, $level:expr, marker = $marker:expr, error = $error:expr, $($arg:tt)+) => {
        $crate::__log_impl!($logger, $level, ::core::option::Option::Some(($error).as_throwable_ref()), ::core::option::Option::Some::<&$crate::Marker>($marker), $($arg)+)
    };
    ($logger:expr, $level:expr, error = $error:expr, $($arg:tt)+) => {
        $crate::__log_impl!($logger, $level, ::core::option::Option::Some(($error).as_throwable_ref()), ::core::option::Option::None, $($arg)+)
    };
    ($logger:expr, $level:expr, marker = $marker:expr, $($arg:tt)+) => {
        $crate::__log_impl!($logger, $level, ::core::option::Option::None, ::core::option::Option::Some::<&$crate::Marker>($marker), $($arg)+)
    };
    ($logger:expr, $level:expr, $($arg:tt)+) => {
        $crate::__log_impl!($logger, $level, ::core::option::Option::None, ::core::option::Option::None, $($arg)+)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __log_impl {
    ($logger:expr, $level:expr, $throwable:expr, $marker:expr, $($arg:tt)+) => {{
        // The error is converted with a method call, not a path call, so that auto-deref
        // takes `&Box<dyn Error>` (which is not itself an `Error`) to the `dyn Error` impl.
        #[allow(unused_imports)]
        use $crate::macros::AsThrowableRef as _;
        let __l4rs_logger: &$crate::Logger = &$logger;
        let __l4rs_level: $crate::Level = $level;
        if __l4rs_logger.is_enabled(__l4rs_level) {
            fn __l4rs_here() {}
            static __L4RS_LOCATION: ::std::sync::OnceLock<$crate::macros::Location<'static>> =
                ::std::sync::OnceLock::new();
            let __l4rs_location = __L4RS_LOCATION.get_or_init(|| $crate::macros::Location {
                class: ::core::module_path!(),
                method: $crate::macros::function_name_from_type_name(
                    $crate::macros::type_name_of(__l4rs_here),
                ),
                file: $crate::macros::file_name_from_path(::core::file!()),
                line: ::core::line!() as i32,
            });
            let _ = __l4rs_logger.log(
                __l4rs_level,
                ::core::option::Option::Some(__l4rs_location),
                $throwable,
                $marker,
                ::core::format_args!($($arg)+),
            );
        }
    }};
}

/// Logs at TRACE.
#[macro_export]
macro_rules! trace {
    ($logger:expr, $($rest:tt)+) => { $crate::log!($logger, $crate::Level::TRACE, $($rest)+) };
}

/// Logs at DEBUG.
#[macro_export]
macro_rules! debug {
    ($logger:expr, $($rest:tt)+) => { $crate::log!($logger, $crate::Level::DEBUG, $($rest)+) };
}

/// Logs at INFO.
#[macro_export]
macro_rules! info {
    ($logger:expr, $($rest:tt)+) => { $crate::log!($logger, $crate::Level::INFO, $($rest)+) };
}

/// Logs at WARN.
#[macro_export]
macro_rules! warn {
    ($logger:expr, $($rest:tt)+) => { $crate::log!($logger, $crate::Level::WARN, $($rest)+) };
}

/// Logs at ERROR.
#[macro_export]
macro_rules! error {
    ($logger:expr, $($rest:tt)+) => { $crate::log!($logger, $crate::Level::ERROR, $($rest)+) };
}

/// Logs at FATAL.
#[macro_export]
macro_rules! fatal {
    ($logger:expr, $($rest:tt)+) => { $crate::log!($logger, $crate::Level::FATAL, $($rest)+) };
}
