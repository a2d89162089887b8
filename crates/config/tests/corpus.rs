//! Loads every configuration of the real-world corpus: none may panic, each either loads
//! (cleanly or with diagnostics) or is rejected as unparseable; every file that uses only
//! plugins l4rs implements builds the same appenders, loggers, levels and filters as log4j2.
//!
//! The per-file classification is `docs/compatibility-corpus.md` at the workspace root; the
//! test fails when that file is not what it would generate. `L4RS_WRITE_CORPUS_REPORT=1`
//! rewrites it.
//!
//! The comparison with log4j2 needs Java and Debian's log4j2 jars; without them it is skipped
//! with a notice, except under CI (`CI` set), where it fails.

mod corpus_oracle;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use l4rs_config::model::AppenderKind;
use l4rs_config::{load_file_with, Configuration, LoadOptions, Severity};
use l4rs_test_support::shared::{shared_path, skip_or_fail};

/// The corpus index: per file, its feature notes (`test-only-plugins:List; …`).
fn read_index(dir: &Path) -> HashMap<String, String> {
    std::fs::read_to_string(dir.join("INDEX.tsv"))
        .unwrap_or_default()
        .lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            Some((
                fields.first()?.to_string(),
                fields.get(4).copied().unwrap_or("").to_string(),
            ))
        })
        .collect()
}

/// The index's `key:a|b` feature values.
fn feature_values(features: &str, key: &str) -> Vec<String> {
    features
        .split(';')
        .map(str::trim)
        .filter_map(|feature| feature.strip_prefix(key))
        .flat_map(|values| values.split('|').map(str::to_string))
        .collect()
}

/// How a file fares, for the report.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Supported,
    /// Loads as log4j2 2.19 loads it by default: its scripts are refused (l4rs runs none, and
    /// log4j2 runs none without `log4j2.Script.enableLanguages`), with log4j2's errors.
    ScriptsRefused,
    /// A JDBC appender whose database only Java reaches: a `<DataSource>` (JNDI) or a
    /// `<ConnectionFactory>` (a Java method), refused with log4j2's own messages (log4j2 2.19
    /// refuses them too without JNDI enabled or the factory's class), or a JDBC URL of a
    /// database l4rs has no driver for (H2, HSQLDB), which loads as in log4j2 and fails when
    /// the appender is built, as log4j2's fails to connect without the driver's jar.
    JavaOnlyDatabase,
    UnsupportedPlugins(Vec<String>),
    IntentionallyBroken,
    Other,
}

impl Class {
    fn label(&self) -> String {
        match self {
            Class::Supported => "supported".to_string(),
            Class::ScriptsRefused => {
                "scripts refused as log4j2 refuses them by default".to_string()
            }
            Class::JavaOnlyDatabase => "database only Java reaches".to_string(),
            Class::UnsupportedPlugins(plugins) => {
                format!("uses-unsupported-plugin ({})", plugins.join(", "))
            }
            Class::IntentionallyBroken => "intentionally broken".to_string(),
            Class::Other => "other".to_string(),
        }
    }
}

/// The plugins a file uses that l4rs lacks, one entry per name: log4j2 plugins the load
/// reported as not available, and the test-only plugins the index names (log4j2's own test
/// suite defines `List` and friends; whether they appear as unknown elements or as leftover
/// attributes depends on their children). An unknown element that is neither is a typo, not
/// a plugin: it only makes the file not supported.
fn unsupported_plugins(config: &Configuration, features: &str) -> Vec<String> {
    let mut plugins: BTreeMap<String, String> = BTreeMap::new();
    for test_plugin in feature_values(features, "test-only-plugins:") {
        let label = format!("{test_plugin} (log4j2 test plugin)");
        plugins.insert(test_plugin, label);
    }
    for diagnostic in &config.diagnostics {
        let missing = diagnostic
            .message
            .strip_prefix("plugin ")
            .and_then(|rest| rest.split_once(" is not available in l4rs yet"))
            .map(|(name, _)| name);
        if let Some(name) = missing {
            plugins
                .entry(name.to_string())
                .or_insert_with(|| name.to_string());
        }
    }
    plugins.into_values().collect()
}

/// True for an error that a refused script gives, or that follows from one: the refusal, a
/// script file the corpus lacks, the plugin or the `<Delete>` not created, and references to
/// the appenders that were not.
fn follows_from_refused_scripts(message: &str) -> bool {
    const CAUSED: &[&str] = &[
        "Script support is not enabled",
        "FileNotFoundException: language=",
        "Null object returned for Script",
        "Null object returned for Routing in Appenders.",
        "No routes defined for RoutingAppender ",
        "Delete action on ",
        "Unable to locate appender ",
    ];
    CAUSED.iter().any(|caused| message.starts_with(caused))
}

/// The errors of a JDBC connection source only Java can use, and what follows from them: the
/// source's own refusal (JNDI off, the factory's class absent or not named), the appender not
/// created for want of a source, and references to it.
fn follows_from_java_only_source(message: &str) -> bool {
    const CAUSED: &[&str] = &[
        "JNDI must be enabled by setting log4j2.enableJndiJdbc=true",
        "java.lang.ClassNotFoundException: ",
        "No class name or method name specified for the connection factory method.",
        "No ConnectionSource provided",
        "Could not create plugin of type class org.apache.logging.log4j.core.appender.db.jdbc.JdbcAppender ",
        "Unable to locate appender ",
    ];
    CAUSED.iter().any(|caused| message.starts_with(caused))
        || message.eq_ignore_ascii_case("Null object returned for JDBC in Appenders.")
}

/// Whether `config` connects a JDBC appender to a database l4rs has no driver for (the
/// schemes the `l4rs-jdbc` crate reaches are SQLite's and PostgreSQL's).
fn connects_to_a_java_only_database(config: &Configuration) -> bool {
    config
        .appenders
        .iter()
        .any(|appender| match &appender.kind {
            AppenderKind::Jdbc(spec) => !["jdbc:sqlite:", "jdbc:postgresql:"]
                .iter()
                .any(|scheme| spec.connection.connection_string.starts_with(scheme)),
            _ => false,
        })
}

/// One corpus file's outcome.
struct Row {
    name: String,
    class: Class,
    detail: String,
    /// The configuration, for a file that loaded and uses no plugin l4rs lacks: what log4j2
    /// builds from it must be what l4rs builds (supported files, and the others that load).
    comparable: Option<Box<Configuration>>,
}

/// What loading the whole corpus gave.
struct Survey {
    dir: PathBuf,
    rows: Vec<Row>,
    clean: usize,
    with_diagnostics: usize,
    failed: usize,
    plugin_counts: BTreeMap<String, usize>,
    panics: Vec<String>,
}

/// The corpus survey, loaded once for all tests of this file; `None` when the corpus is absent.
fn survey() -> Option<&'static Survey> {
    static SURVEY: OnceLock<Option<Survey>> = OnceLock::new();
    SURVEY.get_or_init(load_survey).as_ref()
}

/// Loads every corpus file (status messages silenced, then the status level restored); `None`
/// when the corpus is absent (skipped with a notice, or failed under CI).
fn load_survey() -> Option<Survey> {
    let dir = shared_path("corpus/log4j2-configs", "the corpus tests")?;
    let entries = std::fs::read_dir(&dir).ok()?;
    let index = read_index(&dir);
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "xml"))
        .collect();
    files.sort();
    let options = LoadOptions {
        apply_status_level: false,
    };
    let mut survey = Survey {
        dir: dir.clone(),
        rows: Vec::new(),
        clean: 0,
        with_diagnostics: 0,
        failed: 0,
        plugin_counts: BTreeMap::new(),
        panics: Vec::new(),
    };
    // SpringProfile arbiters read the active profiles from the process: an empty property,
    // which comes before SPRING_PROFILES_ACTIVE, keeps the survey the same on every machine.
    for property in ["spring.profiles.active", "spring.profiles.default"] {
        l4rs_config::set_system_property(property, "");
    }
    let saved_status_level = l4rs_core::status::level();
    l4rs_core::status::set_level(l4rs_core::Level::OFF);
    for file in &files {
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let features = index.get(&name).cloned().unwrap_or_default();
        let negative = features.contains("name-suggests-negative-test")
            || features.contains("not-well-formed-xml");
        let config = match catch_unwind(AssertUnwindSafe(|| load_file_with(file, options))) {
            Ok(Ok(config)) => config,
            Ok(Err(error)) => {
                survey.failed += 1;
                let class = if negative {
                    Class::IntentionallyBroken
                } else {
                    Class::Other
                };
                survey.rows.push(Row {
                    name,
                    class,
                    // Relative to the corpus, so the report does not depend on where it is.
                    detail: format!("not loaded: {error}")
                        .replace(&format!("{}/", dir.display()), ""),
                    comparable: None,
                });
                continue;
            }
            Err(_) => {
                survey.panics.push(name);
                continue;
            }
        };
        // Warnings are log4j2's own tolerated adjustments; errors drop something.
        let errors = config.diagnostics_at_least(Severity::Error).count();
        if config.diagnostics.is_empty() {
            survey.clean += 1;
        } else {
            survey.with_diagnostics += 1;
        }
        let plugins = unsupported_plugins(&config, &features);
        for plugin in &plugins {
            *survey.plugin_counts.entry(plugin.clone()).or_default() += 1;
        }
        let first = config
            .diagnostics_at_least(Severity::Error)
            .next()
            .map(|d| d.message.chars().take(120).collect::<String>())
            .unwrap_or_default();
        // Refused scripts, and no error but those and what follows from them.
        let scripts_refused = config
            .diagnostics
            .iter()
            .any(|d| d.message == "Script support is not enabled")
            && config
                .diagnostics_at_least(Severity::Error)
                .all(|d| follows_from_refused_scripts(&d.message));
        // A Java-only source's refusal, and no error but those and what follows from them; or
        // no error, and a JDBC URL l4rs has no driver for.
        let java_only_source = config.diagnostics.iter().any(|d| {
            d.message == "JNDI must be enabled by setting log4j2.enableJndiJdbc=true"
                || d.message
                    == "No class name or method name specified for the connection factory method."
                || (d.message.starts_with("java.lang.ClassNotFoundException: ")
                    && d.help
                        .as_deref()
                        .is_some_and(|help| help.starts_with("l4rs cannot call Java code")))
        }) && config
            .diagnostics_at_least(Severity::Error)
            .all(|d| follows_from_java_only_source(&d.message));
        let java_only_database =
            java_only_source || (errors == 0 && connects_to_a_java_only_database(&config));
        let class = if !plugins.is_empty() {
            Class::UnsupportedPlugins(plugins)
        } else if scripts_refused && !negative {
            Class::ScriptsRefused
        } else if java_only_database && !negative {
            Class::JavaOnlyDatabase
        } else if errors == 0 {
            Class::Supported
        } else if negative {
            Class::IntentionallyBroken
        } else {
            Class::Other
        };
        let warnings = config.diagnostics.len() - errors;
        let detail = match (errors, warnings) {
            (0, 0) => "loaded".to_string(),
            (0, warnings) => format!("loaded; {warnings} warning(s)"),
            (errors, _) => format!("{errors} error(s); first: {first}"),
        };
        let comparable = (!matches!(class, Class::UnsupportedPlugins(_))
            && !needs_what_the_oracle_lacks(file))
        .then(|| Box::new(config));
        survey.rows.push(Row {
            name,
            class,
            detail,
            comparable,
        });
    }
    l4rs_core::status::set_level(saved_status_level);
    Some(survey)
}

fn report_path() -> PathBuf {
    l4rs_test_support::workspace_root().join("docs/compatibility-corpus.md")
}

#[test]
fn every_corpus_configuration_loads_or_is_rejected_without_panicking() {
    let Some(survey) = survey() else {
        return;
    };
    assert!(
        survey.panics.is_empty(),
        "loading panicked for: {:?}",
        survey.panics
    );
    let total = survey.rows.len();
    println!("corpus: {total} files in {}", survey.dir.display());
    println!("  loaded clean:            {}", survey.clean);
    println!("  loaded with diagnostics: {}", survey.with_diagnostics);
    println!("  failed to parse:         {}", survey.failed);
    assert_eq!(
        survey.clean + survey.with_diagnostics + survey.failed,
        total
    );

    let report = render_report(survey);
    let path = report_path();
    if std::env::var_os("L4RS_WRITE_CORPUS_REPORT").is_some_and(|v| v == "1") {
        std::fs::write(&path, &report).expect("write the corpus report");
        println!("wrote {}", path.display());
    } else {
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == report,
            "docs/compatibility-corpus.md is not what the corpus gives now; regenerate it with \
             `L4RS_WRITE_CORPUS_REPORT=1 cargo test -p l4rs-config --test corpus` and update the \
             summary in docs/compatibility.md (\"Configuration corpus\")"
        );
    }
}

/// Files where l4rs builds something else than log4j2, with the reason. Each must still
/// differ: the test fails when one starts to match, so the list stays true.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

/// Plugins l4rs implements whose jars the oracle's log4j2 does not have (Debian ships neither
/// log4j-layout-template-json nor the Kafka client, and the oracle's class path has no JCTools,
/// without which log4j2 fails the Async appender that asks for a `JCToolsBlockingQueue`):
/// log4j2 would build something else for a file that uses them, so such files are loaded by
/// l4rs but not compared.
const ORACLE_LACKS: &[&str] = &["<JsonTemplateLayout", "<Kafka", "<JCToolsBlockingQueue"];

/// Whether the file at `path` names a plugin of [`ORACLE_LACKS`].
fn needs_what_the_oracle_lacks(path: &std::path::Path) -> bool {
    let text = std::fs::read_to_string(path)
        .unwrap_or_default()
        .to_ascii_lowercase();
    ORACLE_LACKS
        .iter()
        .any(|plugin| text.contains(&plugin.to_ascii_lowercase()))
}

#[test]
fn configurations_without_unsupported_plugins_build_what_log4j2_builds() {
    if let Err(missing) = corpus_oracle::available() {
        skip_or_fail("the corpus comparison with log4j2", &missing);
        return;
    }
    let Some(survey) = survey() else {
        return;
    };
    let comparable: Vec<&Row> = survey
        .rows
        .iter()
        .filter(|row| row.comparable.is_some())
        .collect();
    let files: Vec<PathBuf> = comparable
        .iter()
        .map(|row| survey.dir.join(&row.name))
        .collect();
    let dumps = corpus_oracle::run_log4j2(&files).unwrap_or_else(|error| panic!("{error}"));
    let known: BTreeMap<&str, &str> = KNOWN_DIFFERENCES.iter().copied().collect();
    let mut differing = BTreeSet::new();
    let mut report = String::new();
    for row in &comparable {
        let config = row.comparable.as_deref().expect("comparable");
        let Some(log4j2) = dumps.get(&row.name) else {
            panic!("log4j2 printed nothing for {}", row.name);
        };
        assert!(
            log4j2.denied.is_empty(),
            "{}: log4j2 tried to write outside its sandbox: {:?}",
            row.name,
            log4j2.denied
        );
        let ours = corpus_oracle::l4rs_dump(config);
        if ours != log4j2.lines {
            differing.insert(row.name.as_str());
            if !known.contains_key(row.name.as_str()) {
                let _ = writeln!(report, "{}:", row.name);
                for line in &log4j2.lines {
                    if !ours.contains(line) {
                        let _ = writeln!(report, "  log4j2: {line}");
                    }
                }
                for line in &ours {
                    if !log4j2.lines.contains(line) {
                        let _ = writeln!(report, "  l4rs:   {line}");
                    }
                }
                if log4j2.lines.iter().all(|l| ours.contains(l))
                    && ours.iter().all(|l| log4j2.lines.contains(l))
                {
                    let _ = writeln!(report, "  (same lines, other order)");
                }
            }
        }
    }
    println!(
        "compared {} corpus files (every one that loads and uses no unsupported plugin) with log4j2: {} differ ({} known)",
        comparable.len(),
        differing.len(),
        known.len()
    );
    assert!(
        report.is_empty(),
        "l4rs builds something else than log4j2 for:\n{report}"
    );
    let now_matching: Vec<&&str> = known
        .keys()
        .filter(|name| !differing.contains(**name))
        .collect();
    assert!(
        now_matching.is_empty(),
        "listed in KNOWN_DIFFERENCES but matching log4j2 now (or no longer compared): remove them: {now_matching:?}"
    );
}

fn render_report(survey: &Survey) -> String {
    let Survey {
        rows,
        clean,
        with_diagnostics,
        failed,
        plugin_counts,
        ..
    } = survey;
    let mut by_class: BTreeMap<String, usize> = BTreeMap::new();
    for Row { class, .. } in rows {
        let key = match class {
            Class::UnsupportedPlugins(_) => "uses-unsupported-plugin".to_string(),
            other => other.label(),
        };
        *by_class.entry(key).or_default() += 1;
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# log4j2 configuration corpus: what l4rs-config makes of it\n"
    );
    let _ = writeln!(
        out,
        "Generated by `L4RS_WRITE_CORPUS_REPORT=1 cargo test -p l4rs-config --test corpus`; do not edit by hand.\n"
    );
    let _ = writeln!(
        out,
        "Each of the {} files in `shared/corpus/log4j2-configs/` is loaded by `l4rs_config::load_file`. \
A file *loads clean* when it produces no diagnostic, *with diagnostics* when it loads but something was reported \
(including the unsupported plugins it uses); it is *supported* when nothing it asks for is \
missing (warnings only: log4j2 prints the same ones), and *fails to parse* when it is not well-formed XML (or XIncludes a \
file that is not in the corpus), where log4j2 would fall back to its default configuration.\n",
        rows.len()
    );
    let _ = writeln!(
        out,
        "A file *uses an unsupported plugin* when it names a log4j2 plugin l4rs lacks, or one of the \
plugins log4j2's own test suite defines (`List` and friends, named by the corpus index). Otherwise it is \
*intentionally broken* when it has errors and the index marks it a negative test (or it is not well-formed), \
*scripts refused as log4j2 refuses them by default* when it has scripts, which l4rs never runs and log4j2 2.19 \
runs only with `log4j2.Script.enableLanguages` set (both report `Script support is not enabled` and build the rest), \
*database only Java reaches* when a JDBC appender connects through a `<DataSource>` (JNDI) or a \
`<ConnectionFactory>` (a Java method), which l4rs refuses with log4j2's messages as log4j2 2.19 refuses them without \
JNDI enabled or the factory's class (and nothing else fails), or to a database l4rs has no driver for (H2, HSQLDB: \
the file loads as in log4j2, and the appender fails when it is built, where log4j2's fails to connect without the \
driver), and *other* when it has errors for another reason (misspelled elements, includes or lookups only a test harness \
provides).\n\n\
Every file that loads and uses no unsupported plugin (the supported ones and the others that load) is also \
loaded by log4j2 2.19 in the same test run, and both must build the same appenders (name, type, layout, \
filter), loggers (level, additivity, parent, asynchrony, filter, appender references with their levels and \
filters) and context-wide filter. {}.\n",
        known_differences_sentence()
    );
    let _ = writeln!(out, "| Outcome | Files |\n|---|---|");
    let _ = writeln!(out, "| loaded clean | {clean} |");
    let _ = writeln!(out, "| loaded with diagnostics | {with_diagnostics} |");
    let _ = writeln!(out, "| failed to parse | {failed} |\n");
    let _ = writeln!(out, "| Classification | Files |\n|---|---|");
    for (class, count) in &by_class {
        let _ = writeln!(out, "| {class} | {count} |");
    }
    let _ = writeln!(out, "\n## Unsupported plugins by number of files\n");
    let _ = writeln!(out, "| Plugin | Files |\n|---|---|");
    let mut plugins: Vec<(&String, &usize)> = plugin_counts.iter().collect();
    plugins.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (plugin, count) in plugins {
        let _ = writeln!(out, "| {plugin} | {count} |");
    }
    let _ = writeln!(out, "\n## Per file\n");
    let _ = writeln!(out, "| File | Classification | Detail |\n|---|---|---|");
    for Row {
        name,
        class,
        detail,
        ..
    } in rows
    {
        let detail = detail.replace('|', "\\|").replace('\n', " ");
        let _ = writeln!(out, "| `{name}` | {} | {detail} |", class.label());
    }
    out
}

/// How the report speaks of [`KNOWN_DIFFERENCES`]: what it holds now, and where.
fn known_differences_sentence() -> String {
    let place = "`KNOWN_DIFFERENCES` in `crates/config/tests/corpus.rs`";
    match KNOWN_DIFFERENCES.len() {
        0 => format!("There are no known differences at the moment; any would be listed, with its reason, in {place}"),
        1 => format!("The one known difference is listed, with its reason, in {place}"),
        n => format!("The {n} known differences are listed, with their reasons, in {place}"),
    }
}
