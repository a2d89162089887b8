//! What every plugin builder shares: diagnostics, substitution and log4j2's value conversion.

use std::path::PathBuf;

use l4rs_core::{status, FilterResult, Level};

use super::node::{PAttr, PNode, UnknownElement};
use crate::plugins::{self, Plugin};
use crate::substitute::Substitutor;
use crate::{Diagnostic, Position, Severity};

/// How Java prints a null: the default an attribute without a declared one keeps.
const JAVA_NULL: &str = "null";

/// A required field of a plugin builder that the element did not give, as
/// [`Binder::invalid_arguments`] reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MissingField {
    /// The builder's field (`fileName`, `loggerName`, `appenderRefs`).
    pub field: &'static str,
    /// The value Java prints for the field: `null`, or what stands in for it.
    pub shown: &'static str,
    /// The validator's message, reported before the refusal; `None` when it was already given.
    pub message: Option<String>,
    /// What the help tells the user to add: `fileName="…"`, `a triggering policy`.
    pub to_add: String,
}

impl MissingField {
    /// A missing attribute, which Java prints as `null`, with its validator's message.
    pub(crate) fn attribute(field: &'static str, message: impl Into<String>) -> MissingField {
        MissingField {
            message: Some(message.into()),
            ..MissingField::reported(field)
        }
    }

    /// A missing attribute whose validator's message was already reported.
    pub(crate) fn reported(field: &'static str) -> MissingField {
        MissingField {
            field,
            shown: JAVA_NULL,
            message: None,
            to_add: format!("{field}=\"…\""),
        }
    }

    /// The same field, with `to_add` in the help instead of the attribute.
    pub(crate) fn added_as(self, to_add: &str) -> MissingField {
        MissingField {
            to_add: to_add.to_string(),
            ..self
        }
    }

    /// The same field, which Java prints as `shown`.
    pub(crate) fn shown_as(self, shown: &'static str) -> MissingField {
        MissingField { shown, ..self }
    }

    /// The same field as Java prints what was given for it: `null` when nothing was, `''`
    /// for an empty text (`@Required` refuses both).
    pub(crate) fn given_as(self, value: &Option<String>) -> MissingField {
        match value {
            Some(_) => self.shown_as(""),
            None => self,
        }
    }
}

/// Collects diagnostics and reports each to the status logger as it is found.
pub(crate) struct Binder {
    pub file: Option<PathBuf>,
    pub diagnostics: Vec<Diagnostic>,
    pub substitutor: Substitutor,
    /// Whether a message of this load already listed the plugins l4rs implements: the list
    /// (about 1 KB) is given once, later messages point back to it.
    plugin_list_given: bool,
    /// The script languages `log4j2.Script.enableLanguages` allows, lower-cased; `None` when it
    /// is not set (see `scripts.rs`).
    pub script_languages: Option<Vec<String>>,
}

impl Binder {
    pub(crate) fn new(file: Option<PathBuf>, substitutor: Substitutor) -> Binder {
        Binder {
            file,
            diagnostics: Vec::new(),
            substitutor,
            plugin_list_given: false,
            script_languages: None,
        }
    }

    /// The end of a help about an unknown name: the nearest plugin l4rs implements when one is
    /// an obvious misspelling of `name`, then the list of l4rs's plugins the first time only.
    fn plugins_help(&mut self, name: &str) -> String {
        let hint = plugins::nearest_l4rs_plugin(name)
            .map(|nearest| format!("did you mean {nearest}? "))
            .unwrap_or_default();
        if self.plugin_list_given {
            format!("{hint}(l4rs's plugins are listed in the first such message)")
        } else {
            self.plugin_list_given = true;
            format!("{hint}l4rs implements: {}", plugins::l4rs_plugin_list())
        }
    }

    /// Records a diagnostic about `node` (or the file when `None`).
    pub(crate) fn report(
        &mut self,
        severity: Severity,
        message: impl Into<String>,
        node: Option<&PNode>,
        position: Option<Position>,
        help: Option<String>,
    ) {
        let message = message.into();
        // The status line carries the help too: at run time it is all a user sees.
        match &help {
            Some(help) => status::log(severity.level(), format_args!("{message} (help: {help})")),
            None => status::log(severity.level(), &message),
        }
        let file = node
            .and_then(|node| node.file.clone())
            .or_else(|| self.file.clone());
        self.diagnostics.push(Diagnostic {
            severity,
            message,
            file,
            position: position.or(node.map(|node| node.position)),
            help,
        });
    }

    pub(crate) fn error(&mut self, node: &PNode, message: impl Into<String>) {
        self.report(Severity::Error, message, Some(node), None, None);
    }

    pub(crate) fn error_help(
        &mut self,
        node: &PNode,
        message: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.report(
            Severity::Error,
            message,
            Some(node),
            None,
            Some(help.into()),
        );
    }

    /// log4j2's report of a plugin factory that threw: the reflective call wraps the cause, and
    /// the status logger appends the wrapper's text after the message.
    pub(crate) fn factory_failure(
        &mut self,
        node: &PNode,
        java_class: &str,
        cause: &str,
        help: Option<String>,
    ) {
        self.report(
            Severity::Error,
            format!(
                "Unable to invoke factory method in class {java_class} for element {}: {cause} java.lang.reflect.InvocationTargetException",
                node.name
            ),
            Some(node),
            None,
            help,
        );
    }

    /// log4j2's report of a plugin builder whose `build()` threw `cause` (a Java exception as
    /// it prints, `java.lang.NullPointerException: layout`): the builder's failure, whose text
    /// ends with the cause twice (its message, then the exception), then log4j2's fallback to a
    /// factory method, which the plugin lacks. `position` (default: the element) and `help`
    /// belong to the first message.
    pub(crate) fn builder_threw(
        &mut self,
        node: &PNode,
        java_class: &str,
        cause: &str,
        position: Option<Position>,
        help: impl Into<String>,
    ) {
        self.report(
            Severity::Error,
            format!(
                "Could not create plugin of type class {java_class} for element {}: {cause} {cause}",
                node.name
            ),
            Some(node),
            position,
            Some(help.into()),
        );
        let missing = format!(
            "java.lang.IllegalStateException: No factory method found for class {java_class}"
        );
        self.error(
            node,
            format!(
                "Unable to invoke factory method in class {java_class} for element {}: {missing} {missing}",
                node.name
            ),
        );
    }

    /// log4j2's report of a plugin builder whose required fields are missing: each field's
    /// validator message (those it has, in the builder's order), then the builder's refusal
    /// naming them all. The plugin is not created, and its other attributes are not checked.
    pub(crate) fn invalid_arguments(
        &mut self,
        node: &PNode,
        java_class: &str,
        missing: &[MissingField],
    ) {
        for message in missing.iter().filter_map(|field| field.message.as_ref()) {
            self.error(node, message.clone());
        }
        let fields: Vec<String> = missing
            .iter()
            .map(|missing| {
                format!(
                    "field '{}' has invalid value '{}'",
                    missing.field, missing.shown
                )
            })
            .collect();
        let attributes: Vec<String> = missing.iter().map(|m| m.to_add.clone()).collect();
        self.error_help(
            node,
            format!(
                "Could not create plugin of type class {java_class} for element {name} org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element {name} are invalid: {}",
                fields.join(", "),
                name = node.name
            ),
            format!(
                "add {} to <{}>; it is not created",
                attributes.join(" and "),
                node.name
            ),
        );
    }

    /// log4j2's report, when a container plugin is built, of a child plugin that was not
    /// created (its own failure was reported when it was built).
    fn null_child(&mut self, parent: &PNode, child: &PNode) {
        let message = format!(
            "Null object returned for {} in {}.",
            child.name, parent.name
        );
        self.report(Severity::Error, message, Some(child), None, None);
    }

    /// Builds `child` with `build`; when it cannot be built, its stub goes to `failed`, for the
    /// parent's [`Binder::null_children`] report.
    pub(crate) fn build_child<T>(
        &mut self,
        child: PNode,
        failed: &mut Vec<PNode>,
        build: impl FnOnce(&mut Binder, PNode) -> Option<T>,
    ) -> Option<T> {
        let stub = child.stub();
        let built = build(self, child);
        if built.is_none() {
            failed.push(stub);
        }
        built
    }

    /// [`Binder::null_child`] for each of `failed`, in order.
    pub(crate) fn null_children(&mut self, parent: &PNode, failed: &[PNode]) {
        for child in failed {
            self.null_child(parent, child);
        }
    }

    /// Substitutes a configuration-time value, recording cycles as warnings.
    pub(crate) fn substitute(&mut self, value: &str, node: &PNode, position: Position) -> String {
        let mut problems = Vec::new();
        let result = self
            .substitutor
            .replace_reporting(value, None, &mut |severity, problem| {
                problems.push((severity, problem))
            });
        for (severity, problem) in problems {
            self.report(severity, problem, Some(node), Some(position), None);
        }
        result
    }

    /// A `@PluginValue` parameter: the element's text, else its attribute `attribute`, substituted.
    /// Both given is log4j2's ERROR, and the text wins.
    pub(crate) fn plugin_value(&mut self, node: &mut PNode, attribute: &str) -> Option<String> {
        let Some(text) = node.value.clone().filter(|text| !text.is_empty()) else {
            return self.string(node, &[attribute]);
        };
        if let Some(given) = node
            .attrs
            .iter()
            .find(|attr| attr.name.eq_ignore_ascii_case(attribute))
            .filter(|attr| !attr.value.is_empty())
        {
            let message = format!(
                "Configuration contains {} with both attribute value ({}) AND element value ({text}). Please specify only one value. Using the element value.",
                node.name, given.value
            );
            self.error(node, message);
        }
        let position = node.position;
        Some(self.substitute(&text, node, position))
    }

    /// The substituted value of an attribute (any of `names`), consumed from the node.
    pub(crate) fn string(&mut self, node: &mut PNode, names: &[&str]) -> Option<String> {
        let attr = node.take(names)?;
        Some(self.substitute(&attr.value, node, attr.position))
    }

    /// log4j2's warning for a value its type converter refuses: the message ends with the text of
    /// the exception Java's converter threw (`cause`), as log4j2's status logger appends it, and
    /// names the default kept (`shown_default`: the attribute's declared default, or
    /// [`JAVA_NULL`]); the help names the attribute, its element and what `expected` (the values
    /// allowed).
    #[allow(clippy::too_many_arguments)]
    fn conversion_warning(
        &mut self,
        node: &PNode,
        attr: &PAttr,
        value: &str,
        java_type: &str,
        expected: &str,
        cause: String,
        shown_default: &str,
    ) {
        let help = format!(
            "attribute {} of {}: {expected}",
            attr.name,
            node.canonical
                .map_or(node.name.as_str(), |plugin| plugin.name())
        );
        self.report(
            Severity::Warning,
            format!("Error while converting string [{value}] to type [{java_type}]. Using default value [{shown_default}]. {cause}"),
            Some(node),
            Some(attr.position),
            Some(help),
        );
    }

    /// A boolean: `true` in any case is true, anything else false, silently.
    pub(crate) fn boolean(&mut self, node: &mut PNode, names: &[&str], default: bool) -> bool {
        match self.string(node, names) {
            Some(value) => value.eq_ignore_ascii_case("true"),
            None => default,
        }
    }

    /// A String parameter that log4j2 reads with `Booleans.parseBoolean(value, default)`: `true`
    /// or `false` in any case, anything else (or nothing) the default, silently.
    pub(crate) fn parsed_boolean(
        &mut self,
        node: &mut PNode,
        names: &[&str],
        default: bool,
    ) -> bool {
        match self.string(node, names) {
            Some(value) if value.eq_ignore_ascii_case("true") => true,
            Some(value) if value.eq_ignore_ascii_case("false") => false,
            _ => default,
        }
    }

    /// A Java `int` (`Integer.valueOf`: optional sign, decimal digits, nothing else).
    pub(crate) fn int(&mut self, node: &mut PNode, names: &[&str]) -> Option<i32> {
        self.integer(
            node,
            names,
            "int",
            &format!("expected an integer from {} to {}", i32::MIN, i32::MAX),
        )
    }

    /// A Java `long`.
    pub(crate) fn long(&mut self, node: &mut PNode, names: &[&str]) -> Option<i64> {
        self.integer(
            node,
            names,
            "long",
            &format!("expected an integer from {} to {}", i64::MIN, i64::MAX),
        )
    }

    /// A Java integer of type `java_type`; a value out of `T`'s range is refused as Java does.
    fn integer<T: TryFrom<i64>>(
        &mut self,
        node: &mut PNode,
        names: &[&str],
        java_type: &str,
        expected: &str,
    ) -> Option<T> {
        let attr = node.take(names)?;
        let value = self.substitute(&attr.value, node, attr.position);
        match parse_java_integer(&value).and_then(|v| T::try_from(v).ok()) {
            Some(parsed) => Some(parsed),
            None => {
                let cause =
                    format!("java.lang.NumberFormatException: For input string: \"{value}\"");
                self.conversion_warning(node, &attr, &value, java_type, expected, cause, JAVA_NULL);
                None
            }
        }
    }

    /// A Java `float` (`Float.valueOf`: surrounding whitespace allowed, an `f`/`d` suffix too).
    pub(crate) fn float(&mut self, node: &mut PNode, names: &[&str]) -> Option<f64> {
        let attr = node.take(names)?;
        let value = self.substitute(&attr.value, node, attr.position);
        let trimmed = value.trim_matches(|c: char| c <= ' ');
        match parse_java_float(trimmed) {
            Some(parsed) => Some(parsed),
            None => {
                // Java trims before parsing and quotes the trimmed text.
                let cause = if trimmed.is_empty() {
                    "java.lang.NumberFormatException: empty String".to_string()
                } else {
                    format!("java.lang.NumberFormatException: For input string: \"{trimmed}\"")
                };
                self.conversion_warning(
                    node,
                    &attr,
                    &value,
                    "float",
                    "expected a decimal number",
                    cause,
                    JAVA_NULL,
                );
                None
            }
        }
    }

    /// A level, by name, case-insensitively (standard or registered custom levels).
    pub(crate) fn level(&mut self, node: &mut PNode, names: &[&str]) -> Option<Level> {
        let attr = node.take(names)?;
        let value = self.substitute(&attr.value, node, attr.position);
        match Level::from_name(&value) {
            Ok(level) => Some(level),
            Err(_) => {
                let cause = format!(
                    "java.lang.IllegalArgumentException: Unknown level constant [{}].",
                    value.trim_matches(|c: char| c <= ' ').to_uppercase()
                );
                self.conversion_warning(
                    node,
                    &attr,
                    &value,
                    "class org.apache.logging.log4j.Level",
                    "allowed: OFF, FATAL, ERROR, WARN, INFO, DEBUG, TRACE, ALL or a custom level declared before it",
                    cause,
                    JAVA_NULL,
                );
                None
            }
        }
    }

    /// A filter verdict (`ACCEPT`, `NEUTRAL`, `DENY`, any case).
    pub(crate) fn verdict(
        &mut self,
        node: &mut PNode,
        names: &[&str],
        default: FilterResult,
    ) -> FilterResult {
        let Some(attr) = node.take(names) else {
            return default;
        };
        let value = self.substitute(&attr.value, node, attr.position);
        // Java's enum conversion upper-cases the text but does not trim it.
        let verdict = [
            FilterResult::Accept,
            FilterResult::Neutral,
            FilterResult::Deny,
        ]
        .into_iter()
        .find(|verdict| verdict.to_string().eq_ignore_ascii_case(&value));
        match verdict {
            Some(result) => result,
            None => {
                let cause = format!(
                    "java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.Filter.Result.{}",
                    value.to_uppercase()
                );
                self.conversion_warning(
                    node,
                    &attr,
                    &value,
                    "class org.apache.logging.log4j.core.Filter$Result",
                    "allowed: ACCEPT, NEUTRAL, DENY",
                    cause,
                    JAVA_NULL,
                );
                default
            }
        }
    }

    /// An enum given by its Java constant names, matched case-insensitively; the index of the
    /// constant, or `None` (after a warning) when it is none of them.
    pub(crate) fn enumeration(
        &mut self,
        node: &mut PNode,
        names: &[&str],
        java_type: &str,
        constants: &[&str],
    ) -> Option<usize> {
        self.enumeration_defaulting(node, names, java_type, constants, JAVA_NULL)
    }

    /// [`Binder::enumeration`] for an attribute with a `defaultString`: log4j2's warning names
    /// that default, `shown_default`, which it then uses.
    pub(crate) fn enumeration_defaulting(
        &mut self,
        node: &mut PNode,
        names: &[&str],
        java_type: &str,
        constants: &[&str],
        shown_default: &str,
    ) -> Option<usize> {
        let attr = node.take(names)?;
        let value = self.substitute(&attr.value, node, attr.position);
        // Java's enum conversion upper-cases the text but does not trim it.
        match constants
            .iter()
            .position(|constant| constant.eq_ignore_ascii_case(&value))
        {
            Some(index) => Some(index),
            None => {
                let cause = format!(
                    "java.lang.IllegalArgumentException: No enum constant {}.{}",
                    java_type.trim_start_matches("class ").replace('$', "."),
                    value.to_uppercase()
                );
                let allowed = format!("allowed: {}", constants.join(", "));
                self.conversion_warning(
                    node,
                    &attr,
                    &value,
                    java_type,
                    &allowed,
                    cause,
                    shown_default,
                );
                None
            }
        }
    }

    /// A Java `Character`: exactly one UTF-16 unit (so `\t` is two characters and refused, as
    /// log4j2's converter refuses it; XML's `&#9;` gives a tab).
    pub(crate) fn character(&mut self, node: &mut PNode, names: &[&str]) -> Option<char> {
        let attr = node.take(names)?;
        let value = self.substitute(&attr.value, node, attr.position);
        let mut chars = value.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.len_utf16() == 1 => Some(c),
            _ => {
                let cause = format!(
                    "java.lang.IllegalArgumentException: Character string must be of length 1: {value}"
                );
                // A factory's `Character` attribute defaults to the NUL character, which the
                // warning prints as it is.
                self.conversion_warning(
                    node,
                    &attr,
                    &value,
                    "class java.lang.Character",
                    "expected a single character (use an XML character reference such as &#9; for a tab)",
                    cause,
                    "\0",
                );
                None
            }
        }
    }

    /// A charset name Java knows; anything else warns and keeps the default.
    pub(crate) fn charset(&mut self, node: &mut PNode, names: &[&str]) -> Option<String> {
        self.charset_defaulting(node, names, JAVA_NULL)
    }

    /// [`Binder::charset`] for a factory attribute whose declared default the warning names.
    pub(crate) fn charset_defaulting(
        &mut self,
        node: &mut PNode,
        names: &[&str],
        shown_default: &str,
    ) -> Option<String> {
        let attr = node.take(names)?;
        let value = self.substitute(&attr.value, node, attr.position);
        if is_known_charset(&value) {
            Some(value)
        } else {
            let exception = if is_legal_charset_name(&value) {
                "UnsupportedCharsetException"
            } else {
                "IllegalCharsetNameException"
            };
            let cause = format!("java.nio.charset.{exception}: {value}");
            self.conversion_warning(
                node,
                &attr,
                &value,
                "class java.nio.charset.Charset",
                "expected a charset name Java knows, such as UTF-8, ISO-8859-1 or US-ASCII",
                cause,
                shown_default,
            );
            None
        }
    }

    /// Reports what is left on a built plugin: unknown attributes (log4j2's wording and order),
    /// then the child elements it refused.
    pub(crate) fn finish(&mut self, node: &PNode, inserted_attrs: usize) {
        self.report_leftover_attributes(node, inserted_attrs);
        for child in &node.refused {
            self.unusable_child(node, child);
        }
    }

    fn report_leftover_attributes(&mut self, node: &PNode, inserted_attrs: usize) {
        if !node.attrs.is_empty() {
            let leftover = node.leftover_in_java_order(inserted_attrs);
            let names: Vec<String> = leftover
                .iter()
                .map(|attr| format!("\"{}\"", attr.name))
                .collect();
            let message = if names.len() == 1 {
                format!(
                    "{} contains an invalid element or attribute {}",
                    node.name, names[0]
                )
            } else {
                format!(
                    "{} contains invalid attributes {}",
                    node.name,
                    names.join(", ")
                )
            };
            let first = leftover[0].name.clone();
            let namespaced = leftover.iter().any(|attr| attr.name.contains(':'));
            let position = leftover.first().map(|attr| attr.position);
            let help = format!(
                "not an attribute of {}{}",
                node.canonical
                    .map_or(node.name.as_str(), |plugin| plugin.name()),
                if namespaced {
                    String::new()
                } else {
                    format!("; check the spelling; {}", self.plugins_help(&first))
                }
            );
            self.report(Severity::Error, message, Some(node), position, Some(help));
        }
    }

    /// Reports a child element the plugin has no place for.
    pub(crate) fn unexpected_child(&mut self, parent: &PNode, child: &PNode) {
        let element_type = parent.canonical.map_or("", Plugin::element_type);
        let start = if element_type.is_empty() || element_type == parent.name {
            parent.name.clone()
        } else {
            format!("{element_type} {}", parent.name)
        };
        self.report(
            Severity::Error,
            format!(
                "{start} has no parameter that matches element {}",
                child.name
            ),
            Some(child),
            None,
            None,
        );
    }

    /// Reports an element that is no log4j2 plugin and that log4j2 would drop without a word
    /// (a top-level leaf becomes an attribute of `<Configuration>`, which ignores it).
    pub(crate) fn unknown_element(&mut self, node: &PNode) {
        let plugins_help = self.plugins_help(&node.name);
        self.report(
            Severity::Error,
            format!(
                "Unknown plugin element \"{}\" is ignored: it is not a log4j2 plugin",
                node.name
            ),
            Some(node),
            None,
            Some(plugins_help),
        );
    }

    /// log4j2's report of an element that is no plugin but holds plugins: it is dropped with
    /// everything inside it.
    pub(crate) fn class_not_found(&mut self, unknown: &UnknownElement) {
        let node = PNode::bare(unknown.name.clone(), unknown.position, unknown.file.clone());
        let plugins_help = self.plugins_help(&unknown.name);
        self.report(
            Severity::Error,
            format!(
                "Error processing element {} ([{}: null]): CLASS_NOT_FOUND",
                unknown.name, unknown.parent_tag
            ),
            Some(&node),
            None,
            Some(format!(
                "{} is not a log4j2 plugin, so it is ignored with everything inside it; {}",
                unknown.name, plugins_help
            )),
        );
    }

    /// Reports a real log4j2 plugin that l4rs does not implement.
    pub(crate) fn unsupported(&mut self, node: &PNode) {
        let plugins_help = self.plugins_help(&node.name);
        self.report(
            Severity::Error,
            format!(
                "plugin {} is not available in l4rs yet; the element is ignored",
                node.name
            ),
            Some(node),
            None,
            Some(plugins_help),
        );
    }

    /// Sets the children of `node`, an element that takes none, aside: [`Binder::finish`]
    /// reports each as unusable after the leftover attributes, where log4j2 reports them.
    pub(crate) fn refuse_children(&mut self, node: &mut PNode) {
        let children = std::mem::take(&mut node.children);
        node.refused.extend(children);
    }

    /// Sets aside a child element a plugin builder has no parameter for: log4j2 reports it
    /// after the leftover attributes ([`Binder::finish`]). A log4j2 plugin l4rs lacks is
    /// reported at once, where log4j2 builds it (and reports what its own factory says).
    pub(crate) fn refuse_child(&mut self, node: &mut PNode, child: PNode) {
        if child.is_plugin && child.canonical.is_none() {
            self.unsupported(&child);
        } else {
            node.refused.push(child);
        }
    }

    /// Reports a child that is neither implemented nor expected where it is.
    pub(crate) fn unusable_child(&mut self, parent: &PNode, child: &PNode) {
        if child.is_plugin && child.canonical.is_none() {
            self.unsupported(child);
        } else {
            self.unexpected_child(parent, child);
        }
    }
}

/// Java's `Long.valueOf` rules: an optional sign then ASCII digits, no spaces, no suffix.
pub(crate) fn parse_java_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<i64>().ok()
}

/// Java's `Float.valueOf` on text already trimmed: decimal or exponent notation with an optional
/// sign and `f`/`d` suffix, or `NaN` / `Infinity` spelled exactly so. (Hexadecimal floats are not
/// accepted; no log4j2 attribute takes one in practice.)
pub(crate) fn parse_java_float(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    if unsigned == "NaN" || unsigned == "Infinity" {
        return text.replace("Infinity", "inf").parse().ok();
    }
    let number = text.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(text);
    let digits = number.strip_prefix(['+', '-']).unwrap_or(number);
    // After a leading digit or point, Rust's grammar is Java's decimal one (no `inf`/`nan`
    // words, no hexadecimal), so the parse itself rejects everything else.
    if !digits.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    number.parse().ok()
}

/// Java's rule for a charset name (`Charset.checkName`): not empty, ASCII letters and digits,
/// plus `-`, `+`, `:`, `_` and `.` after the first character. A legal name Java does not know is
/// an `UnsupportedCharsetException`, anything else an `IllegalCharsetNameException`.
fn is_legal_charset_name(name: &str) -> bool {
    name.chars().enumerate().all(|(index, c)| {
        c.is_ascii_alphanumeric() || (index > 0 && matches!(c, '-' | '+' | ':' | '_' | '.'))
    }) && !name.is_empty()
}

fn is_known_charset(name: &str) -> bool {
    const CHARSETS: &[&str] = &[
        "UTF-8",
        "UTF8",
        "US-ASCII",
        "ASCII",
        "ISO-8859-1",
        "ISO8859_1",
        "LATIN1",
        "ISO-LATIN-1",
        "UTF-16",
        "UTF-16LE",
        "UTF-16BE",
        "UTF_16",
        "UTF-32",
        "UTF-32LE",
        "UTF-32BE",
        "WINDOWS-1252",
        "CP1252",
        "ISO-8859-15",
        "LATIN9",
        "WINDOWS-1251",
        "CP1251",
        "KOI8-R",
        "SHIFT_JIS",
        "EUC-JP",
        "GBK",
        "GB2312",
        "GB18030",
        "BIG5",
        "EUC-KR",
        "ISO-8859-2",
        "WINDOWS-1250",
        "CP437",
        "CP850",
    ];
    CHARSETS
        .iter()
        .any(|known| known.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_float_rules() {
        assert_eq!(parse_java_float("1.5"), Some(1.5));
        assert_eq!(parse_java_float("-2f"), Some(-2.0));
        assert_eq!(parse_java_float(".5d"), Some(0.5));
        assert_eq!(parse_java_float("1e3"), Some(1000.0));
        assert_eq!(parse_java_float("Infinity"), Some(f64::INFINITY));
        assert_eq!(parse_java_float("-Infinity"), Some(f64::NEG_INFINITY));
        assert!(parse_java_float("NaN").is_some_and(f64::is_nan));
        for bad in [
            "", "abc", "1.5x", "inf", "nan", "infinity", "f", "1_0", "e5",
        ] {
            assert_eq!(parse_java_float(bad), None, "{bad}");
        }
    }

    #[test]
    fn java_charset_name_rules() {
        for legal in ["UTF-8", "no-such", "x:y", "a.b_c+d", "8bit"] {
            assert!(is_legal_charset_name(legal), "{legal}");
        }
        for illegal in ["", "a b", "-x", "_x", "ü"] {
            assert!(!is_legal_charset_name(illegal), "{illegal}");
        }
    }

    #[test]
    fn java_integer_rules() {
        assert_eq!(parse_java_integer("8192"), Some(8192));
        assert_eq!(parse_java_integer("+5"), Some(5));
        assert_eq!(parse_java_integer("-7"), Some(-7));
        for bad in ["8k", " 8192", "", "+", "0x10", "1_000", "1e3"] {
            assert_eq!(parse_java_integer(bad), None, "{bad}");
        }
    }
}
