//! The programmatic reconfiguration API: `set_level`, `set_root_level`, `reconfigure` and
//! `reconfigure_with_file`, with log4j2's `Configurator` semantics. The configuration is global,
//! so the tests take turns.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use l4rs::Level;

/// Serialises the tests of this file: they replace the one process-wide configuration.
fn turn() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

/// A configuration where `app` (INFO, non-additive) writes to app.log and the root (INFO) to
/// root.log, in the fresh directory `name`; returns the directory and the file.
fn start(name: &str) -> (PathBuf, PathBuf) {
    let dir = l4rs_tests::fresh_output_dir(name);
    let xml = l4rs_tests::files_config(
        dir.display(),
        &[("App", "%c %p %m%n"), ("Root", "%c %p %m%n")],
        &[("app", "info", "App")],
        r#"<Root level="info"><AppenderRef ref="Root"/></Root>"#,
    );
    let config = l4rs_tests::write_config(&dir, &xml);
    l4rs::init_with_file(&config).expect("configuration loads cleanly");
    (dir, config)
}

fn lines(dir: &Path, file: &str) -> Vec<String> {
    l4rs::flush();
    l4rs_tests::read_lines(&dir.join(file))
}

#[test]
fn set_level_changes_an_existing_logger_config_only() {
    let _turn = turn();
    let (dir, _) = start("reconfigure-api-existing");
    let app = l4rs::get_logger("app.module");
    l4rs::debug!(app, "hidden");
    assert_eq!(log::max_level(), log::LevelFilter::Info);
    l4rs::set_level("app", Level::DEBUG).expect("level set");
    assert_eq!(app.level(), Level::DEBUG);
    // The `log` crate's own check follows the most verbose logger.
    assert_eq!(log::max_level(), log::LevelFilter::Debug);
    assert_eq!(app.config_name(), "app");
    l4rs::debug!(app, "shown");
    // The root keeps its level; the logger keeps its appender and additivity.
    l4rs::debug!(l4rs::get_logger("other"), "root hidden");
    assert_eq!(lines(&dir, "app.log"), ["app.module DEBUG shown"]);
    assert!(lines(&dir, "root.log").is_empty());
}

#[test]
fn set_level_with_a_rust_path_changes_the_dotted_logger_config() {
    let _turn = turn();
    let dir = l4rs_tests::fresh_output_dir("reconfigure-api-rust-path");
    let xml = l4rs_tests::files_config(
        dir.display(),
        &[("App", "%c %p %m%n"), ("Root", "%c %p %m%n")],
        &[("my_app.db", "info", "App")],
        r#"<Root level="info"><AppenderRef ref="Root"/></Root>"#,
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).expect("loads cleanly");
    // `my_app::db` names the configured `my_app.db`: its appender and additivity stay, and
    // it keeps owning the loggers below it.
    l4rs::set_level("my_app::db", Level::DEBUG).expect("level set");
    let pool = l4rs::get_logger("my_app::db::pool");
    assert_eq!(pool.config_name(), "my_app.db");
    assert_eq!(pool.level(), Level::DEBUG);
    l4rs::debug!(pool, "shown");
    assert_eq!(lines(&dir, "app.log"), ["my_app::db::pool DEBUG shown"]);
    assert!(lines(&dir, "root.log").is_empty());
}

#[test]
fn set_level_on_a_name_without_config_creates_one_inheriting_from_its_parent() {
    let _turn = turn();
    let (dir, _) = start("reconfigure-api-new-name");
    let below = l4rs::get_logger("svc.db.pool");
    let sibling = l4rs::get_logger("svc.http");
    assert_eq!(below.config_name(), "");
    l4rs::set_level("svc.db", Level::TRACE).expect("level set");
    // The new config owns the names below it and is additive with no appenders of its own: its
    // events reach the root's appender, and the root's level still governs the rest.
    assert_eq!(below.config_name(), "svc.db");
    assert_eq!(below.level(), Level::TRACE);
    assert_eq!(sibling.level(), Level::INFO);
    l4rs::trace!(below, "traced");
    l4rs::debug!(sibling, "not traced");
    assert_eq!(lines(&dir, "root.log"), ["svc.db.pool TRACE traced"]);
    assert!(lines(&dir, "app.log").is_empty());
}

#[test]
fn set_root_level_changes_the_root_and_what_inherits_it() {
    let _turn = turn();
    let (dir, _) = start("reconfigure-api-root");
    let other = l4rs::get_logger("other");
    l4rs::set_root_level(Level::WARN).expect("level set");
    assert_eq!(other.level(), Level::WARN);
    l4rs::info!(other, "dropped");
    l4rs::warn!(other, "kept");
    // `app` has its own level.
    l4rs::info!(l4rs::get_logger("app"), "app kept");
    assert_eq!(lines(&dir, "root.log"), ["other WARN kept"]);
    assert_eq!(lines(&dir, "app.log"), ["app INFO app kept"]);
    // The next reload of the file forgets the change, as in log4j2.
    l4rs::reconfigure().expect("the file loads again");
    assert_eq!(other.level(), Level::INFO);
}

#[test]
fn reconfigure_with_a_missing_file_returns_an_error_and_changes_nothing() {
    let _turn = turn();
    let (dir, _) = start("reconfigure-api-missing");
    let other = l4rs::get_logger("other");
    l4rs::info!(other, "before");
    let error = l4rs::reconfigure_with_file(dir.join("does-not-exist.xml"))
        .expect_err("a missing file is an error");
    assert!(matches!(error, l4rs::Error::Config(_)), "{error:?}");
    assert!(error.to_string().contains("does-not-exist.xml"), "{error}");
    l4rs::info!(other, "after");
    assert_eq!(
        lines(&dir, "root.log"),
        ["other INFO before", "other INFO after"]
    );
    assert_eq!(l4rs::active_appenders(), ["App", "Root"]);
}

#[test]
fn reconfigure_reloads_the_file_in_force_into_the_same_files() {
    let _turn = turn();
    let (dir, config) = start("reconfigure-api-reload");
    let other = l4rs::get_logger("other");
    l4rs::info!(other, "old layout");
    let xml = l4rs_tests::files_config(
        dir.display(),
        &[("Root", "new %p %m%n")],
        &[],
        r#"<Root level="info"><AppenderRef ref="Root"/></Root>"#,
    );
    std::fs::write(&config, xml).expect("rewrite");
    l4rs::reconfigure().expect("reloads");
    l4rs::info!(other, "new layout");
    // The file was neither truncated nor reopened; the App appender is gone.
    assert_eq!(
        lines(&dir, "root.log"),
        ["other INFO old layout", "new INFO new layout"]
    );
    assert_eq!(l4rs::active_appenders(), ["Root"]);
}

/// The appender on a file changes type at each reload (File, then MemoryMappedFile, then
/// RandomAccessFile with `append="false"`, then File again): each takes the file over where
/// the previous one left it, with nothing lost, no NUL padding and no truncation. log4j2
/// refuses the second manager of the file ("Configuration has multiple incompatible Appenders
/// pointing to the same resource", `AbstractManager.narrow`) and loses the events meant for it.
#[test]
fn reconfigure_onto_another_type_of_appender_continues_the_file() {
    let _turn = turn();
    let dir = l4rs_tests::fresh_output_dir("reconfigure-api-type-change");
    let file = dir.join("main.log");
    let appenders = [
        r#"<File name="Main" fileName="FILE" bufferedIO="true" immediateFlush="false">"#,
        r#"<MemoryMappedFile name="Main" fileName="FILE" regionLength="4096">"#,
        r#"<RandomAccessFile name="Main" fileName="FILE" append="false" immediateFlush="false">"#,
        r#"<File name="Main" fileName="FILE" append="false">"#,
    ];
    let logger = l4rs::get_logger("typed");
    let mut expected = Vec::new();
    for (version, element) in appenders.iter().enumerate() {
        let kind = &element[1..element.find(' ').expect("a space")];
        let xml = format!(
            r#"<Configuration><Appenders>{}<PatternLayout pattern="{kind} %m%n"/></{kind}></Appenders><Loggers><Root level="info"><AppenderRef ref="Main"/></Root></Loggers></Configuration>"#,
            element.replace("FILE", &file.display().to_string())
        );
        let config = l4rs_tests::write_config(&dir, &xml);
        if version == 0 {
            l4rs::init_with_file(&config).expect("configuration loads cleanly");
        } else {
            l4rs::reconfigure_with_file(&config).expect("configuration loads cleanly");
        }
        for event in 0..3 {
            l4rs::info!(logger, "v{version} e{event}");
            expected.push(format!("{kind} v{version} e{event}"));
        }
    }
    // A configuration without the file closes its manager.
    let park = l4rs_tests::write_config(
        &dir,
        r#"<Configuration><Loggers><Root level="off"/></Loggers></Configuration>"#,
    );
    l4rs::reconfigure_with_file(&park).expect("configuration loads cleanly");
    let bytes = std::fs::read(&file).expect("read");
    assert!(!bytes.contains(&0), "NUL bytes in {bytes:?}");
    assert_eq!(l4rs_tests::read_lines(&file), expected);
}
