//! The source location of a log call, captured at compile time by the macros.

/// Where a log call was made: log4j2's `StackTraceElement` of the caller.
///
/// The macros fill it from `module_path!()`, the enclosing function's name, `file!()` and
/// `line!()`; no stack is ever walked at run time. `%C` prints `class`, `%M` `method`, `%F`
/// `file`, `%L` `line`, and `%l` all four as `class.method(file:line)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location<'a> {
    /// The caller's "class": the module path in Rust (`my_app::db`), the class name for events
    /// replayed from Java.
    pub class: &'a str,
    /// The calling function's name (without its module path).
    pub method: &'a str,
    /// The source file name as printed by `%F`.
    pub file: &'a str,
    /// The line number; log4j2 prints negative numbers as they are.
    pub line: i32,
}

/// The [`Location::method`] of a call whose function is not known (a `log` record or a
/// `tracing` event): `%M` prints `?`, the placeholder log4j prints for location it lacks.
pub const UNKNOWN_METHOD: &str = "?";

/// Reduces a `std::any::type_name` of a function item nested in the caller to the caller's
/// own name: `my_app::db::query::__l4rs_here` becomes `query`, and closures are skipped so that
/// a call inside `|| …` in `run` reports `run`.
///
/// Used by the logging macros; the result borrows from the input, so nothing is allocated.
pub fn function_name_from_type_name(type_name: &'static str) -> &'static str {
    let mut path = type_name;
    if let Some(stripped) = path.strip_suffix("::__l4rs_here") {
        path = stripped;
    }
    while let Some(stripped) = path.strip_suffix("::{{closure}}") {
        path = stripped;
    }
    match path.rfind("::") {
        Some(index) => &path[index + 2..],
        None => path,
    }
}

/// Keeps only the file name of a source path, as Java's `StackTraceElement` holds only the
/// file name (`src/db/pool.rs` becomes `pool.rs`; `/` and `\` both separate folders).
///
/// The result borrows from `path` for as long as `path` lives: `'static` for the macros'
/// `file!()`, the record's lifetime for a `log` record's file.
pub fn file_name_from_path(path: &str) -> &str {
    match path.rfind(['/', '\\']) {
        Some(index) => &path[index + 1..],
        None => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_names_lose_their_path_and_closures() {
        assert_eq!(
            function_name_from_type_name("app::db::query::__l4rs_here"),
            "query"
        );
        assert_eq!(
            function_name_from_type_name("app::run::{{closure}}::{{closure}}::__l4rs_here"),
            "run"
        );
        assert_eq!(function_name_from_type_name("main::__l4rs_here"), "main");
    }

    #[test]
    fn file_names_drop_directories() {
        assert_eq!(file_name_from_path("src/db/pool.rs"), "pool.rs");
        assert_eq!(file_name_from_path("lib.rs"), "lib.rs");
        assert_eq!(file_name_from_path(r"src\db\pool.rs"), "pool.rs");
        // A path that is not 'static (a `log` record's, read into a reused string).
        let owned = String::from("crates/app/src/main.rs");
        assert_eq!(file_name_from_path(&owned), "main.rs");
    }
}
