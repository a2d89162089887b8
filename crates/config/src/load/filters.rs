//! Filters and the one-filter slot of loggers, references and appenders.

use l4rs_core::{FilterResult, Level};

use super::binder::Binder;
use super::node::PNode;
use super::scripts::{is_script, refuse, ScriptSlot, ScriptUser};
use crate::context_map_file::ContextMapFile;
use crate::model::{FilterSpec, FilterVerdicts};
use crate::plugins::Plugin;
use crate::Severity;

/// log4j2's BurstFilter: the burst allowance defaults to this many times the rate.
const BURST_RATE_MULTIPLE: f32 = 100.0;
/// log4j2's BurstFilter default rate (events per second).
const BURST_DEFAULT_RATE: f64 = 10.0;

/// True when a child element occupies the filter slot (any log4j2 filter, implemented or not).
pub(crate) fn is_filter(node: &PNode) -> bool {
    let lower = node.name.to_ascii_lowercase();
    lower.ends_with("filter") || lower == "filters"
}

/// Fills a plugin's single filter slot: the first filter child is bound, a second one gets
/// log4j2's "has no parameter that matches element" error and is ignored.
pub(crate) struct FilterSlot {
    filled: bool,
    pub filter: Option<FilterSpec>,
}

impl FilterSlot {
    pub(super) fn new() -> FilterSlot {
        FilterSlot {
            filled: false,
            filter: None,
        }
    }

    /// Offers `child` (a filter) to the slot of `parent`.
    pub(super) fn offer(&mut self, binder: &mut Binder, parent: &PNode, child: PNode) {
        if self.filled {
            binder.unexpected_child(parent, &child);
            return;
        }
        self.filled = true;
        self.filter = build_filter(binder, child);
    }
}

fn verdicts(binder: &mut Binder, node: &mut PNode) -> FilterVerdicts {
    let on_match = binder.verdict(node, &["onMatch"], FilterResult::Neutral);
    let on_mismatch = binder.verdict(node, &["onMismatch"], FilterResult::Deny);
    FilterVerdicts {
        on_match,
        on_mismatch,
    }
}

/// A required attribute: `value`, or an error reported with `message` when it is missing.
fn required(
    binder: &mut Binder,
    node: &PNode,
    value: Option<String>,
    message: &str,
) -> Option<String> {
    if value.is_none() {
        binder.error(node, message);
    }
    value
}

/// A KeyValuePair child as built: its element (for the position of a report), key and value.
type BuiltPair = (PNode, Option<String>, Option<String>);

/// Builds the `<KeyValuePair key value>` children of a filter that takes them, as log4j2
/// builds children before their parent; the other children are returned for the parent's
/// report of elements it has no parameter for.
fn split_pairs(binder: &mut Binder, children: Vec<PNode>) -> (Vec<BuiltPair>, Vec<PNode>) {
    let mut pairs = Vec::new();
    let mut others = Vec::new();
    for mut child in children {
        if child.canonical == Some(Plugin::KeyValuePair) {
            let (key, value) = super::key_value_pair(binder, &mut child);
            pairs.push((child, key, value));
        } else {
            others.push(child);
        }
    }
    (pairs, others)
}

/// A DynamicThresholdFilter's pairs as context value → level: log4j2's `Level.toLevel` makes
/// an unknown or missing level name DEBUG, and a later pair replaces an earlier one with the
/// same key. A pair without `key` can never match (a context value is never null), so it is
/// dropped.
fn key_value_levels(pairs: Vec<BuiltPair>) -> Vec<(String, Level)> {
    let mut levels: Vec<(String, Level)> = Vec::new();
    for (_, key, value) in pairs {
        let level = value
            .and_then(|name| Level::from_name(name.trim()).ok())
            .unwrap_or(Level::DEBUG);
        let Some(key) = key else { continue };
        match levels.iter_mut().find(|(existing, _)| *existing == key) {
            Some(entry) => entry.1 = level,
            None => levels.push((key, level)),
        }
    }
    levels
}

/// The pairs of a ThreadContextMapFilter (or of its parent class MapFilter, or of
/// StructuredDataFilter: `plugin`) grouped by key, as log4j2's factory groups them: a pair
/// without a key or value is left out with log4j2's error, and `None` (after the error log4j2
/// gives) when no pair is left, for log4j2 then creates no filter.
fn context_map_values(
    binder: &mut Binder,
    node: &PNode,
    plugin: Plugin,
    pairs: Vec<BuiltPair>,
) -> Option<Vec<(String, Vec<String>)>> {
    if pairs.is_empty() {
        let message = match plugin {
            Plugin::ThreadContextMapFilter => {
                "key and value pairs must be specified for the ThreadContextMapFilter".to_string()
            }
            _ => format!("keys and values must be specified for the {plugin}"),
        };
        binder.error_help(
            node,
            message,
            "add <KeyValuePair key=\"…\" value=\"…\"/> children; the filter is not created",
        );
        return None;
    }
    let mut values: Vec<(String, Vec<String>)> = Vec::new();
    for (pair, key, value) in pairs {
        let Some(key) = key else {
            binder.error_help(
                &pair,
                "A null key is not valid in MapFilter",
                "add key=\"…\" naming the context-map entry; the pair is left out",
            );
            continue;
        };
        let Some(value) = value else {
            binder.error_help(
                &pair,
                format!("A null value for key {key} is not allowed in MapFilter"),
                "add value=\"…\" (value=\"\" matches an empty value); the pair is left out",
            );
            continue;
        };
        match values.iter_mut().find(|(existing, _)| *existing == key) {
            Some((_, listed)) => listed.push(value),
            None => values.push((key, vec![value])),
        }
    }
    if values.is_empty() {
        binder.error_help(
            node,
            format!("{plugin} is not configured with any valid key value pairs"),
            "give each <KeyValuePair> a key and a value; the filter is not created",
        );
        return None;
    }
    Some(values)
}

/// A TimeFilter's `start` or `end`, read as log4j2 reads it: a time it cannot read is
/// reported with log4j2's WARN and replaced by the default (`None`).
fn time_of_day(
    binder: &mut Binder,
    node: &PNode,
    text: Option<String>,
    default: &str,
) -> Option<u32> {
    let text = text?;
    match l4rs_java_syntax::local_time::parse_hh_mm_ss(&text) {
        Ok(second) => Some(second),
        Err(error) => {
            binder.report(
                crate::Severity::Warning,
                format!("Error parsing TimeFilter timestamp value {text} {error}"),
                Some(node),
                None,
                Some(format!(
                    "write the time as HH:mm:ss, two digits each (09:00:00); the filter uses {default}"
                )),
            );
            None
        }
    }
}

/// What log4j2 checks of a plugin element between building its children and calling its
/// factory: attributes it has no parameter for, then the child elements it has none for (set
/// aside in [`PNode::refused`]), which [`Binder::finish`] reports.
struct Leftovers {
    inserted_attrs: usize,
    reported: bool,
}

impl Leftovers {
    /// Reports them, once; each filter does so after reading its attributes and before its
    /// factory's own messages, which log4j2 prints last.
    fn report(&mut self, binder: &mut Binder, node: &PNode) {
        if !std::mem::replace(&mut self.reported, true) {
            binder.finish(node, self.inserted_attrs);
        }
    }
}

/// `<Filters>`: its filter children built in order, then log4j2's report of each whose
/// factory returned nothing, then its leftovers.
fn build_composite(
    binder: &mut Binder,
    node: &mut PNode,
    children: Vec<PNode>,
    inserted_attrs: usize,
) -> FilterSpec {
    let mut filters = Vec::new();
    // log4j2 reports each filter of its plugins whose factory returned nothing; one l4rs does
    // not implement would have been built there, so it is not reported.
    let mut failed = Vec::new();
    for child in children {
        if !is_filter(&child) {
            node.refused.push(child);
            continue;
        }
        // Straight into build_filter, not through Binder::build_child: nested <Filters>
        // recurse here, and every frame on the way counts against the stack.
        let stub = child.canonical.is_some().then(|| child.stub());
        match build_filter(binder, child) {
            Some(filter) => filters.push(filter),
            None => failed.extend(stub),
        }
    }
    binder.null_children(node, &failed);
    binder.finish(node, inserted_attrs);
    FilterSpec::Composite(filters)
}

/// Builds one filter element; `None` (after a diagnostic) when it cannot be built. The
/// messages come in log4j2's order: the children's (KeyValuePairs, or a composite's filters),
/// the attributes' values, attributes and children the filter has no parameter for, then what
/// its factory reports.
pub(crate) fn build_filter(binder: &mut Binder, mut node: PNode) -> Option<FilterSpec> {
    let Some(canonical) = node.canonical else {
        binder.unsupported(&node);
        return None;
    };
    let inserted_attrs = node.attrs.len();
    let children = std::mem::take(&mut node.children);
    match canonical {
        Plugin::Filters => Some(build_composite(binder, &mut node, children, inserted_attrs)),
        Plugin::ScriptFilter => script_filter(binder, node, children, inserted_attrs),
        _ => build_leaf_filter(binder, node, canonical, inserted_attrs, children),
    }
}

/// `<ScriptFilter>`: its script and verdicts are read, then it is refused as log4j2 refuses it
/// without a script engine (see `scripts.rs`). Always `None`.
fn script_filter(
    binder: &mut Binder,
    mut node: PNode,
    children: Vec<PNode>,
    inserted_attrs: usize,
) -> Option<FilterSpec> {
    let mut slot = ScriptSlot::default();
    for child in children {
        if is_script(&child) {
            slot.offer(binder, &mut node, child);
        } else {
            node.refused.push(child);
        }
    }
    let _ = verdicts(binder, &mut node);
    binder.finish(&node, inserted_attrs);
    refuse(binder, &node, slot.script.as_ref(), ScriptUser::Filter);
    None
}

/// `<MutableThreadContextMapFilter>`: the file's pairs read now, as log4j2's builder reads
/// them when the filter does not poll. Reading it now when it polls too means the first
/// events are judged by the file, where log4j2 judges them NEUTRAL until its first poll.
fn mutable_context_map(
    binder: &mut Binder,
    node: &PNode,
    location: Option<String>,
    poll: i64,
    verdicts: FilterVerdicts,
) -> Option<FilterSpec> {
    const CLASS: &str = "org.apache.logging.log4j.core.filter.MutableThreadContextMapFilter";
    let Some(location) = location else {
        // log4j2's builder makes a File of the null location.
        binder.builder_threw(
            node,
            CLASS,
            "java.lang.NullPointerException",
            None,
            "add configLocation=\"…\" naming the JSON file of key/value pairs; the filter is not created",
        );
        return None;
    };
    if let Some((scheme, _)) = location.split_once("://") {
        if !scheme.eq_ignore_ascii_case("file") {
            binder.error_help(
                node,
                format!("{} configLocation=\"{location}\" is not a file: l4rs reads the pairs from a file only; the filter is not created", node.name),
                "copy the JSON to a file and give its path or file: URI",
            );
            return None;
        }
    }
    let path = super::toplevel::file_of_uri(&location);
    let mut warnings = Vec::new();
    let (read, read_at) = crate::context_map_file::read(&path, &mut |w| warnings.push(w));
    for warning in warnings {
        binder.report(Severity::Warning, warning, Some(node), None, None);
    }
    let initial = match read {
        ContextMapFile::Pairs(pairs) => Some(pairs),
        ContextMapFile::Empty | ContextMapFile::NotFound => None,
        ContextMapFile::Invalid(reason) => {
            binder.report(Severity::Warning, reason, Some(node), None, None);
            if poll <= 0 {
                binder.report(
                    Severity::Warning,
                    "Unexpected response returned on initial call: ERROR",
                    Some(node),
                    None,
                    None,
                );
            }
            None
        }
    };
    Some(FilterSpec::MutableThreadContextMap(Box::new(
        crate::model::MutableContextMapSpec {
            location: path,
            poll_seconds: u64::try_from(poll).unwrap_or(0),
            initial,
            read_at,
            verdicts,
        },
    )))
}

/// [`build_filter`] for every filter but `<Filters>`. Kept out of it so that nested
/// `<Filters>`, which recurse through it, do so in small stack frames: configurations may nest
/// them 511 deep, and the loader must not overflow a thread's 2 MiB stack.
#[inline(never)]
fn build_leaf_filter(
    binder: &mut Binder,
    mut node: PNode,
    canonical: Plugin,
    inserted_attrs: usize,
    children: Vec<PNode>,
) -> Option<FilterSpec> {
    let takes_pairs = matches!(
        canonical,
        Plugin::DynamicThresholdFilter
            | Plugin::ThreadContextMapFilter
            | Plugin::MapFilter
            | Plugin::StructuredDataFilter
    );
    let (pairs, refused) = if takes_pairs {
        split_pairs(binder, children)
    } else {
        (Vec::new(), children)
    };
    node.refused.extend(refused);
    let mut leftovers = Leftovers {
        inserted_attrs,
        reported: false,
    };
    let spec = match canonical {
        Plugin::ThresholdFilter => {
            let level = binder.level(&mut node, &["level"]).unwrap_or(Level::ERROR);
            Some(FilterSpec::Threshold {
                level,
                verdicts: verdicts(binder, &mut node),
            })
        }
        Plugin::LevelRangeFilter => {
            // log4j2 2.19 defaults both ends to ERROR (verified with the oracle).
            let min_level = binder
                .level(&mut node, &["minLevel"])
                .unwrap_or(Level::ERROR);
            let max_level = binder
                .level(&mut node, &["maxLevel"])
                .unwrap_or(Level::ERROR);
            Some(FilterSpec::LevelRange {
                min_level,
                max_level,
                verdicts: verdicts(binder, &mut node),
            })
        }
        Plugin::LevelMatchFilter => {
            let level = binder.level(&mut node, &["level"]).unwrap_or(Level::ERROR);
            Some(FilterSpec::LevelMatch {
                level,
                verdicts: verdicts(binder, &mut node),
            })
        }
        Plugin::RegexFilter => {
            let regex = binder.string(&mut node, &["regex"]);
            let use_raw_msg = binder.boolean(&mut node, &["useRawMsg"], false);
            let verdicts = verdicts(binder, &mut node);
            leftovers.report(binder, &node);
            let message = "A regular expression must be provided for RegexFilter";
            required(binder, &node, regex, message).map(|regex| FilterSpec::Regex {
                regex,
                use_raw_msg,
                verdicts,
            })
        }
        Plugin::StringMatchFilter => {
            let text = binder.string(&mut node, &["text"]);
            let verdicts = verdicts(binder, &mut node);
            leftovers.report(binder, &node);
            let message = "A text value must be provided for StringMatchFilter";
            required(binder, &node, text, message)
                .map(|text| FilterSpec::StringMatch { text, verdicts })
        }
        Plugin::MarkerFilter => {
            let marker = binder.string(&mut node, &["marker"]);
            let verdicts = verdicts(binder, &mut node);
            leftovers.report(binder, &node);
            let message = "A marker must be provided for MarkerFilter";
            required(binder, &node, marker, message)
                .map(|marker| FilterSpec::Marker { marker, verdicts })
        }
        Plugin::NoMarkerFilter => Some(FilterSpec::NoMarker {
            verdicts: verdicts(binder, &mut node),
        }),
        Plugin::DenyAllFilter => Some(FilterSpec::DenyAll {
            verdicts: verdicts(binder, &mut node),
        }),
        Plugin::BurstFilter => {
            let level = binder.level(&mut node, &["level"]).unwrap_or(Level::WARN);
            let rate = binder
                .float(&mut node, &["rate"])
                .filter(|rate| *rate > 0.0)
                .unwrap_or(BURST_DEFAULT_RATE);
            let max_burst = binder
                .long(&mut node, &["maxBurst"])
                .filter(|burst| *burst > 0)
                // Java multiplies in float and truncates to long (verified: 0.05/s gives 5).
                .map_or(((rate as f32) * BURST_RATE_MULTIPLE) as u64, |burst| {
                    burst as u64
                });
            Some(FilterSpec::Burst {
                level,
                rate,
                max_burst,
                verdicts: verdicts(binder, &mut node),
            })
        }
        Plugin::DynamicThresholdFilter => {
            let levels = key_value_levels(pairs);
            let key = binder.string(&mut node, &["key"]);
            let default_threshold = binder
                .level(&mut node, &["defaultThreshold"])
                .unwrap_or(Level::ERROR);
            let verdicts = verdicts(binder, &mut node);
            leftovers.report(binder, &node);
            match key {
                Some(key) => Some(FilterSpec::DynamicThreshold {
                    key,
                    levels,
                    default_threshold,
                    verdicts,
                }),
                None => {
                    binder.factory_failure(
                        &node,
                        "org.apache.logging.log4j.core.filter.DynamicThresholdFilter",
                        "java.lang.NullPointerException: key cannot be null",
                        Some(
                            "add key=\"…\" naming the context-map entry; the filter is not created"
                                .to_string(),
                        ),
                    );
                    None
                }
            }
        }
        Plugin::ThreadContextMapFilter | Plugin::MapFilter | Plugin::StructuredDataFilter => {
            let operator = binder.string(&mut node, &["operator"]);
            let verdicts = verdicts(binder, &mut node);
            leftovers.report(binder, &node);
            let any = operator.is_some_and(|operator| operator.eq_ignore_ascii_case("or"));
            context_map_values(binder, &node, canonical, pairs).map(|pairs| match canonical {
                Plugin::ThreadContextMapFilter => FilterSpec::ThreadContextMap {
                    pairs,
                    any,
                    verdicts,
                },
                _ => FilterSpec::MessageMap {
                    structured_data: canonical == Plugin::StructuredDataFilter,
                    pairs,
                    any,
                    verdicts,
                },
            })
        }
        Plugin::MutableThreadContextMapFilter => {
            // The builder's own fields, then AbstractFilterBuilder's.
            let location = binder.string(&mut node, &["configLocation"]);
            let poll = binder.long(&mut node, &["pollInterval"]).unwrap_or(0);
            let verdicts = verdicts(binder, &mut node);
            leftovers.report(binder, &node);
            mutable_context_map(binder, &node, location, poll, verdicts)
        }
        Plugin::TimeFilter => {
            let start = binder.string(&mut node, &["start"]);
            let end = binder.string(&mut node, &["end"]);
            let zone = binder.string(&mut node, &["timezone"]);
            let verdicts = verdicts(binder, &mut node);
            leftovers.report(binder, &node);
            let start_second = time_of_day(binder, &node, start, "00:00:00").unwrap_or(0);
            let end_second = time_of_day(binder, &node, end, "the end of the day");
            match zone
                .map(|id| l4rs_java_syntax::zone_id::parse(&id))
                .transpose()
            {
                Ok(zone) => Some(FilterSpec::Time {
                    start_second,
                    end_second,
                    zone,
                    verdicts,
                }),
                Err(error) => {
                    // log4j2's factory throws: no filter.
                    binder.factory_failure(
                        &node,
                        "org.apache.logging.log4j.core.filter.TimeFilter",
                        &error.to_string(),
                        Some(
                            "name the zone as java.time.ZoneId does: a tz database id such as \"Europe/Paris\" (case matters), \"UTC\", or an offset such as \"+05:30\" or \"GMT-03:00\"; the filter is not created"
                                .to_string(),
                        ),
                    );
                    None
                }
            }
        }
        _ => {
            binder.unexpected_child(&node, &node);
            None
        }
    };
    leftovers.report(binder, &node);
    spec
}
