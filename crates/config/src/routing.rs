//! The logger hierarchy: which logger config owns a logger name, each config's parent and its
//! effective level.
//!
//! log4j2 walks a name up by cutting at the last `.`: `a.b.c`, `a.b`, `a`, then the root. A
//! dot at the very start does not count (`.a` goes straight to the root) and empty parts are
//! kept (`a..b` goes to `a.`, then `a`). l4rs also cuts at `::` so Rust module paths work, and
//! a configured `my_app.db` owns `my_app::db::pool` as `my_app::db` would; names without `::`
//! behave exactly as in log4j2.

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
    exact: HashMap<String, usize>,
    /// Names with `::` written as `.`, for the Rust-path equivalence.
    normalized: HashMap<String, usize>,
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

impl LoggerTree {
    /// Resolves parents and effective levels for `loggers`.
    pub fn new(loggers: &LoggersSpec) -> LoggerTree {
        let mut tree = LoggerTree {
            nodes: Vec::with_capacity(loggers.loggers.len() + 1),
            exact: HashMap::new(),
            normalized: HashMap::new(),
        };
        let mut specs = vec![loggers.root.clone()];
        specs.extend(
            loggers
                .loggers
                .iter()
                .filter(|l| !l.name.is_empty())
                .cloned(),
        );
        for (index, spec) in specs.iter().enumerate().skip(1) {
            tree.exact.insert(spec.name.clone(), index);
        }
        for (index, spec) in specs.iter().enumerate().skip(1) {
            let normalized = normalize(&spec.name).unwrap_or_else(|| spec.name.clone());
            // An exact spelling wins over a `::` spelling of the same path.
            if spec.name.contains("::") {
                tree.normalized.entry(normalized).or_insert(index);
            } else {
                tree.normalized.insert(normalized, index);
            }
        }
        for (index, spec) in specs.into_iter().enumerate() {
            let parent = if index == 0 {
                None
            } else {
                Some(tree.owner_above(&spec.name))
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

    fn lookup(&self, name: &str) -> Option<usize> {
        if let Some(&index) = self.exact.get(name) {
            return Some(index);
        }
        match normalize(name) {
            Some(normalized) => self.normalized.get(&normalized).copied(),
            None => self.normalized.get(name).copied(),
        }
    }

    /// The config owning the nearest proper ancestor of `name`.
    fn owner_above(&self, name: &str) -> usize {
        let mut current = name;
        while let Some(parent) = parent_name(current) {
            if parent.is_empty() {
                break;
            }
            if let Some(index) = self.lookup(parent) {
                return index;
            }
            current = parent;
        }
        self.root()
    }

    /// The index of the logger config that owns the logger `name` (the root when no configured
    /// logger is `name` or one of its ancestors).
    pub fn owner_of(&self, name: &str) -> usize {
        if name.is_empty() {
            return self.root();
        }
        self.lookup(name).unwrap_or_else(|| self.owner_above(name))
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

    fn children_of(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        self.nodes
            .iter()
            .enumerate()
            .filter(move |(_, node)| node.parent == Some(index))
            .map(|(child, _)| child)
    }

    fn write_node(&self, f: &mut fmt::Formatter<'_>, index: usize, depth: usize) -> fmt::Result {
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
        writeln!(f)?;
        let children: Vec<usize> = self.children_of(index).collect();
        for child in children {
            self.write_node(f, child, depth + 1)?;
        }
        Ok(())
    }
}

impl fmt::Display for LoggerTree {
    /// The routing tree for `l4rs check`: each logger, its effective level, its appender
    /// references and additivity, children indented below their parent.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.nodes.is_empty() {
            return Ok(());
        }
        self.write_node(f, 0, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AppenderRefSpec;

    fn logger(name: &str, level: Option<Level>) -> LoggerSpec {
        LoggerSpec {
            name: name.to_string(),
            level,
            additivity: true,
            include_location: None,
            asynchronous: false,
            appender_refs: Vec::new(),
            filter: None,
            position: None,
        }
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
}
