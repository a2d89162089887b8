//! `${…}` substitution with log4j2's `StrSubstitutor` rules and `Interpolator` lookups.
//!
//! The rules, all as log4j2 applies them:
//!
//! * `${name}` is a property, `${prefix:key}` a lookup (prefix before the first `:`,
//!   case-insensitive), `${key:-default}` gives a default, and `:\-` writes a literal `:-`;
//! * variable names and defaults are substituted before they are used, so
//!   `${missing:-${app}}` works;
//! * `$${…}` loses one `$` and is not substituted in that pass (a later, per-event pass sees
//!   `${…}`); a `$$` not followed by `{` stays as is;
//! * an unknown prefix, or a lookup that finds nothing, retries the part after the colon as a
//!   property: `${foo:app}` is `${app}`;
//! * property values are substituted again, recursively; values from any other lookup are not
//!   (log4j2's guard against lookup injection);
//! * a cycle logs WARN `Infinite loop in property interpolation of a->b` and leaves the
//!   variable as written, as does any variable that cannot be resolved.
//!
//! `jndi` is deliberately unknown: it only ever falls back to a property of the same key.
//! A lookup l4rs does not implement (`spring`, `web`, `jndi`, an unknown prefix) that leaves a
//! variable unresolved gets one WARN per prefix, where log4j2 would have found a value or
//! said why not.
//!
//! `${bundle:Name:key}` reads `key` from the Java properties file `Name.properties` (dots in
//! `Name` are folders, as in a Java resource path), looked for next to the configuration file,
//! then in the working directory: where a Java application's classpath would hold it.
//!
//! Against hostile input (a "billion laughs" of properties, defaults nested thousands deep) one
//! substitution is bounded: [`MAX_EXPANDED_CHARS`], [`MAX_EXPANSIONS`] and
//! [`MAX_NESTING_DEPTH`]. Past a limit, an ERROR names the variable and the rest of the text
//! is left as written.

mod date;
mod lookups;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use l4rs_core::{Interpolator, Level, LogEvent};

use crate::Severity;

/// The longest text one substitution may produce, in characters.
pub const MAX_EXPANDED_CHARS: usize = 1024 * 1024;

/// How many variables one substitution may expand, counting every expansion of a property
/// inside another property's value.
pub const MAX_EXPANSIONS: usize = 10_000;

/// How deeply variables may nest in one substitution: a variable inside a variable's name or
/// default, or a property whose value holds variables, each count one level. Each level is a
/// recursive call, so this also keeps the stack small.
pub const MAX_NESTING_DEPTH: usize = 64;

/// Receives what a substitution has to say: a cycle or a bad date pattern (warnings), a limit
/// crossed (an error).
pub type Report<'r> = dyn FnMut(Severity, String) + 'r;

pub use date::DatePatternError;
pub use lookups::{
    clear_system_property, host_name as local_host_name, main_arguments, set_main_arguments,
    set_system_property, system_property,
};

/// A substitutor: the configuration's properties plus log4j2's lookups.
#[derive(Clone, Debug, Default)]
pub struct Substitutor {
    properties: HashMap<String, String>,
    /// Properties log4j2 defines for every configuration (`hostName`); unlike `<Properties>`
    /// their values are not substituted again.
    context_properties: HashMap<String, String>,
    config_location: Option<PathBuf>,
    /// What the lookups remember across substitutions: the warnings already given and the
    /// resource bundles read. Shared by the clones of this substitutor (the one used at load
    /// and the one that resolves `$${…}` per event), so each warning is given once.
    memory: Arc<lookups::LookupMemory>,
}

/// What a resolution produced and whether the result may hold more variables to expand.
struct Resolved {
    value: String,
    recursive: bool,
}

impl Substitutor {
    /// A substitutor without properties (what log4j2 uses for the root element's attributes
    /// and for `<Property>` values themselves).
    pub fn new(config_location: Option<&Path>) -> Substitutor {
        let mut context_properties = HashMap::new();
        context_properties.insert("hostName".to_string(), lookups::host_name());
        Substitutor {
            properties: HashMap::new(),
            context_properties,
            config_location: config_location.map(absolute),
            memory: Arc::default(),
        }
    }

    /// A substitutor with `<Properties>` (later duplicates win, as in a map).
    pub fn with_properties(
        config_location: Option<&Path>,
        properties: impl IntoIterator<Item = (String, String)>,
    ) -> Substitutor {
        let mut substitutor = Substitutor::new(config_location);
        substitutor.properties.extend(properties);
        substitutor
    }

    /// The raw value of a `<Properties>` entry.
    pub fn property(&self, name: &str) -> Option<&str> {
        self.properties.get(name).map(String::as_str)
    }

    /// The configuration file the `log4j:` lookup reports.
    pub fn config_location(&self) -> Option<&Path> {
        self.config_location.as_deref()
    }

    /// Substitutes `text` at configuration time (no event); cycles are reported to the status
    /// logger.
    pub fn replace(&self, text: &str) -> String {
        self.replace_reporting(text, None, &mut to_status_logger)
    }

    /// Substitutes `text`, handing every problem (cycles, bad date patterns, limits crossed)
    /// to `report` instead of the status logger.
    pub fn replace_reporting(
        &self,
        text: &str,
        event: Option<&LogEvent<'_>>,
        report: &mut Report<'_>,
    ) -> String {
        if !text.contains("${") {
            return text.to_string();
        }
        let mut pass = Pass {
            substitutor: self,
            event,
            report,
            depth: 0,
            expansions: 0,
            stopped: false,
            outermost: String::new(),
        };
        pass.replace(text)
    }

    fn resolve(
        &self,
        name: &str,
        pass_event: Option<&LogEvent<'_>>,
        report: &mut Report<'_>,
    ) -> Option<Resolved> {
        let mut name = name;
        let mut unavailable_prefix = None;
        if let Some((prefix, key)) = name.split_once(':') {
            let prefix = prefix.to_ascii_lowercase();
            if let Some(value) = lookups::lookup(self, &prefix, key, pass_event, report) {
                return Some(Resolved {
                    value,
                    recursive: false,
                });
            }
            if !lookups::is_implemented(&prefix) {
                unavailable_prefix = Some(prefix);
            }
            name = key;
        }
        if let Some(value) = self.properties.get(name) {
            return Some(Resolved {
                value: value.clone(),
                recursive: true,
            });
        }
        let resolved = self.context_properties.get(name).map(|value| Resolved {
            value: value.clone(),
            recursive: false,
        });
        // log4j2 falls back to a property silently; when that finds nothing either, the
        // variable stays unresolved, and a lookup l4rs lacks deserves a word (once).
        if let (None, Some(prefix)) = (&resolved, unavailable_prefix) {
            if self.memory.first_warning(&prefix) {
                report(Severity::Warning, lookups::unavailable_message(&prefix));
            }
        }
        resolved
    }
}

impl Interpolator for Substitutor {
    fn interpolate(&self, text: &str, event: Option<&LogEvent<'_>>) -> String {
        // Without an event this is a layout or rollover resolving its text once: every problem
        // is reported, as at configuration time.
        let Some(event) = event else {
            return self.replace_reporting(text, None, &mut to_status_logger);
        };
        let limit = &self.memory.event_reports;
        self.replace_reporting(text, Some(event), &mut |severity, message| {
            // Only what the status logger prints uses up the limit (and can flood).
            let level = status_level(severity);
            let printed = level.is_at_least_as_severe_as(l4rs_core::status::level());
            if !printed || limit.admit().is_some() {
                l4rs_core::status::log(level, message);
            }
        })
    }
}

fn to_status_logger(severity: Severity, message: String) {
    l4rs_core::status::log(status_level(severity), message);
}

fn status_level(severity: Severity) -> Level {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARN,
        Severity::Info => Level::INFO,
    }
}

/// At most 60 characters of `text`, to name a variable in a message without repeating a
/// hostile megabyte.
fn excerpt(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// One substitution run. Works on `char`s so positions never split a character.
struct Pass<'p, 'e> {
    substitutor: &'p Substitutor,
    event: Option<&'p LogEvent<'e>>,
    report: &'p mut Report<'p>,
    /// How many substitutions are under way around the current one.
    depth: usize,
    /// Variables expanded so far.
    expansions: usize,
    /// Set when a limit was crossed: nothing more is expanded.
    stopped: bool,
    /// The variable written in the text being substituted, to name in a message about a
    /// limit crossed deep inside its expansion.
    outermost: String,
}

const ESCAPE: char = '$';

fn matches(buf: &[char], pos: usize, end: usize, what: &[char]) -> bool {
    pos + what.len() <= end && buf[pos..pos + what.len()] == *what
}

impl Pass<'_, '_> {
    /// Reports a limit crossed and stops the pass.
    fn stop(&mut self, message: String) {
        if !self.stopped {
            self.stopped = true;
            (self.report)(
                Severity::Error,
                format!("{message}; the rest is left as written (a limit l4rs sets against hostile input)"),
            );
        }
    }

    /// Enters one more level of nesting, or stops the pass when that is one too many.
    fn enter(&mut self, variable: &str) -> bool {
        if self.depth >= MAX_NESTING_DEPTH {
            self.stop(format!(
                "Variables nest deeper than {MAX_NESTING_DEPTH} levels in ${{{}}}",
                excerpt(variable)
            ));
            return false;
        }
        self.depth += 1;
        true
    }

    fn replace(&mut self, text: &str) -> String {
        let mut buf: Vec<char> = text.chars().collect();
        let length = buf.len();
        let mut prior = Vec::new();
        self.substitute(&mut buf, 0, length, &mut prior, true);
        buf.into_iter().collect()
    }

    /// Substitutes `buf[offset..offset + length]` in place and returns how much its length
    /// changed. `prior` holds the variables being expanded (after the original text, which the
    /// top-level call records first), for cycle detection.
    fn substitute(
        &mut self,
        buf: &mut Vec<char>,
        offset: usize,
        length: usize,
        prior: &mut Vec<String>,
        top: bool,
    ) -> isize {
        const PREFIX: [char; 2] = ['$', '{'];
        let mut pos = offset;
        let mut end = offset + length;
        let mut length_change: isize = 0;
        while pos < end {
            if self.stopped {
                break;
            }
            if !matches(buf, pos, end, &PREFIX) {
                pos += 1;
                continue;
            }
            if pos > offset && buf[pos - 1] == ESCAPE {
                // `$${`: drop the escape and step over the `$` so this variable is not expanded.
                buf.remove(pos - 1);
                length_change -= 1;
                end -= 1;
                continue;
            }
            let start = pos;
            pos += PREFIX.len();
            let mut nested = 0usize;
            while pos < end {
                if matches(buf, pos, end, &PREFIX) {
                    nested += 1;
                    pos += PREFIX.len();
                    continue;
                }
                if buf[pos] != '}' {
                    pos += 1;
                    continue;
                }
                if nested > 0 {
                    nested -= 1;
                    pos += 1;
                    continue;
                }
                let expression: String = buf[start + PREFIX.len()..pos].iter().collect();
                // Variables inside the name (and default) are expanded first, in a pass of
                // their own.
                let expression = self.nested_replace(&expression);
                if self.stopped {
                    break;
                }
                pos += 1;
                let var_end = pos;
                let (name, default) = split_default(&expression);
                if top && prior.is_empty() {
                    let current = offset as isize + length as isize + length_change;
                    prior.push(
                        buf[offset..current.max(offset as isize) as usize]
                            .iter()
                            .collect(),
                    );
                }
                let cyclic = prior.contains(&name);
                if cyclic {
                    let chain = prior[1..]
                        .iter()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .join("->");
                    (self.report)(
                        Severity::Warning,
                        format!("Infinite loop in property interpolation of {chain}"),
                    );
                } else {
                    prior.push(name.clone());
                }
                if self.depth == 0 {
                    self.outermost = name.clone();
                }
                self.expansions += 1;
                if self.expansions > MAX_EXPANSIONS {
                    self.stop(format!(
                        "Substituting ${{{}}} takes more than {MAX_EXPANSIONS} variable expansions (stopped at ${{{}}})",
                        excerpt(&self.outermost),
                        excerpt(&name)
                    ));
                }
                let resolved = if cyclic || self.stopped {
                    None
                } else {
                    self.substitutor.resolve(&name, self.event, self.report)
                };
                let recursive = resolved.as_ref().is_some_and(|r| r.recursive);
                let value = resolved.map(|r| r.value).or(default);
                let value = value.filter(|_| !self.stopped).filter(|value| {
                    let grown = buf.len() - (var_end - start) + value.chars().count();
                    if grown > MAX_EXPANDED_CHARS {
                        self.stop(format!(
                            "Substituting ${{{}}} makes the text longer than {MAX_EXPANDED_CHARS} characters (stopped at ${{{}}})",
                            excerpt(&self.outermost),
                            excerpt(&name)
                        ));
                    }
                    grown <= MAX_EXPANDED_CHARS
                });
                if let Some(value) = value {
                    let value: Vec<char> = value.chars().collect();
                    let value_length = value.len();
                    buf.splice(start..var_end, value);
                    let mut change = if recursive && self.enter(&name) {
                        let change = self.substitute(buf, start, value_length, prior, false);
                        self.depth -= 1;
                        change
                    } else {
                        0
                    };
                    change += value_length as isize - (var_end - start) as isize;
                    pos = (pos as isize + change) as usize;
                    end = (end as isize + change) as usize;
                    length_change += change;
                }
                if !cyclic {
                    prior.pop();
                }
                break;
            }
        }
        length_change
    }

    fn nested_replace(&mut self, text: &str) -> String {
        if !text.contains("${") || !self.enter(text) {
            return text.to_string();
        }
        let replaced = self.replace(text);
        self.depth -= 1;
        replaced
    }
}

/// Splits `name:-default`, honouring the `:\-` escape as log4j2 does: the escape stands for a
/// literal `:-` in the name, and a later `:-` still starts the default.
fn split_default(expression: &str) -> (String, Option<String>) {
    let chars: Vec<char> = expression.chars().collect();
    let delimiter = [':', '-'];
    let escaped = [':', '\\', '-'];
    let text = |from: usize, to: usize| chars[from..to].iter().collect::<String>();
    for i in 0..chars.len() {
        if matches(&chars, i, chars.len(), &escaped) {
            let prefix = format!("{}:", text(0, i));
            let rest_start = i + escaped.len() - 1;
            for j in i + escaped.len()..chars.len() {
                if matches(&chars, j, chars.len(), &delimiter) {
                    return (
                        format!("{prefix}{}", text(rest_start, j)),
                        Some(text(j + delimiter.len(), chars.len())),
                    );
                }
            }
            return (format!("{prefix}{}", text(rest_start, chars.len())), None);
        }
        if matches(&chars, i, chars.len(), &delimiter) {
            return (text(0, i), Some(text(i + delimiter.len(), chars.len())));
        }
    }
    (expression.to_string(), None)
}

#[cfg(test)]
mod tests;
