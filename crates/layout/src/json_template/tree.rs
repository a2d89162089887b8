//! A template compiled into a tree of resolvers, once, when the layout is built.
//!
//! The tree follows log4j2's `TemplateResolvers`: literal strings, numbers and booleans are
//! escaped once and copied per event; an object is a list of pre-escaped `"key":` prefixes
//! and child nodes; a `{"$resolver": …}` object becomes a resolver. A member whose value can
//! never produce anything (`null`, `{}`, `[]`, an object of such members, a resolver switched
//! off by the layout) is dropped at compile time; a member whose resolver has nothing for an
//! event (no exception, empty MDC, …) is skipped for that event. Arrays keep every item.
//!
//! The tree is generic over the resolvers of its kind of template: event templates resolve a
//! `LogEvent`, stack trace element templates a `StackFrame`.

use std::sync::Arc;

use l4rs_core::{Interpolator, LogEvent};

use super::reader::Value;
use super::writer::{Limits, Writer};

/// What a resolver of type `Self` reads from the value it is given (`V`).
pub(crate) trait Resolve<V> {
    /// False when the resolver has nothing to write for `value`: its member is left out.
    fn resolvable(&self, _value: &V) -> bool {
        true
    }

    /// True for resolvers that write members into the enclosing object rather than a value
    /// (`mdc` with `flatten`).
    fn flattening(&self) -> bool {
        false
    }

    /// Writes the value (or, when flattening, the members; `succeeding` says whether members
    /// were written before in that object).
    fn resolve(&self, value: &V, out: &mut Writer<'_>, succeeding: bool);
}

/// The event a value belongs to, for `${…}` lookups left in template strings.
pub(crate) trait LookupSubject {
    /// The event, when the value is one.
    fn event(&self) -> Option<&LogEvent<'_>>;
}

impl LookupSubject for LogEvent<'_> {
    fn event(&self) -> Option<&LogEvent<'_>> {
        Some(self)
    }
}

impl LookupSubject for l4rs_core::StackFrame {
    fn event(&self) -> Option<&LogEvent<'_>> {
        None
    }
}

/// One node of a compiled template.
pub(crate) enum Node<R> {
    /// Literal JSON, written as is.
    Raw(String),
    /// Literal JSON that has no place in an object (`null`, `{}`, `[]`): kept only in arrays.
    Unresolvable(&'static str),
    /// A string with `${…}` lookups that depend on the event, resolved for each one.
    Lookup {
        text: String,
        interpolator: Arc<dyn Interpolator>,
    },
    /// An array: every item is written.
    Array(Vec<Node<R>>),
    /// An object with at least one member that can be written.
    Object(Vec<Member<R>>),
    /// A `$resolver`.
    Resolver(R),
}

/// One member of an object node.
pub(crate) struct Member<R> {
    /// `"key":`, escaped once (not truncated: log4j2 escapes keys at compile time too).
    prefix: String,
    node: Node<R>,
}

impl<R> Node<R> {
    /// Whether the node can ever write something as an object member.
    fn is_resolvable(&self) -> bool
    where
        R: MaybeResolvable,
    {
        match self {
            Node::Unresolvable(_) => false,
            Node::Resolver(resolver) => resolver.is_resolvable(),
            _ => true,
        }
    }

    /// Whether the node writes something for `value` as an object member.
    pub(super) fn resolvable<V>(&self, value: &V) -> bool
    where
        R: Resolve<V>,
    {
        match self {
            Node::Unresolvable(_) => false,
            Node::Object(members) => members.iter().any(|m| m.node.resolvable(value)),
            Node::Resolver(resolver) => resolver.resolvable(value),
            _ => true,
        }
    }

    /// Writes the node for `value`.
    pub(super) fn write<V: LookupSubject>(&self, value: &V, out: &mut Writer<'_>)
    where
        R: Resolve<V>,
    {
        match self {
            Node::Raw(json) => out.raw(json),
            Node::Unresolvable(json) => out.raw(json),
            Node::Lookup { text, interpolator } => {
                let resolved = interpolator.interpolate(text, value.event());
                out.string(&resolved);
            }
            Node::Array(items) => {
                out.raw("[");
                for (index, item) in items.iter().enumerate() {
                    if index > 0 {
                        out.raw(",");
                    }
                    item.write(value, out);
                }
                out.raw("]");
            }
            Node::Object(members) => {
                out.raw("{");
                let mut written = 0;
                for member in members {
                    if member.write(value, out, written > 0) {
                        written += 1;
                    }
                }
                out.raw("}");
            }
            Node::Resolver(resolver) => resolver.resolve(value, out, false),
        }
    }
}

impl<R> Member<R> {
    /// Writes the member when it has something for `value`; true when it wrote anything.
    fn write<V: LookupSubject>(&self, value: &V, out: &mut Writer<'_>, succeeding: bool) -> bool
    where
        R: Resolve<V>,
    {
        if !self.node.resolvable(value) {
            return false;
        }
        if let Node::Resolver(resolver) = &self.node {
            if resolver.flattening() {
                let before = out.len();
                resolver.resolve(value, out, succeeding);
                return out.len() > before;
            }
        }
        if succeeding {
            out.raw(",");
        }
        out.raw(&self.prefix);
        self.node.write(value, out);
        true
    }
}

/// What compiling needs to know of a resolver, whatever it resolves.
pub(crate) trait MaybeResolvable {
    /// False when the resolver can never write anything, so its member is dropped from the
    /// template (the layout may have switched it off: `exception` without
    /// `stackTraceEnabled`, `source` without `locationInfoEnabled`).
    fn is_resolvable(&self) -> bool {
        true
    }

    /// True for resolvers that merge members into their parent (not allowed in arrays).
    fn flattens(&self) -> bool {
        false
    }
}

/// What compiling a template needs besides the template.
pub(crate) struct Compiler<'a, R> {
    /// Builds a resolver from its `{"$resolver": …}` object; `path` names it in errors.
    pub resolver: &'a mut dyn FnMut(&Value, &str) -> Result<R, String>,
    /// Resolves `${…}` in literal strings.
    pub interpolator: Option<Arc<dyn Interpolator>>,
    /// `maxStringLength`: log4j2 cuts literal strings and member names too.
    pub limits: &'a Limits,
}

impl<R: MaybeResolvable> Compiler<'_, R> {
    /// `text` as a JSON string, cut as the layout cuts strings.
    fn quoted(&self, text: &str) -> String {
        let mut json = String::new();
        Writer::new(&mut json, self.limits).string(text);
        json
    }

    /// Compiles `value`, found at `path` (a JSON pointer such as `/labels`) of its template.
    pub(super) fn compile(&mut self, value: &Value, path: &str) -> Result<Node<R>, String> {
        Ok(match value {
            Value::Null => Node::Unresolvable("null"),
            Value::Bool(b) => Node::Raw(if *b { "true" } else { "false" }.to_string()),
            Value::Number(n) => Node::Raw(super::reader::java_number(n)),
            Value::String(s) => self.string(s),
            Value::Array(items) if items.is_empty() => Node::Unresolvable("[]"),
            Value::Array(items) => {
                let mut nodes = Vec::with_capacity(items.len());
                for (index, item) in items.iter().enumerate() {
                    let item_path = format!("{path}/{index}");
                    let node = self.compile(item, &item_path)?;
                    if matches!(&node, Node::Resolver(r) if r.flattens()) {
                        return Err(format!(
                            "flattening resolvers are not allowed in lists (at {item_path})"
                        ));
                    }
                    nodes.push(node);
                }
                Node::Array(nodes)
            }
            Value::Object(_) if value.get("$resolver").is_some() => {
                Node::Resolver((self.resolver)(value, path)?)
            }
            Value::Object(members) => {
                let mut compiled = Vec::new();
                for (key, child) in members {
                    let node = self.compile(child, &format!("{path}/{key}"))?;
                    if node.is_resolvable() {
                        let mut prefix = self.quoted(key);
                        prefix.push(':');
                        compiled.push(Member { prefix, node });
                    }
                }
                if compiled.is_empty() {
                    Node::Unresolvable("{}")
                } else {
                    Node::Object(compiled)
                }
            }
        })
    }

    fn string(&self, text: &str) -> Node<R> {
        let literal = |text: &str| Node::Raw(self.quoted(text));
        match &self.interpolator {
            Some(interpolator) if text.contains("${") => {
                if depends_on_event(text) {
                    Node::Lookup {
                        text: text.to_string(),
                        interpolator: Arc::clone(interpolator),
                    }
                } else {
                    // Properties, environment, system and host lookups cannot change from one
                    // event to the next: resolved once, so the event pays nothing.
                    literal(&interpolator.interpolate(text, None))
                }
            }
            _ => literal(text),
        }
    }
}

/// The lookups whose result depends on the event or on the time: these stay per event.
const EVENT_LOOKUPS: &[&str] = &["ctx:", "event:", "map:", "marker:", "date:", "sd:"];

fn depends_on_event(text: &str) -> bool {
    text.match_indices("${").any(|(index, _)| {
        let rest = text[index + 2..].trim_start_matches('$');
        EVENT_LOOKUPS.iter().any(|prefix| {
            rest.get(..prefix.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
        })
    })
}
