//! The file side effect of an appender that a later one of the same name replaced.
//!
//! log4j2 builds every appender in document order, so a replaced appender was built, and its
//! file opened, before the later definition replaced it. l4rs never builds it, but leaves its
//! file as log4j2 leaves it ([`l4rs_appenders::open_replaced_file`] says how).

use l4rs_config::model::AppenderSpec;
use l4rs_core::status;

/// Opens the file of `replaced` as building it would, reporting a failure as building would.
pub(crate) fn open_file(replaced: &AppenderSpec) {
    if let Err(error) = l4rs_appenders::open_replaced_file(replaced) {
        status::error(error.with_help());
    }
}

/// True when `replaced` comes before `survivor` in the document (or either position is
/// unknown, as in a configuration built in code: replaced appenders then go first).
pub(crate) fn precedes(replaced: &AppenderSpec, survivor: &AppenderSpec) -> bool {
    match (replaced.position, survivor.position) {
        (Some(replaced), Some(survivor)) => replaced < survivor,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    use l4rs_config::model::AppenderKind;
    use l4rs_test_support::TempDir;

    fn open_files(replaced: &[AppenderSpec]) {
        replaced.iter().for_each(open_file);
    }

    /// The one appender of a configuration whose `<Appenders>` holds `appender` alone.
    fn only_appender(appender: &str) -> AppenderSpec {
        let xml = format!(
            r#"<Configuration><Appenders>{appender}</Appenders>
               <Loggers><Root level="info"/></Loggers></Configuration>"#
        );
        l4rs_config::load_str(&xml, None)
            .unwrap()
            .appenders
            .remove(0)
    }

    fn file_spec(file_name: String, append: bool, create_on_demand: bool) -> AppenderSpec {
        let spec = only_appender(&format!(
            r#"<File name="F" fileName="{file_name}" append="{append}"
               createOnDemand="{create_on_demand}"/>"#
        ));
        assert!(matches!(spec.kind, AppenderKind::File(_)));
        spec
    }

    #[test]
    fn creates_the_file_and_its_directories() {
        let dir = TempDir::new("create");
        let path = dir.file("a/b/first.log");
        open_files(&[file_spec(path.clone(), true, false)]);
        assert_eq!(std::fs::read(&path).unwrap(), b"");
    }

    #[test]
    fn truncates_only_without_append() {
        let dir = TempDir::new("truncate");
        let kept = dir.file("kept.log");
        let truncated = dir.file("truncated.log");
        std::fs::write(&kept, "old\n").unwrap();
        std::fs::write(&truncated, "old\n").unwrap();
        open_files(&[
            file_spec(kept.clone(), true, false),
            file_spec(truncated.clone(), false, false),
        ]);
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "old\n");
        assert_eq!(std::fs::read_to_string(&truncated).unwrap(), "");
    }

    #[test]
    fn create_on_demand_leaves_the_file_alone() {
        let dir = TempDir::new("on-demand");
        let path = dir.file("lazy/never.log");
        open_files(&[file_spec(path.clone(), false, true)]);
        assert!(!Path::new(&path).exists());
    }

    fn mmf_spec(file_name: &str, append: bool, region_length: &str) -> AppenderSpec {
        let spec = only_appender(&format!(
            r#"<MemoryMappedFile name="M" fileName="{file_name}"
               append="{append}" regionLength="{region_length}"/>"#
        ));
        assert!(matches!(spec.kind, AppenderKind::MemoryMappedFile(_)));
        spec
    }

    #[test]
    fn a_memory_mapped_file_grows_by_its_region() {
        let dir = TempDir::new("mmf");
        let path = dir.file("m.log");
        std::fs::write(&path, "0123").unwrap();
        open_files(&[mmf_spec(&path, true, "4096")]);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 4100);
        let truncated = dir.file("t.log");
        std::fs::write(&truncated, "0123").unwrap();
        open_files(&[mmf_spec(&truncated, false, "4096")]);
        assert_eq!(std::fs::metadata(&truncated).unwrap().len(), 4096);
        assert!(std::fs::read(&truncated).unwrap().iter().all(|b| *b == 0));
    }

    /// Each reload builds the replaced appender again; log4j2 hands it the manager the first
    /// build left registered, so the file grows once.
    #[test]
    fn a_memory_mapped_file_grows_once_however_often_it_is_replaced() {
        let dir = TempDir::new("mmf-again");
        let path = dir.file("m.log");
        for _ in 0..3 {
            open_files(&[mmf_spec(&path, true, "4096")]);
        }
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 4096);
    }

    #[test]
    fn a_memory_mapped_file_grows_by_a_valid_region_as_building_reports_it() {
        let dir = TempDir::new("mmf-rounded");
        let path = dir.file("m.log");
        let ((), records) = status::capture(|| open_files(&[mmf_spec(&path, false, "1000")]));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 1024);
        let messages: Vec<String> = records.iter().map(|r| r.message.clone()).collect();
        assert!(
            messages.iter().any(|m| m
                == "MemoryMappedAppender[M] Rounded up region length from 1000 to next power of two: 1024"),
            "{messages:?}"
        );
    }

    /// Why opening `spec`'s file fails; panics when it opens.
    fn open_error(spec: &AppenderSpec) -> String {
        l4rs_appenders::open_replaced_file(spec)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn an_unopenable_file_is_reported_as_log4j2_words_it() {
        let dir = TempDir::new("unopenable");
        let error = open_error(&file_spec(dir.path().display().to_string(), true, false));
        assert!(
            error.starts_with("FileManager (") && error.contains("java.io.FileNotFoundException"),
            "{error}"
        );
    }

    #[test]
    fn a_parent_that_is_a_file_is_reported_as_log4j2_words_it() {
        let dir = TempDir::new("parent-file");
        let parent = dir.file("plain");
        std::fs::write(&parent, "").unwrap();
        let error = open_error(&file_spec(format!("{parent}/child.log"), true, false));
        assert!(
            error.starts_with("FileManager (") && error.contains("exists and is not a directory"),
            "{error}"
        );
    }

    /// Builds (and stops) a context from `appenders`; `x.log` held "old" before.
    fn build_on_old_file(label: &str, appenders: &str) -> String {
        let dir = TempDir::new(label);
        let path = dir.file("x.log");
        std::fs::write(&path, "old\n").unwrap();
        let xml = format!(
            r#"<Configuration><Appenders>{}</Appenders><Loggers><Root level="off"/></Loggers></Configuration>"#,
            appenders.replace("PATH", &path)
        );
        let configuration = l4rs_config::load_str(&xml, None).expect("configuration parses");
        assert_eq!(configuration.replaced_appenders.len(), 1);
        let (context, _) = crate::context::Context::build(configuration);
        let content = std::fs::read_to_string(&path).unwrap();
        context.stop();
        content
    }

    #[test]
    fn a_replaced_appender_leaves_a_file_an_earlier_survivor_already_has_alone() {
        // log4j2 builds in document order: A's manager exists when B is built, so B shares it
        // and the file is not opened (nor truncated) again.
        let content = build_on_old_file(
            "survivor-first",
            r#"<File name="A" fileName="PATH"/><File name="B" fileName="PATH" append="false"/>
               <Console name="B"/>"#,
        );
        assert_eq!(content, "old\n");
    }

    #[test]
    fn a_replaced_appender_before_the_survivor_truncates_as_log4j2_does() {
        let content = build_on_old_file(
            "replaced-first",
            r#"<File name="B" fileName="PATH" append="false"/><File name="A" fileName="PATH"/>
               <Console name="B"/>"#,
        );
        assert_eq!(content, "");
    }

    #[test]
    fn a_live_manager_of_the_running_configuration_keeps_its_file() {
        let dir = TempDir::new("live");
        let path = dir.file("x.log");
        std::fs::write(&path, "old\n").unwrap();
        let running = l4rs_config::load_str(
            &format!(
                r#"<Configuration><Appenders><File name="A" fileName="{path}"/></Appenders>
                   <Loggers><Root level="off"/></Loggers></Configuration>"#
            ),
            None,
        )
        .unwrap();
        let (running, _) = crate::context::Context::build(running);
        // The next configuration, built before the running one stops (as a reconfiguration
        // does), replaces an append="false" File on the same file.
        open_file(&file_spec(path.clone(), false, false));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\n");
        running.stop();
        open_file(&file_spec(path.clone(), false, false));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "",
            "no live manager any more"
        );
    }
}
