//! The `<Delete>` action bound from XML and run by a real rollover: which files each
//! condition accepts, evaluated as log4j2's `DeletingVisitor` evaluates them (the first
//! condition that rejects a file ends its evaluation, `IfAny` stops at the first that
//! accepts, so the accumulating conditions count only the files that reach them), in
//! log4j2's order (most recently modified first), and what happens to a `<Delete>` whose
//! configuration is wrong (it is dropped, never run with fewer conditions).

mod rolling_support;

use std::path::Path;
use std::sync::Arc;

use l4rs_core::status::GlobalCapture;
use l4rs_core::{Appender, Level};
use rolling_support::{
    bind, build, contents, errors_about, log_now, messages_about, names, now_millis,
    rolling_file_xml, set_modified, walk, TempDir, LINES, SIZE_1,
};

const HOUR: i64 = 3_600_000;

/// Writes `size` bytes to `dir/relative`, last modified `age` ms ago (negative: in the
/// future).
fn prepare(dir: &Path, relative: &str, age: i64, size: usize) {
    let path = dir.join(relative);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, vec![b'x'; size]).unwrap();
    set_modified(&path, now_millis() - age);
}

/// The files below `dir`, relative to it, sorted.
fn survivors(dir: &Path) -> Vec<String> {
    walk(dir)
        .iter()
        .map(|path| {
            path.strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect()
}

/// A RollingFile in `dir` rolling at every event (archives `app-%i.log`, never purged), whose
/// strategy holds `delete_xml`; `{base}` in it stands for `base`.
fn appender_xml(dir: &TempDir, base: &Path, delete_xml: &str) -> String {
    let delete_xml = delete_xml.replace("{base}", &base.display().to_string());
    rolling_file_xml(
        dir,
        "app-%i.log",
        &format!(
            r#"{SIZE_1}<DefaultRolloverStrategy fileIndex="nomax">{delete_xml}</DefaultRolloverStrategy>"#
        ),
    )
}

/// Prepares `files` (relative path, age in ms, size) under a fresh `old/` directory, runs one
/// rollover of an appender whose `<Delete basePath="old/" …>` is `delete_xml`, and returns
/// what is left under `old/`.
fn run_delete(delete_xml: &str, files: &[(&str, i64, usize)]) -> Vec<String> {
    let dir = TempDir::new("delete");
    let base = dir.path().join("old");
    std::fs::create_dir_all(&base).unwrap();
    for (relative, age, size) in files {
        prepare(&base, relative, *age, *size);
    }
    let appender = build(&appender_xml(&dir, &base, delete_xml));
    roll_once(appender.as_ref());
    survivors(&base)
}

/// Two events: the second rolls the first into `app-1.log` and runs the actions.
fn roll_once(appender: &dyn Appender) {
    log_now(appender, "first");
    log_now(appender, "second");
    appender.stop();
}

#[test]
fn sibling_conditions_count_only_the_files_the_earlier_ones_accept() {
    let dir = TempDir::new("siblings");
    // Older archives, an unrelated file modified "later" than everything (so offered first)
    // and the current file: only the archives may count towards the two kept.
    for n in 1..=4 {
        prepare(dir.path(), &format!("app-{n}.log.gz"), (6 - n) * HOUR, 10);
    }
    prepare(dir.path(), "notes.txt", -HOUR, 10);
    let strategy = format!(
        r#"<DefaultRolloverStrategy fileIndex="nomax">
             <Delete basePath="{}">
               <IfFileName glob="app-*.log.gz"/>
               <IfAccumulatedFileCount exceeds="2"/>
             </Delete>
           </DefaultRolloverStrategy>"#,
        dir.path().display()
    );
    let appender = build(&rolling_file_xml(
        &dir,
        "app-%i.log.gz",
        &format!("{SIZE_1}{strategy}"),
    ));
    roll_once(appender.as_ref());
    // The rollover's own archive (app-5, the newest) and app-4 are kept; app.log and
    // notes.txt are not counted and stay.
    assert_eq!(
        names(dir.path()),
        ["app-4.log.gz", "app-5.log.gz", "app.log", "notes.txt"]
    );
    assert_eq!(contents(&dir.path().join("app-5.log.gz")), "first\n");
}

#[test]
fn any_stops_at_the_first_child_that_accepts() {
    // Newest first: a.tmp is accepted by the glob, so the count does not see it; b.log is
    // the first file counted (kept), c.log the second (deleted).
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfAny><IfFileName glob="*.tmp"/><IfAccumulatedFileCount exceeds="1"/></IfAny></Delete>"#,
        &[
            ("a.tmp", HOUR, 1),
            ("b.log", 2 * HOUR, 1),
            ("c.log", 3 * HOUR, 1),
        ],
    );
    assert_eq!(left, ["b.log"]);
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfAny><IfFileName glob="*.tmp"/><IfLastModified age="1d"/></IfAny></Delete>"#,
        &[
            ("x.tmp", HOUR, 1),
            ("old.log", 48 * HOUR, 1),
            ("new.log", HOUR, 1),
        ],
    );
    assert_eq!(left, ["new.log"]);
}

#[test]
fn all_stops_at_the_first_child_that_rejects() {
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfAll><IfFileName glob="*.log"/><IfLastModified age="2h"/><IfAccumulatedFileCount exceeds="1"/></IfAll></Delete>"#,
        &[
            ("new.log", HOUR, 1),
            ("note.txt", 3 * HOUR, 1),
            ("old-1.log", 3 * HOUR, 1),
            ("old-2.log", 4 * HOUR, 1),
            ("old-3.log", 5 * HOUR, 1),
        ],
    );
    // new.log is too recent and note.txt not a .log: neither reaches the count, which keeps
    // the first old .log and deletes the others.
    assert_eq!(left, ["new.log", "note.txt", "old-1.log"]);
}

#[test]
fn file_names_by_regex_and_by_prefixed_glob_or_regex() {
    let files = [
        ("app-1.log", HOUR, 1),
        ("app-22.log", HOUR, 1),
        ("app-x.log", HOUR, 1),
        ("scratch.tmp", HOUR, 1),
        ("other.txt", HOUR, 1),
    ];
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfFileName regex="app-[0-9]+\.log"/></Delete>"#,
        &files,
    );
    assert_eq!(left, ["app-x.log", "other.txt", "scratch.tmp"]);
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfFileName glob="glob:app-?.log"/></Delete>"#,
        &files,
    );
    assert_eq!(left, ["app-22.log", "other.txt", "scratch.tmp"]);
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfFileName regex="regex:.*\.(tmp|txt)"/></Delete>"#,
        &files,
    );
    assert_eq!(left, ["app-1.log", "app-22.log", "app-x.log"]);
}

#[test]
fn max_depth_bounds_the_walk_and_paths_are_relative_to_the_base() {
    let files = [
        ("top.log", HOUR, 1),
        ("sub/a.log", HOUR, 1),
        ("sub/deeper/b.log", HOUR, 1),
    ];
    let left = run_delete(
        r#"<Delete basePath="{base}" maxDepth="2"><IfFileName glob="**.log"/></Delete>"#,
        &files,
    );
    assert_eq!(left, ["sub/deeper/b.log"]);
    // The default depth, 1: the files directly in basePath.
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfFileName glob="**.log"/></Delete>"#,
        &files,
    );
    assert_eq!(left, ["sub/a.log", "sub/deeper/b.log"]);
    // `*` does not cross a `/`: only sub/a.log is one directory down.
    let left = run_delete(
        r#"<Delete basePath="{base}" maxDepth="5"><IfFileName glob="*/*.log"/></Delete>"#,
        &files,
    );
    assert_eq!(left, ["sub/deeper/b.log", "top.log"]);
}

#[test]
fn last_modified_and_accumulated_size() {
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfFileName glob="*.log"><IfLastModified age="P1D"/></IfFileName></Delete>"#,
        &[("two-days.log", 48 * HOUR, 1), ("an-hour.log", HOUR, 1)],
    );
    assert_eq!(left, ["an-hour.log"]);
    // Newest first, 10 bytes each: 10, 20 are within 25 bytes, 30, 40, 50 exceed it.
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfAccumulatedFileSize exceeds="25 B"/></Delete>"#,
        &[
            ("f1.log", HOUR, 10),
            ("f2.log", 2 * HOUR, 10),
            ("f3.log", 3 * HOUR, 10),
            ("f4.log", 4 * HOUR, 10),
            ("f5.log", 5 * HOUR, 10),
        ],
    );
    assert_eq!(left, ["f1.log", "f2.log"]);
}

#[test]
fn not_and_oldest_first_sorting() {
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfNot><IfFileName glob="*.keep"/></IfNot></Delete>"#,
        &[("a.keep", HOUR, 1), ("b.log", HOUR, 1), ("c.txt", HOUR, 1)],
    );
    assert_eq!(left, ["a.keep"]);
    // Oldest first: the count keeps the two oldest.
    let left = run_delete(
        r#"<Delete basePath="{base}"><IfAccumulatedFileCount exceeds="2"/><SortByModificationTime recentFirst="false"/></Delete>"#,
        &[
            ("n1.log", HOUR, 1),
            ("n2.log", 2 * HOUR, 1),
            ("n3.log", 3 * HOUR, 1),
            ("n4.log", 4 * HOUR, 1),
        ],
    );
    assert_eq!(left, ["n3.log", "n4.log"]);
}

#[test]
fn test_mode_reports_and_deletes_nothing() {
    let capture = GlobalCapture::start();
    let left = run_delete(
        r#"<Delete basePath="{base}" testMode="true"><IfFileName glob="*.log"/></Delete>"#,
        &[("a.log", HOUR, 1), ("b.log", HOUR, 1)],
    );
    assert_eq!(left, ["a.log", "b.log"]);
    let reports = messages_about(&capture.records(), Level::INFO, "TEST MODE");
    assert_eq!(reports.len(), 2, "{reports:#?}");
}

/// Binds `delete_xml` (expected to be refused with an error containing `reason`), builds the
/// appender anyway, rolls once and returns what is left under `old/`.
fn refused_delete(delete_xml: &str, reason: &str, files: &[(&str, i64, usize)]) -> Vec<String> {
    let dir = TempDir::new("refused");
    let base = dir.path().join("old");
    std::fs::create_dir_all(&base).unwrap();
    for (relative, age, size) in files {
        prepare(&base, relative, *age, *size);
    }
    let (spec, diagnostics) = bind(&appender_xml(&dir, &base, delete_xml));
    assert!(
        diagnostics
            .iter()
            .any(|d| d.severity == l4rs_config::Severity::Error && d.message.contains(reason)),
        "{diagnostics:#?}"
    );
    let appender = l4rs_appenders::build_appender(&spec, Arc::new(LINES)).unwrap();
    roll_once(appender.as_ref());
    // The rollover itself happened.
    assert_eq!(names(dir.path()), ["app-1.log", "app.log"]);
    survivors(&base)
}

#[test]
fn a_delete_that_cannot_be_bound_deletes_nothing() {
    let files = [("app-1.log.gz", HOUR, 1), ("keep.txt", HOUR, 1)];
    // log4j2 drops the broken condition and, with none left, deletes everything under
    // basePath; l4rs drops the action.
    let left = refused_delete(
        r#"<Delete basePath="{base}"><IfFileName glob="app-[0-9.log.gz"/></Delete>"#,
        "Delete action on",
        &files,
    );
    assert_eq!(left, ["app-1.log.gz", "keep.txt"]);
    let left = refused_delete(
        r#"<Delete basePath="{base}"><IfFileName glob="*.gz"/><IfLastModified age="soon"/></Delete>"#,
        "Delete action on",
        &files,
    );
    assert_eq!(left, ["app-1.log.gz", "keep.txt"]);
    let left = refused_delete(
        r#"<Delete basePath="{base}"/>"#,
        "unconditional Delete not supported",
        &files,
    );
    assert_eq!(left, ["app-1.log.gz", "keep.txt"]);
    let left = refused_delete(
        r#"<Delete><IfFileName glob="*"/></Delete>"#,
        "No basePath provided for Delete",
        &files,
    );
    assert_eq!(left, ["app-1.log.gz", "keep.txt"]);
}

#[test]
fn a_delete_spec_built_in_code_with_a_bad_pattern_is_not_run() {
    // The configuration checks every pattern; a spec built by hand is checked again when
    // the appender starts, and refused the same way.
    let dir = TempDir::new("bad-spec");
    let base = dir.path().join("old");
    std::fs::create_dir_all(&base).unwrap();
    prepare(&base, "a.log", HOUR, 1);
    let (mut spec, diagnostics) = bind(&appender_xml(
        &dir,
        &base,
        r#"<Delete basePath="{base}"><IfFileName glob="*.log"/></Delete>"#,
    ));
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let l4rs_config::model::AppenderKind::RollingFile(file) = &mut spec.kind else {
        panic!("RollingFile");
    };
    let l4rs_config::model::RolloverStrategySpec::Default { actions, .. } =
        &mut file.rolling.strategy
    else {
        panic!("DefaultRolloverStrategy");
    };
    let l4rs_config::model::ActionSpec::Delete(delete) = &mut actions[0] else {
        panic!("a Delete action");
    };
    delete.conditions = vec![l4rs_config::model::PathConditionSpec::FileName {
        regex: "^(unclosed$".to_string(),
        nested: vec![],
    }];
    let capture = GlobalCapture::start();
    let appender = l4rs_appenders::build_appender(&spec, Arc::new(LINES)).unwrap();
    roll_once(appender.as_ref());
    let errors = errors_about(&capture.records(), &base.display().to_string());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].contains("is not run"), "{}", errors[0]);
    assert_eq!(survivors(&base), ["a.log"]);
}
