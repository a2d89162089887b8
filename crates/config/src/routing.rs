//! The logger hierarchy: which logger config owns a logger name, each config's parent and its
//! effective level.
//!
//! log4j2 walks a name up by cutting at the last `.`: `a.b.c`, `a.b`, `a`, then the root. A
//! dot at the very start does not count (`.a` goes straight to the root) and empty parts are
//! kept (`a..b` goes to `a.`, then `a`). l4rs also cuts at `::` so Rust module paths work, and
//! a configured `my_app.db` owns `my_app::db::pool` as `my_app::db` would; names without `::`
//! behave exactly as in log4j2.
//!
//! Resolving a name walks it once, front to back, through a trie of the configured names
//! (`NameTrie`): time linear in the name's length and no allocation, where looking each
//! ancestor up in a hash map would hash every prefix (quadratic: a name with 80 000 dots took
//! seconds).

use std::collections::HashMap;
use std::fmt;

use l4rs_core::Level;

use crate::model::{LoggerSpec, LoggersSpec};

/// The level of a root logger that sets none.
const ROOT_DEFAULT_LEVEL: Level = Level::ERROR;

/// One logger config in the tree.
#[derive(Clone, Debug)]
pub struct LoggerNode {
    /// The configuration of this logger.
    pub spec: LoggerSpec,
    /// Its own level, else the nearest configured ancestor's, else ERROR.
    pub effective_level: Level,
    /// The nearest configured ancestor; `None` for the root.
    pub parent: Option<usize>,
}

impl LoggerNode {
    /// True when the level was inherited rather than set on this logger.
    pub fn level_inherited(&self) -> bool {
        self.spec.level.is_none()
    }
}

/// The resolved logger hierarchy. Index 0 is the root; the named loggers follow in
/// configuration order.
#[derive(Clone, Debug)]
pub struct LoggerTree {
    nodes: Vec<LoggerNode>,
    /// The configured names as written.
    exact: NameTrie,
    /// The configured names with `::` written as `.`, for the Rust-path equivalence.
    normalized: NameTrie,
}

/// The next name up the hierarchy, or `None` past the root (log4j2's `NameUtil.getSubName`,
/// with `::` as a second separator).
pub fn parent_name(name: &str) -> Option<&str> {
    if name.is_empty() {
        return None;
    }
    let dot = name.rfind('.');
    let colons = name.rfind("::");
    let cut = match (dot, colons) {
        (Some(dot), Some(colons)) if colons + 1 > dot => colons,
        (Some(dot), _) => dot,
        (None, Some(colons)) => colons,
        (None, None) => return Some(""),
    };
    Some(if cut > 0 { &name[..cut] } else { "" })
}

fn normalize(name: &str) -> Option<String> {
    name.contains("::").then(|| name.replace("::", "."))
}

/// The configured names as a byte trie, each name's end marked with its config.
///
/// Path-compressed and stored flat, so that 200 000 configured names do not cost a gigabyte:
/// an edge carries the whole run of bytes up to the next branch or name end, so there are at
/// most about two nodes per name, and nodes are numbered breadth first, so a node's children
/// are consecutive, and so are the edges into them (the edge numbered `e` leads to node
/// `e + 1`). A node is then where its edges start and its config; an edge is where its bytes
/// start in one shared buffer.
#[derive(Clone, Debug, Default)]
struct NameTrie {
    /// Node `n`'s edges are `first_edge[n]..first_edge[n + 1]`; one entry more than nodes.
    first_edge: Vec<u32>,
    /// The config of the name ending at each node, [`NameTrie::NONE`] if none.
    configs: Vec<u32>,
    /// Edge `e`'s bytes are `labels[label_start[e]..label_start[e + 1]]`; never empty, and a
    /// node's edges are sorted by their first byte.
    label_start: Vec<u32>,
    /// Every edge's bytes, edge after edge.
    labels: Vec<u8>,
}

/// A place in a [`NameTrie`]: at a node (`into_edge` 0) or `into_edge` bytes into the edge
/// leading to `node`.
#[derive(Clone, Copy, Debug)]
struct TriePlace {
    node: u32,
    into_edge: u32,
}

impl NameTrie {
    /// No configured name ends at the node.
    const NONE: u32 = u32::MAX;

    /// The empty prefix.
    const ROOT: TriePlace = TriePlace {
        node: 0,
        into_edge: 0,
    };

    fn from_names<K: AsRef<str>>(names: HashMap<K, usize>) -> NameTrie {
        let mut sorted: Vec<(&[u8], usize)> = names
            .iter()
            .map(|(name, &config)| (name.as_ref().as_bytes(), config))
            .collect();
        sorted.sort_unstable();
        let mut trie = NameTrie::default();
        trie.label_start.push(0);
        // Nodes waiting in breadth-first order, each as the names under it (a range of
        // `sorted`, sharing their first `depth` bytes) and `depth`.
        let mut pending = std::collections::VecDeque::from([(0, sorted.len(), 0)]);
        while let Some((mut start, end, depth)) = pending.pop_front() {
            trie.first_edge.push(trie.label_start.len() as u32 - 1);
            let mut config = NameTrie::NONE;
            // The keys are distinct, so at most one name ends here, and it sorts first.
            if start < end && sorted[start].0.len() == depth {
                config = sorted[start].1 as u32;
                start += 1;
            }
            trie.configs.push(config);
            while start < end {
                let first = sorted[start].0;
                let byte = first[depth];
                let run = sorted[start..end].partition_point(|(name, _)| name[depth] <= byte);
                // Sorted, so what the first and last names of the run share, all of it shares.
                let last = sorted[start + run - 1].0;
                let shared = first
                    .iter()
                    .zip(last)
                    .skip(depth)
                    .take_while(|(a, b)| a == b)
                    .count();
                trie.labels.extend_from_slice(&first[depth..depth + shared]);
                trie.label_start.push(trie.labels.len() as u32);
                pending.push_back((start, start + run, depth + shared));
                start += run;
            }
        }
        trie.first_edge.push(trie.label_start.len() as u32 - 1);
        trie.labels.shrink_to_fit();
        trie.first_edge.shrink_to_fit();
        trie.configs.shrink_to_fit();
        trie.label_start.shrink_to_fit();
        trie
    }

    /// The bytes of the edge leading to `node` (not the root).
    fn label(&self, node: u32) -> &[u8] {
        let edge = node as usize - 1;
        &self.labels[self.label_start[edge] as usize..self.label_start[edge + 1] as usize]
    }

    /// The place one `byte` further than `place`, if a configured name goes on so.
    fn child(&self, place: TriePlace, byte: u8) -> Option<TriePlace> {
        let (node, label) = if place.into_edge == 0 {
            let node = place.node as usize;
            let (first, last) = (self.first_edge[node], self.first_edge[node + 1]);
            let edge = self.edge_starting_with(first..last, byte)?;
            (edge + 1, self.label(edge + 1))
        } else {
            let label = self.label(place.node);
            if label[place.into_edge as usize] != byte {
                return None;
            }
            (place.node, label)
        };
        let into_edge = if place.into_edge == 0 {
            1
        } else {
            place.into_edge + 1
        };
        Some(TriePlace {
            node,
            into_edge: if into_edge as usize == label.len() {
                0
            } else {
                into_edge
            },
        })
    }

    /// Which of `edges` (one node's, sorted by first byte) starts with `byte`.
    fn edge_starting_with(&self, edges: std::ops::Range<u32>, byte: u8) -> Option<u32> {
        let (mut low, mut high) = (edges.start, edges.end);
        while low < high {
            let middle = low + (high - low) / 2;
            match self.labels[self.label_start[middle as usize] as usize].cmp(&byte) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    /// The config of the name ending at `place`.
    fn config(&self, place: TriePlace) -> Option<usize> {
        if place.into_edge != 0 {
            return None;
        }
        let config = self.configs[place.node as usize];
        (config != NameTrie::NONE).then_some(config as usize)
    }
}

/// A name read byte by byte through both tries of a [`LoggerTree`]: what the `exact` and
/// `normalized` hash lookups of the prefix read so far would answer.
struct Walk<'t> {
    tree: &'t LoggerTree,
    /// The prefix's node in the exact trie (`None` once no configured name starts with it).
    exact: Option<TriePlace>,
    /// The node of the prefix with `::` written as `.`, a trailing single `:` left out.
    normalized: Option<TriePlace>,
    /// The prefix ends with a `:` not yet paired: `str::replace` pairs colons from the left.
    pending_colon: bool,
}

impl<'t> Walk<'t> {
    fn new(tree: &'t LoggerTree) -> Walk<'t> {
        Walk {
            tree,
            exact: Some(NameTrie::ROOT),
            normalized: Some(NameTrie::ROOT),
            pending_colon: false,
        }
    }

    fn step(&mut self, byte: u8) {
        let (exact, normalized) = (&self.tree.exact, &self.tree.normalized);
        self.exact = self.exact.and_then(|node| exact.child(node, byte));
        let step =
            |place: Option<TriePlace>, byte| place.and_then(|place| normalized.child(place, byte));
        if byte == b':' {
            if self.pending_colon {
                self.normalized = step(self.normalized, b'.');
            }
            self.pending_colon = !self.pending_colon;
        } else {
            if self.pending_colon {
                self.normalized = step(self.normalized, b':');
                self.pending_colon = false;
            }
            self.normalized = step(self.normalized, byte);
        }
    }

    /// The config named by the prefix read so far: written exactly so, else the same path
    /// with `::` for `.` (a trailing unpaired `:` stays a `:`).
    fn configured(&self) -> Option<usize> {
        let (exact, normalized) = (&self.tree.exact, &self.tree.normalized);
        self.exact.and_then(|node| exact.config(node)).or_else(|| {
            let mut node = self.normalized?;
            if self.pending_colon {
                node = normalized.child(node, b':')?;
            }
            normalized.config(node)
        })
    }
}

/// `nearest` updated with a run of `length` colons that just ended: [`parent_name`] cuts at
/// the pairs counted from the run's end, so at the offsets of the run's length's parity.
fn settle_run(nearest: Option<usize>, found: [Option<usize>; 2], length: usize) -> Option<usize> {
    found[length % 2].or(nearest)
}

impl LoggerTree {
    /// Resolves parents and effective levels for `loggers`.
    pub fn new(loggers: &LoggersSpec) -> LoggerTree {
        let mut specs = vec![loggers.root.clone()];
        specs.extend(
            loggers
                .loggers
                .iter()
                .filter(|l| !l.name.is_empty())
                .cloned(),
        );
        // A name configured twice is owned by its last occurrence.
        let mut exact = HashMap::new();
        for (index, spec) in specs.iter().enumerate().skip(1) {
            exact.insert(spec.name.as_str(), index);
        }
        let mut normalized = HashMap::new();
        for (index, spec) in specs.iter().enumerate().skip(1) {
            let key = normalize(&spec.name).unwrap_or_else(|| spec.name.clone());
            // An exact spelling wins over a `::` spelling of the same path.
            if spec.name.contains("::") {
                normalized.entry(key).or_insert(index);
            } else {
                normalized.insert(key, index);
            }
        }
        let mut tree = LoggerTree {
            nodes: Vec::with_capacity(specs.len()),
            exact: NameTrie::from_names(exact),
            normalized: NameTrie::from_names(normalized),
        };
        for (index, spec) in specs.into_iter().enumerate() {
            let parent = if index == 0 {
                None
            } else {
                Some(tree.resolve(&spec.name).1.unwrap_or(tree.root()))
            };
            tree.nodes.push(LoggerNode {
                effective_level: spec.level.unwrap_or(ROOT_DEFAULT_LEVEL),
                spec,
                parent,
            });
        }
        for index in 0..tree.nodes.len() {
            let mut at = index;
            while tree.nodes[at].spec.level.is_none() {
                match tree.nodes[at].parent {
                    Some(parent) => at = parent,
                    None => break,
                }
            }
            tree.nodes[index].effective_level =
                tree.nodes[at].spec.level.unwrap_or(ROOT_DEFAULT_LEVEL);
        }
        tree
    }

    /// The config named `name` itself (exactly, else with `::` read as `.`), and the config
    /// owning its nearest configured proper ancestor, ancestors being the names
    /// [`parent_name`] steps through.
    ///
    /// One pass over the name's bytes: after each byte both tries stand at the node of the
    /// prefix read so far, so whether a prefix is configured costs one step. The ancestors are
    /// the prefixes ending just before a separator: every `.`, and the `::` that
    /// [`parent_name`] cuts at, which in a run of colons are pairs counted from the run's end
    /// (`a:::b` cuts at `a:`), so a run's candidates are settled when it ends.
    fn resolve(&self, name: &str) -> (Option<usize>, Option<usize>) {
        let bytes = name.as_bytes();
        let mut walk = Walk::new(self);
        let mut nearest = None;
        // In the current run of colons: where it started, and the last configured prefix
        // ending at an even and at an odd offset into the run.
        let mut run_start = 0;
        let mut run_found = [None, None];
        for (at, &byte) in bytes.iter().enumerate() {
            let configured = || if at > 0 { walk.configured() } else { None };
            if byte == b':' {
                if at == 0 || bytes[at - 1] != b':' {
                    run_start = at;
                    run_found = [None, None];
                }
                if bytes.get(at + 1) == Some(&b':') {
                    if let Some(index) = configured() {
                        run_found[(at - run_start) % 2] = Some(index);
                    }
                }
            } else {
                if at > 0 && bytes[at - 1] == b':' {
                    nearest = settle_run(nearest, run_found, at - run_start);
                }
                if byte == b'.' {
                    nearest = configured().or(nearest);
                }
            }
            walk.step(byte);
        }
        if bytes.last() == Some(&b':') {
            nearest = settle_run(nearest, run_found, bytes.len() - run_start);
        }
        (walk.configured(), nearest)
    }

    /// The index of the logger config that owns the logger `name` (the root when no configured
    /// logger is `name` or one of its ancestors).
    pub fn owner_of(&self, name: &str) -> usize {
        if name.is_empty() {
            return self.root();
        }
        let (itself, above) = self.resolve(name);
        itself.or(above).unwrap_or(self.root())
    }

    /// The root logger's index.
    pub fn root(&self) -> usize {
        0
    }

    /// The number of logger configs, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: the root is always there.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The config at `index`.
    ///
    /// # Panics
    /// When `index` is not below [`LoggerTree::len`].
    pub fn node(&self, index: usize) -> &LoggerNode {
        &self.nodes[index]
    }

    /// The parent of the config at `index` (`None` for the root).
    pub fn parent(&self, index: usize) -> Option<usize> {
        self.nodes.get(index).and_then(|node| node.parent)
    }

    /// Every config, root first.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &LoggerNode)> {
        self.nodes.iter().enumerate()
    }

    /// Each config's children, in document order: one pass over the configs, so printing a
    /// tree of many loggers stays linear.
    fn children(&self) -> Vec<Vec<usize>> {
        let mut children = vec![Vec::new(); self.nodes.len()];
        for (index, node) in self.nodes.iter().enumerate() {
            if let Some(parent) = node.parent {
                children[parent].push(index);
            }
        }
        children
    }

    /// One config's line, indented by its depth.
    fn write_line(&self, f: &mut fmt::Formatter<'_>, index: usize, depth: usize) -> fmt::Result {
        let node = &self.nodes[index];
        let name = if index == 0 {
            "root"
        } else {
            node.spec.name.as_str()
        };
        let refs: Vec<String> = node
            .spec
            .appender_refs
            .iter()
            .map(|r| match r.level {
                Some(level) => format!("{} (≥{})", r.appender, level),
                None => r.appender.clone(),
            })
            .collect();
        write!(
            f,
            "{:indent$}{name} -> {}{}",
            "",
            node.effective_level,
            if node.level_inherited() {
                " (inherited)"
            } else {
                ""
            },
            indent = depth * 2
        )?;
        write!(f, " -> [{}]", refs.join(", "))?;
        if !node.spec.additivity {
            f.write_str(" additivity=false")?;
        }
        if node.spec.asynchronous {
            f.write_str(" async")?;
        }
        if node.spec.filter.is_some() {
            f.write_str(" filtered")?;
        }
        writeln!(f)
    }
}

impl fmt::Display for LoggerTree {
    /// The routing tree for `l4rs check`: each logger, its effective level, its appender
    /// references and additivity, children indented below their parent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.nodes.is_empty() {
            return Ok(());
        }
        // Depth first with a stack of its own: a chain of nested logger names is as deep as the
        // file is long, and must not overflow the thread's stack.
        let children = self.children();
        let mut pending = vec![(0, 0)];
        while let Some((index, depth)) = pending.pop() {
            self.write_line(f, index, depth)?;
            pending.extend(
                children[index]
                    .iter()
                    .rev()
                    .map(|&child| (child, depth + 1)),
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AppenderRefSpec;

    fn logger(name: &str, level: Option<Level>) -> LoggerSpec {
        LoggerSpec::new(name, level)
    }

    fn tree(names: &[(&str, Option<Level>)], root_level: Option<Level>) -> LoggerTree {
        LoggerTree::new(&LoggersSpec {
            root: logger("", root_level),
            loggers: names.iter().map(|(n, l)| logger(n, *l)).collect(),
        })
    }

    fn owner<'t>(tree: &'t LoggerTree, name: &str) -> &'t str {
        &tree.node(tree.owner_of(name)).spec.name
    }

    #[test]
    fn log4j2_name_walk_including_odd_names() {
        let t = tree(
            &[("a", Some(Level::INFO)), ("a.b", None), ("a.", None)],
            None,
        );
        assert_eq!(owner(&t, "a.b.c"), "a.b");
        assert_eq!(owner(&t, "a.bc"), "a");
        assert_eq!(owner(&t, "a..b"), "a.");
        assert_eq!(owner(&t, "a."), "a.");
        assert_eq!(owner(&t, ".a"), "");
        assert_eq!(owner(&t, "A"), "");
        assert_eq!(owner(&t, ""), "");
        assert_eq!(owner(&t, "a b.c"), "");
        assert_eq!(parent_name("a..b"), Some("a."));
        assert_eq!(parent_name(".a"), Some(""));
        assert_eq!(parent_name(""), None);
        // Scenario 170: only "a" is configured.
        let t = tree(&[("a", Some(Level::INFO))], Some(Level::INFO));
        for (name, expected) in [
            ("a..b", "a"),
            ("a.", "a"),
            (".a", ""),
            ("a b.c", ""),
            ("Ä.ö", ""),
            ("a.b.c", "a"),
            ("A", ""),
        ] {
            assert_eq!(owner(&t, name), expected, "{name}");
        }
    }

    #[test]
    fn rust_paths_and_dotted_names_are_equivalent() {
        let t = tree(&[("my_app.db", Some(Level::DEBUG))], None);
        assert_eq!(owner(&t, "my_app::db::pool"), "my_app.db");
        assert_eq!(owner(&t, "my_app::db"), "my_app.db");
        assert_eq!(owner(&t, "my_app::dbx"), "");
        let t = tree(
            &[
                ("my_app::db", Some(Level::DEBUG)),
                ("my_app", Some(Level::WARN)),
            ],
            None,
        );
        assert_eq!(owner(&t, "my_app::db::pool"), "my_app::db");
        assert_eq!(owner(&t, "my_app.db.pool"), "my_app::db");
        assert_eq!(owner(&t, "my_app::other"), "my_app");
        let db = t.owner_of("my_app::db");
        assert_eq!(t.node(t.parent(db).unwrap()).spec.name, "my_app");
        // The exact spelling wins when both are configured.
        let t = tree(
            &[("x::y", Some(Level::DEBUG)), ("x.y", Some(Level::WARN))],
            None,
        );
        assert_eq!(owner(&t, "x.y.z"), "x.y");
        assert_eq!(owner(&t, "x::y::z"), "x::y");
    }

    #[test]
    fn parents_and_inherited_levels() {
        let t = tree(
            &[("a.b.c", None), ("a", Some(Level::DEBUG)), ("x", None)],
            Some(Level::WARN),
        );
        let abc = t.owner_of("a.b.c");
        assert_eq!(t.node(t.parent(abc).unwrap()).spec.name, "a");
        assert_eq!(t.node(abc).effective_level, Level::DEBUG);
        assert!(t.node(abc).level_inherited());
        assert_eq!(t.node(t.owner_of("x")).effective_level, Level::WARN);
        assert_eq!(t.parent(t.root()), None);
        let t = tree(&[("x", None)], None);
        assert_eq!(t.node(t.owner_of("x")).effective_level, Level::ERROR);
        assert_eq!(t.len(), 2);
        assert_eq!(t.iter().count(), 2);
    }

    #[test]
    fn display_prints_the_routing_tree() {
        let mut loggers = LoggersSpec {
            root: logger("", Some(Level::INFO)),
            loggers: vec![logger("a", None), logger("a.b", Some(Level::DEBUG))],
        };
        loggers.root.appender_refs.push(AppenderRefSpec {
            appender: "C".into(),
            level: Some(Level::WARN),
            filter: None,
            position: None,
        });
        loggers.loggers[1].additivity = false;
        let text = LoggerTree::new(&loggers).to_string();
        assert_eq!(
            text,
            "root -> INFO -> [C (≥WARN)]\n  a -> INFO (inherited) -> []\n    a.b -> DEBUG -> [] additivity=false\n"
        );
    }

    /// The name walk as the specification states it: up with [`parent_name`], each ancestor
    /// looked up exactly, then with `::` read as `.` (the exact spelling of a path winning).
    fn owner_by_parent_names(names: &[&str], name: &str) -> String {
        let lookup = |candidate: &str| -> Option<String> {
            if let Some(found) = names.iter().rev().find(|n| **n == candidate) {
                return Some(found.to_string());
            }
            let wanted = candidate.replace("::", ".");
            let same_path = |n: &&&str| n.replace("::", ".") == wanted;
            names
                .iter()
                .rev()
                .find(|n| !n.contains("::") && same_path(n))
                .or_else(|| names.iter().find(|n| n.contains("::") && same_path(n)))
                .map(|n| n.to_string())
        };
        if name.is_empty() {
            return String::new();
        }
        if let Some(found) = lookup(name) {
            return found;
        }
        let mut current = name;
        while let Some(parent) = parent_name(current) {
            if parent.is_empty() {
                break;
            }
            if let Some(found) = lookup(parent) {
                return found;
            }
            current = parent;
        }
        String::new()
    }

    #[test]
    fn the_one_pass_walk_agrees_with_stepping_up_parent_names() {
        // Names over a small alphabet, so that separators, colon runs of every length, `::`
        // and `.` spellings of one path, and configured prefixes meet often.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let random_name = |next: &mut dyn FnMut(usize) -> usize| {
            let length = next(9);
            (0..length)
                .map(|_| ["a", "b", ".", ":", "::", "é"][next(6)])
                .collect::<String>()
        };
        for _ in 0..3000 {
            let names: Vec<String> = (0..next(6)).map(|_| random_name(&mut next)).collect();
            let names: Vec<&str> = names
                .iter()
                .map(String::as_str)
                .filter(|n| !n.is_empty())
                .collect();
            let t = tree(&names.iter().map(|n| (*n, None)).collect::<Vec<_>>(), None);
            for _ in 0..20 {
                let name = random_name(&mut next);
                assert_eq!(
                    owner(&t, &name),
                    owner_by_parent_names(&names, &name),
                    "{name:?} with {names:?}"
                );
            }
            for (index, node) in t.iter().skip(1) {
                let expected_parent =
                    owner_by_parent_names(&names, parent_name(&node.spec.name).unwrap_or(""));
                let parent = t.node(t.parent(index).unwrap()).spec.name.as_str();
                assert_eq!(
                    parent, expected_parent,
                    "parent of {:?} with {names:?}",
                    node.spec.name
                );
            }
        }
    }

    #[test]
    fn colon_runs_cut_where_parent_name_cuts() {
        let t = tree(&[("a:", None), ("a", None), ("a::b", None)], None);
        // `a:::b` steps up to `a:` (the last `::`), never to `a`.
        assert_eq!(parent_name("a:::b"), Some("a:"));
        assert_eq!(owner(&t, "a:::b"), "a:");
        // `a::::b` steps up to `a::` (read as `a.`, not configured), then `a`.
        assert_eq!(owner(&t, "a::::b"), "a");
        assert_eq!(owner(&t, "a::b::c"), "a::b");
        assert_eq!(owner(&t, "a.b:c"), "a");
        assert_eq!(owner(&t, "a:"), "a:");
    }

    #[test]
    fn names_with_80_000_separators_resolve_in_linear_time() {
        let t = tree(
            &[
                ("a", Some(Level::INFO)),
                ("a.a.a", Some(Level::DEBUG)),
                ("b::c", None),
            ],
            None,
        );
        for separator in [".", "::"] {
            let name = format!("a{}", format!("{separator}a").repeat(80_000));
            let started = std::time::Instant::now();
            assert_eq!(owner(&t, &name), "a.a.a", "{separator}");
            // Hashing every ancestor took seconds here even in a release build; one pass
            // takes milliseconds in a debug build.
            assert!(
                started.elapsed() < std::time::Duration::from_secs(2),
                "{separator}: {:?}",
                started.elapsed()
            );
        }
    }

    #[test]
    fn the_trie_keeps_about_one_byte_per_configured_byte() {
        let names: HashMap<String, usize> = (0..2_000)
            .map(|i| (format!("com.example.service{}.Component{i:08}", i % 7), i))
            .collect();
        let written: usize = names.keys().map(String::len).sum();
        let trie = NameTrie::from_names(names.clone());
        let nodes = trie.configs.len();
        // A branch or a name end per node, each byte of a name stored at most once.
        assert!(nodes <= 2 * names.len() + 1, "{nodes} nodes");
        assert!(
            trie.labels.len() < written,
            "{} of {written}",
            trie.labels.len()
        );
        for (name, &config) in &names {
            let mut place = Some(NameTrie::ROOT);
            for &byte in name.as_bytes() {
                place = place.and_then(|place| trie.child(place, byte));
            }
            assert_eq!(
                place.and_then(|place| trie.config(place)),
                Some(config),
                "{name}"
            );
        }
        let mut place = Some(NameTrie::ROOT);
        for &byte in b"com.example.service1" {
            place = place.and_then(|place| trie.child(place, byte));
        }
        assert_eq!(
            place.and_then(|place| trie.config(place)),
            None,
            "a prefix only"
        );
        assert!(place.and_then(|place| trie.child(place, b'x')).is_none());
    }

    #[test]
    fn display_of_many_loggers_takes_linear_time() {
        let names: Vec<String> = (0..50_000).map(|i| format!("svc{i}.part")).collect();
        let specs: Vec<(&str, Option<Level>)> =
            names.iter().map(|name| (name.as_str(), None)).collect();
        let t = tree(&specs, Some(Level::INFO));
        let started = std::time::Instant::now();
        let shown = t.to_string();
        // Finding each logger's children by scanning all of them took minutes here.
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 50_001);
        assert!(lines[0].starts_with("root -> INFO"), "{}", lines[0]);
        assert!(
            lines[1].starts_with("  svc0.part -> INFO (inherited)"),
            "{}",
            lines[1]
        );
    }
}
