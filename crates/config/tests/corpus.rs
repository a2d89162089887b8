//! Loads every configuration of the real-world corpus: none may panic, each either loads
//! (cleanly or with diagnostics) or is rejected as unparseable.
//!
//! With `L4RS_WRITE_CORPUS_REPORT=1` the per-file classification is written to
//! `docs/compatibility-corpus.md` at the workspace root.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use l4rs_config::{load_file_with, Configuration, LoadError, LoadOptions, Severity};

fn corpus_dir() -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/log4j2-configs");
    dir.canonicalize().unwrap_or(dir)
}

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

enum Outcome {
    Loaded(Box<Configuration>),
    Failed(LoadError),
}

/// How a file fares, for the report.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Supported,
    UnsupportedPlugins(Vec<String>),
    IntentionallyBroken,
    Other,
}

impl Class {
    fn label(&self) -> String {
        match self {
            Class::Supported => "supported".to_string(),
            Class::UnsupportedPlugins(plugins) => {
                format!("uses-unsupported-plugin ({})", plugins.join(", "))
            }
            Class::IntentionallyBroken => "intentionally broken".to_string(),
            Class::Other => "other".to_string(),
        }
    }
}

/// The plugins a load reported as not available (log4j2 plugins l4rs lacks) plus the test-only
/// plugins the index names (log4j2's own test suite defines `List` and friends).
fn unsupported_plugins(config: &Configuration, features: &str) -> Vec<String> {
    let mut plugins: Vec<String> = config
        .diagnostics
        .iter()
        .filter_map(|d| {
            let missing = d
                .message
                .strip_prefix("plugin ")
                .and_then(|rest| rest.split_once(" is not available in l4rs yet"))
                .map(|(name, _)| name.to_string());
            let unknown = d
                .message
                .strip_prefix("Unknown plugin element \"")
                .and_then(|rest| rest.split_once('"'))
                .map(|(name, _)| format!("{name} (not a log4j2 core plugin)"));
            missing.or(unknown)
        })
        .collect();
    plugins.extend(
        feature_values(features, "test-only-plugins:")
            .into_iter()
            .map(|name| format!("{name} (log4j2 test plugin)")),
    );
    plugins.sort();
    plugins.dedup();
    plugins
}

#[test]
fn every_corpus_configuration_loads_or_is_rejected_without_panicking() {
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!(
            "note: corpus {} not found; corpus check skipped",
            dir.display()
        );
        return;
    };
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
    let mut panics = Vec::new();
    let mut rows = Vec::new();
    let (mut clean, mut with_diagnostics, mut failed) = (0, 0, 0);
    let mut plugin_counts: BTreeMap<String, usize> = BTreeMap::new();
    let quiet = l4rs_core::status::level();
    l4rs_core::status::set_level(l4rs_core::Level::OFF);
    for file in &files {
        let name = file
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let features = index.get(&name).cloned().unwrap_or_default();
        let outcome = catch_unwind(AssertUnwindSafe(|| load_file_with(file, options)));
        let outcome = match outcome {
            Ok(Ok(config)) => Outcome::Loaded(Box::new(config)),
            Ok(Err(error)) => Outcome::Failed(error),
            Err(_) => {
                panics.push(name);
                continue;
            }
        };
        let negative = features.contains("name-suggests-negative-test")
            || features.contains("not-well-formed-xml");
        let (class, detail) = match &outcome {
            Outcome::Failed(error) => {
                failed += 1;
                let class = if negative {
                    Class::IntentionallyBroken
                } else {
                    Class::Other
                };
                (class, format!("not loaded: {error}"))
            }
            Outcome::Loaded(config) => {
                // Warnings are log4j2's own tolerated adjustments; errors drop something.
                let errors = config.diagnostics_at_least(Severity::Error).count();
                if config.diagnostics.is_empty() {
                    clean += 1;
                } else {
                    with_diagnostics += 1;
                }
                let plugins = unsupported_plugins(config, &features);
                for plugin in &plugins {
                    *plugin_counts.entry(plugin.clone()).or_default() += 1;
                }
                let first = config
                    .diagnostics_at_least(Severity::Error)
                    .next()
                    .map(|d| d.message.chars().take(120).collect::<String>())
                    .unwrap_or_default();
                let class = if !plugins.is_empty() {
                    Class::UnsupportedPlugins(plugins)
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
                (class, detail)
            }
        };
        rows.push((name, class, detail));
    }
    l4rs_core::status::set_level(quiet);
    assert!(panics.is_empty(), "loading panicked for: {panics:?}");

    let total = rows.len();
    println!("corpus: {total} files");
    println!("  loaded clean:            {clean}");
    println!("  loaded with diagnostics: {with_diagnostics}");
    println!("  failed to parse:         {failed}");
    println!("  unsupported plugins:");
    for (plugin, count) in &plugin_counts {
        println!("    {plugin}: {count}");
    }
    assert_eq!(clean + with_diagnostics + failed, total);

    if std::env::var_os("L4RS_WRITE_CORPUS_REPORT").is_some_and(|v| v == "1") {
        let report = render_report(&rows, clean, with_diagnostics, failed, &plugin_counts);
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/compatibility-corpus.md");
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("docs directory");
        }
        std::fs::write(&path, report).expect("write the corpus report");
        println!("wrote {}", path.display());
    }
}

fn render_report(
    rows: &[(String, Class, String)],
    clean: usize,
    with_diagnostics: usize,
    failed: usize,
    plugin_counts: &BTreeMap<String, usize>,
) -> String {
    let mut by_class: BTreeMap<String, usize> = BTreeMap::new();
    for (_, class, _) in rows {
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
    for (name, class, detail) in rows {
        let detail = detail.replace('|', "\\|").replace('\n', " ");
        let _ = writeln!(out, "| `{name}` | {} | {detail} |", class.label());
    }
    out
}
