//! What tests need from outside the repository: the reference material in `../shared` beside
//! the checkout (log4j2's oracle and its scenarios, the configuration corpus, the pattern
//! cases) and tools such as the JDK.
//!
//! A test that cannot find what it needs is skipped with a notice on a developer's machine, and
//! fails under CI (`CI` set and not empty; `.ci/run` sets it), where everything must be there:
//! one rule, stated once, in [`skip_or_fail`].

use std::path::PathBuf;

/// Where `../shared` is: `L4RS_SHARED` when set (for a worktree that has no `shared/` beside
/// it), else `shared/` beside the workspace root.
pub fn shared_root() -> PathBuf {
    match std::env::var_os("L4RS_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => crate::workspace_root().join("../shared"),
    }
}

/// `relative` under [`shared_root`] (`"oracle/scenarios"`, `"reference/pattern-cases.tsv"`),
/// when it exists. When it does not, [`skip_or_fail`] for `what`: `None` with a notice, or a
/// panic under CI.
pub fn shared_path(relative: &str, what: &str) -> Option<PathBuf> {
    let path = shared_root().join(relative);
    if path.exists() {
        Some(path.canonicalize().unwrap_or(path))
    } else {
        skip_or_fail(
            what,
            &format!(
                "{} is missing (the reference material beside the checkout; set L4RS_SHARED to \
                 another copy)",
                path.display()
            ),
        );
        None
    }
}

/// True when running under CI (`CI` set and not empty).
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| !value.is_empty())
}

/// The test of `what` cannot run because `missing` (a sentence naming what is missing and how
/// to get it): under CI this panics with that sentence; elsewhere it prints
/// `skipping <what>: <missing>` to stderr and returns, and the caller returns early.
pub fn skip_or_fail(what: &str, missing: &str) {
    assert!(!under_ci(), "{what} must run under CI, but {missing}");
    eprintln!("skipping {what}: {missing}");
}
