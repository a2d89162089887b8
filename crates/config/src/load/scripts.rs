//! log4j2's script plugins, built as log4j2 2.19 builds them on a JVM that has no script engine
//! for their language, which is what l4rs is.
//!
//! `<Script>`, `<ScriptFile>` and `<ScriptRef>` are checked with log4j2's messages (a
//! `<ScriptFile>` must be a file that could be read, as log4j2 reads it), and every plugin that
//! would run one
//! (`<ScriptFilter>`, `<ScriptCondition>`, `<ScriptPatternSelector>`,
//! `<ScriptAppenderSelector>`, `<ScriptArbiter>`, and `<Routing>`'s scripts) is refused as
//! log4j2 refuses it:
//!
//! * without `log4j2.Script.enableLanguages`, log4j2's default since 2.17.2, with
//!   `Script support is not enabled`;
//! * with it, with what log4j2's script manager says of a language the property does not list,
//!   or of one it has no engine for (`No ScriptEngine found for language …`).
//!
//! So a configuration with scripts loads as it loads in log4j2 by default, and the rest of it
//! works. Where log4j2 then goes on in a way that loses or deletes more than configured, l4rs
//! does not: a `<Delete>` whose `<ScriptCondition>` is refused deletes nothing (`delete.rs`),
//! a `<Select>` holding a refused `<ScriptArbiter>` goes on to its other arbiters
//! (`arbiters.rs`), and a `<Routing>` whose default-route script is a reference is refused
//! alone, where log4j2 fails to start the whole configuration.

use super::binder::{Binder, MissingField};
use super::node::PNode;
use crate::model::AppenderSpec;
use crate::plugins::Plugin;

/// The property that lists the script languages log4j2 may run.
pub(crate) const ENABLE_LANGUAGES_PROPERTY: &str = "log4j2.Script.enableLanguages";

/// The language log4j2 gives a script that names none.
const DEFAULT_LANGUAGE: &str = "JavaScript";

/// The languages [`ENABLE_LANGUAGES_PROPERTY`] allows, lower-cased as log4j2 compares them;
/// `None` when it is not set, and log4j2 then has no script manager at all. An empty value
/// is a manager that allows no language.
pub(crate) fn enabled_languages() -> Option<Vec<String>> {
    crate::properties::property_as_given(ENABLE_LANGUAGES_PROPERTY).map(|list| split_list(&list))
}

/// log4j2's `Strings.splitList`, Java's `split("\\s*,\\s*")`: the blanks next to a comma
/// go with it, trailing empty items are dropped, and a text without a comma is one item.
fn split_list(list: &str) -> Vec<String> {
    let pieces: Vec<&str> = list.split(',').collect();
    if pieces.len() == 1 {
        return vec![list.to_lowercase()];
    }
    let last = pieces.len() - 1;
    let mut languages: Vec<String> = pieces
        .iter()
        .enumerate()
        .map(|(index, piece)| {
            let piece = if index > 0 { piece.trim_start() } else { piece };
            let piece = if index < last {
                piece.trim_end()
            } else {
                piece
            };
            piece.to_lowercase()
        })
        .collect();
    while languages.last().is_some_and(String::is_empty) {
        languages.pop();
    }
    languages
}

/// One script element, built.
#[derive(Clone, Debug)]
pub(super) struct Script {
    /// Its `name` (`ref` of a `<ScriptRef>`); `null` to log4j2 when missing.
    name: Option<String>,
    /// Its language; `None` for a `<ScriptRef>`, which has the referenced script's.
    language: Option<String>,
    /// The element, for positions in messages.
    at: PNode,
}

impl Script {
    /// The name as log4j2's script manager prints it: a `<Script>` without one is named by
    /// Java's `Object.toString`, whose hash l4rs cannot know.
    fn shown_name(&self) -> &str {
        self.name
            .as_deref()
            .unwrap_or("org.apache.logging.log4j.core.script.Script@…")
    }
}

/// True for `<Script>`, `<ScriptFile>` and `<ScriptRef>`.
pub(super) fn is_script(node: &PNode) -> bool {
    matches!(
        node.canonical,
        Some(Plugin::Script | Plugin::ScriptFile | Plugin::ScriptRef)
    )
}

/// Builds a script element with log4j2's messages; `None` when log4j2's factory returns null.
pub(super) fn build_script(binder: &mut Binder, mut node: PNode) -> Option<Script> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let at = node.stub();
    let script = match node.canonical {
        Some(Plugin::ScriptRef) => {
            let name = binder.string(&mut node, &["ref"]);
            binder.finish(&node, inserted);
            let Some(name) = name else {
                binder.error_help(
                    &node,
                    "No script name provided",
                    "add ref=\"…\" naming a script of <Scripts>",
                );
                return None;
            };
            Script {
                name: Some(name),
                language: None,
                at,
            }
        }
        Some(Plugin::ScriptFile) => {
            let name = binder.string(&mut node, &["name"]);
            let language = binder.string(&mut node, &["language"]);
            let path = binder.string(&mut node, &["path"]);
            // Read for its place in log4j2's order of messages: nothing is ever watched.
            let _ = binder.boolean(&mut node, &["isWatched"], false);
            let charset = binder.charset(&mut node, &["charset"]);
            binder.finish(&node, inserted);
            let Some(path) = path else {
                binder.error_help(
                    &node,
                    "No script path provided for ScriptFile",
                    "add path=\"…\"; the script is not created",
                );
                return None;
            };
            let local = local_path(&path);
            let language = language
                .or_else(|| local.and_then(language_of_extension).map(str::to_string))
                .unwrap_or_else(|| {
                    binder.report(
                        crate::Severity::Info,
                        format!("No script language supplied, defaulting to {DEFAULT_LANGUAGE}"),
                        Some(&node),
                        None,
                        None,
                    );
                    DEFAULT_LANGUAGE.to_string()
                });
            if let Err(failure) = local.ok_or("IOException").and_then(check_script_file) {
                let charset = charset.as_deref().unwrap_or("UTF-8");
                binder.error_help(
                    &node,
                    format!("{failure}: language={language}, path={path}, actualCharset={charset}"),
                    "log4j2 reads the file when the configuration is built; the script is not created",
                );
                return None;
            }
            Script {
                name: Some(name.unwrap_or(path)),
                language: Some(language),
                at,
            }
        }
        _ => {
            let name = binder.string(&mut node, &["name"]);
            let language = binder.string(&mut node, &["language"]);
            let text = binder.plugin_value(&mut node, "scriptText");
            binder.finish(&node, inserted);
            let shown = name.as_deref().unwrap_or("null");
            let language = language.unwrap_or_else(|| {
                binder.error(
                    &node,
                    format!("No 'language' attribute provided for Script plugin '{shown}'"),
                );
                DEFAULT_LANGUAGE.to_string()
            });
            if text.is_none() {
                binder.error_help(
                    &node,
                    format!("No 'scriptText' attribute provided for Script plugin '{shown}'"),
                    "give the script as the element's text; it is not created",
                );
                return None;
            }
            Script {
                name,
                language: Some(language),
                at,
            }
        }
    };
    Some(script)
}

/// The language log4j2's `ExtensionLanguageMapping` gives a script file's extension (the text
/// after the last dot of the file name, compared as written).
fn language_of_extension(path: &str) -> Option<&'static str> {
    const MAPPING: &[(&str, &str)] = &[
        ("js", "JavaScript"),
        ("javascript", "JavaScript"),
        ("gvy", "Groovy"),
        ("groovy", "Groovy"),
        ("bsh", "beanshell"),
        ("beanshell", "beanshell"),
        ("jy", "jython"),
        ("jython", "jython"),
        ("ftl", "freemarker"),
        ("freemarker", "freemarker"),
        ("vm", "velocity"),
        ("velocity", "velocity"),
        ("awk", "awk"),
        ("ejs", "ejs"),
        ("tcl", "tcl"),
        ("hs", "jaskell"),
        ("jelly", "jelly"),
        ("jep", "jep"),
        ("jexl", "jexl"),
        ("jexl2", "jexl2"),
        ("rb", "ruby"),
        ("ruby", "ruby"),
        ("judo", "judo"),
        ("judi", "judo"),
        ("scala", "scala"),
        ("clj", "Clojure"),
    ];
    let file_name = path.rsplit('/').next().unwrap_or(path);
    let dot = file_name.rfind('.').filter(|&dot| dot > 0)?;
    let extension = &file_name[dot + 1..];
    MAPPING
        .iter()
        .find(|(known, _)| *known == extension)
        .map(|(_, language)| *language)
}

/// The file a `<ScriptFile>`'s `path` names: a plain path, or a `file:` URI's path; `None`
/// for another URI, which l4rs does not fetch (log4j2 reads it through `java.net.URL`).
fn local_path(path: &str) -> Option<&str> {
    let local = path
        .strip_prefix("file://")
        .or_else(|| path.strip_prefix("file:"))
        .unwrap_or(path);
    let has_scheme = local.split_once(':').is_some_and(|(scheme, _)| {
        scheme.len() > 1
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
    });
    (!has_scheme).then_some(local)
}

/// Checks that a `<ScriptFile>`'s file can be read, as log4j2 reads it to build the element:
/// the Java exception's simple name when it cannot. The text itself is never needed, so it is
/// not read, and the file is opened without waiting: a device or a FIFO named there (which
/// log4j2 would read without end, or wait on) is refused instead.
fn check_script_file(local: &str) -> Result<(), &'static str> {
    use std::os::unix::fs::OpenOptionsExt as _;
    // Java's FileInputStream throws FileNotFoundException for a missing file, a folder and a
    // file it may not read alike.
    let file = std::fs::File::options()
        .read(true)
        // A FIFO opened for reading then returns at once instead of waiting for a writer.
        .custom_flags(libc::O_NONBLOCK)
        .open(local)
        .map_err(|_| "FileNotFoundException")?;
    let metadata = file.metadata().map_err(|_| "IOException")?;
    if metadata.is_dir() {
        Err("FileNotFoundException")
    } else if metadata.is_file() {
        Ok(())
    } else {
        Err("IOException")
    }
}

/// The one `@PluginElement("Script")` parameter of a plugin: the first script element among
/// its children is built into it; a later one is refused, as log4j2 uses only the first.
#[derive(Default)]
pub(super) struct ScriptSlot {
    offered: bool,
    /// The script, when the first script element could be built.
    pub script: Option<Script>,
}

impl ScriptSlot {
    /// Offers `child`, a script element, to the slot of `parent`.
    pub(super) fn offer(&mut self, binder: &mut Binder, parent: &mut PNode, child: PNode) {
        if std::mem::replace(&mut self.offered, true) {
            // log4j2 builds every child before its parent looks at them.
            let _ = build_script(binder, child.clone());
            parent.refused.push(child);
        } else {
            self.script = build_script(binder, child);
        }
    }
}

/// The plugins that run a script, for their messages and what l4rs suggests instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScriptUser {
    Filter,
    Condition,
    PatternSelector,
    AppenderSelector,
    Arbiter,
    /// `<Routes>`' script, which picks the route.
    Routes,
    /// `<Routing>`'s script, which picks the default route.
    Routing,
}

impl ScriptUser {
    /// What log4j2 says when the plugin has no script.
    fn missing(self) -> &'static str {
        match self {
            ScriptUser::Condition => {
                "A Script, ScriptFile or ScriptRef element must be provided for this ScriptCondition"
            }
            // log4j2's selector and arbiter copy the filter's message.
            _ => "A Script, ScriptFile or ScriptRef element must be provided for this ScriptFilter",
        }
    }

    /// What the plugin's refusal means, and what to use instead.
    fn help(self) -> &'static str {
        match self {
            ScriptUser::Filter => "l4rs runs no scripts, so the filter is not created; RegexFilter, MarkerFilter, ThreadContextMapFilter and the level filters cover most scripted conditions",
            ScriptUser::Condition => "l4rs runs no scripts, so the action that holds the condition is not created; IfFileName, IfLastModified and IfAccumulatedFileCount cover most scripted conditions",
            ScriptUser::PatternSelector => "l4rs runs no scripts, so the layout uses its own pattern; MarkerPatternSelector or LevelPatternSelector choose a pattern without one",
            ScriptUser::AppenderSelector => "l4rs runs no scripts, so no appender is created; declare the appender the script would choose, or choose it with an arbiter",
            ScriptUser::Arbiter => "l4rs runs no scripts, so the arbiter's elements are dropped; SystemPropertyArbiter or EnvironmentArbiter choose without one",
            ScriptUser::Routes | ScriptUser::Routing => "l4rs runs no scripts: use <Routes pattern=\"…\"> with lookups (${ctx:…}, ${event:…}) and a default <Route> instead",
        }
    }
}

/// What log4j2 reports when `user` (the element `node`) would run `script`, which l4rs never
/// does: the plugin is not created. Called after the plugin's children and attributes were
/// read, where log4j2's factory reports it.
pub(super) fn refuse(binder: &mut Binder, node: &PNode, script: Option<&Script>, user: ScriptUser) {
    let Some(script) = script else {
        binder.error_help(node, user.missing(), user.help());
        return;
    };
    let Some(languages) = binder.script_languages.clone() else {
        binder.error_help(
            &script.at,
            "Script support is not enabled",
            format!(
                "log4j2 runs scripts only with {ENABLE_LANGUAGES_PROPERTY} set; {}",
                user.help()
            ),
        );
        return;
    };
    let Some(language) = &script.language else {
        refuse_reference(binder, node, script, user);
        return;
    };
    add(binder, script, language, &languages, user.help());
    if user == ScriptUser::Routes {
        // log4j2's `Routes` builder tries to add a script that is not a reference twice.
        add(binder, script, language, &languages, user.help());
    }
}

/// What log4j2 reports of `user` given a `<ScriptRef>` while its script manager exists. No
/// script is ever added to it, so none is found by name.
fn refuse_reference(binder: &mut Binder, node: &PNode, script: &Script, user: ScriptUser) {
    let missing = format!(
        "No script with name {} has been declared.",
        script.shown_name()
    );
    match user {
        ScriptUser::Condition => {
            binder.error_help(&script.at, format!("ScriptCondition: {missing}"), user.help());
        }
        ScriptUser::AppenderSelector | ScriptUser::Routes => {
            // Both hand the reference to the script manager, which reads its language: null.
            let class = if user == ScriptUser::Routes {
                "org.apache.logging.log4j.core.appender.routing.Routes"
            } else {
                "org.apache.logging.log4j.core.appender.ScriptAppenderSelector"
            };
            binder.builder_threw(
                node,
                class,
                "java.lang.NullPointerException: Cannot invoke \"String.toLowerCase(java.util.Locale)\" because the return value of \"org.apache.logging.log4j.core.script.AbstractScript.getLanguage()\" is null",
                Some(script.at.position),
                user.help(),
            );
        }
        ScriptUser::Routing => binder.error_help(
            &script.at,
            missing,
            format!(
                "log4j2 creates the appender, then fails to start the whole configuration with a NullPointerException; l4rs does not create the Routing appender. {}",
                user.help()
            ),
        ),
        ScriptUser::Filter | ScriptUser::PatternSelector | ScriptUser::Arbiter => {
            binder.error_help(&script.at, missing, user.help());
        }
    }
}

/// What log4j2's script manager says when asked to add `script`: l4rs has no engine for any
/// language.
fn add(binder: &mut Binder, script: &Script, language: &str, languages: &[String], help: &str) {
    let message = if languages.contains(&language.to_lowercase()) {
        format!("No ScriptEngine found for language {language}. Available languages are: ")
    } else {
        format!(
            "Unable to add script {}, {language} has not been configured as an allowed language",
            script.shown_name()
        )
    };
    binder.error_help(&script.at, message, help);
}

/// Builds a top-level `<Scripts>`: each script element (with log4j2's report of those that
/// could not be built), then what log4j2 says of each as it adds it to its script manager.
pub(super) fn build_scripts(binder: &mut Binder, mut node: PNode) {
    let inserted = node.attrs.len();
    let mut scripts = Vec::new();
    let mut failed = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if is_script(&child) {
            scripts.extend(binder.build_child(child, &mut failed, build_script));
        } else {
            node.refused.push(child);
        }
    }
    binder.null_children(&node, &failed);
    binder.finish(&node, inserted);
    let languages = binder.script_languages.clone();
    for script in &scripts {
        match (&script.language, &languages) {
            (None, _) => binder.error_help(
                &script.at,
                format!(
                    "Script reference to {} not added. Scripts definition cannot contain script references",
                    script.shown_name()
                ),
                "declare the script itself here, with <Script> or <ScriptFile>",
            ),
            (Some(language), Some(languages)) => add(
                binder,
                script,
                language,
                languages,
                "l4rs runs no scripts; the plugins that refer to it are not created",
            ),
            // Without a script manager log4j2 keeps none of them, silently.
            (Some(_), None) => {}
        }
    }
}

/// Builds `<ScriptAppenderSelector>`: log4j2 builds its script and `<AppenderSet>` (not the
/// appenders inside, which only the script's choice would build), checks its required
/// fields, then refuses it. Always `None`.
pub(super) fn script_appender_selector(
    binder: &mut Binder,
    mut node: PNode,
) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let mut slot = ScriptSlot::default();
    let mut appender_set_seen = false;
    for child in std::mem::take(&mut node.children) {
        if is_script(&child) {
            slot.offer(binder, &mut node, child);
        } else if child.canonical == Some(Plugin::AppenderSet) {
            appender_set(binder, &child);
            if std::mem::replace(&mut appender_set_seen, true) {
                node.refused.push(child);
            }
        } else {
            node.refused.push(child);
        }
    }
    let name = binder.string(&mut node, &["name"]);
    // The builder's required fields, in its order: appenderSet, name, script. log4j2 refuses
    // them before it looks at leftover attributes and children.
    let mut missing = Vec::new();
    if !appender_set_seen {
        missing.push(
            MissingField::attribute("appenderSet", "The parameter is null: appenderSet")
                .added_as("an <AppenderSet>"),
        );
    }
    if name.as_deref().is_none_or(str::is_empty) {
        missing
            .push(MissingField::attribute("name", "The parameter is null: name").given_as(&name));
    }
    if slot.script.is_none() {
        missing.push(
            MissingField::attribute("script", "The parameter is null: script")
                .added_as("a <Script>"),
        );
    }
    if !missing.is_empty() {
        binder.invalid_arguments(
            &node,
            "org.apache.logging.log4j.core.appender.ScriptAppenderSelector",
            &missing,
        );
        return None;
    }
    binder.finish(&node, inserted);
    refuse(
        binder,
        &node,
        slot.script.as_ref(),
        ScriptUser::AppenderSelector,
    );
    None
}

/// `<AppenderSet>`: log4j2 keeps its children unbuilt by their `name`, and reports one that has
/// none.
fn appender_set(binder: &mut Binder, node: &PNode) {
    // Java prints each unbuilt child node, and the list of them, as `null`; a long list is
    // cut, so that a file with many unnamed children does not give messages quadratic in size.
    const LISTED: usize = 32;
    let count = node.children.len();
    let mut children = vec!["null"; count.min(LISTED)].join(", ");
    if count > LISTED {
        children.push_str(&format!(", … ({count} in all)"));
    }
    for child in &node.children {
        if !child.attrs.iter().any(|attr| attr.name == "name") {
            binder.error_help(
                child,
                format!("The attribute 'name' is missing from the node null in AppenderSet [{children}]"),
                "give each appender of an AppenderSet a name",
            );
        }
    }
}

#[cfg(test)]
mod tests;
