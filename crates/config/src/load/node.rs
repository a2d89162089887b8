//! The plugin node tree: the XML tree after log4j2's `constructHierarchy`.
//!
//! Each element is named by its tag (or, in strict mode, by its `type` attribute). An element
//! that is not a log4j2 plugin and has no child nodes becomes an attribute of its parent; one
//! that has child nodes is dropped with its subtree and reported (`CLASS_NOT_FOUND`).
//! Attributes keep the insertion order of log4j2's `HashMap` so that leftover attributes can be
//! listed in the order log4j2 lists them.

use std::collections::HashMap;
use std::path::PathBuf;

use l4rs_java_syntax::java_util::{compare_strings, hash_map_order};

use crate::plugins::{self, Plugin};
use crate::xml;
use crate::Position;

/// An attribute of a plugin node (a real attribute or a leaf child element).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PAttr {
    pub name: String,
    pub value: String,
    pub position: Position,
}

/// One plugin node.
#[derive(Clone, Debug)]
pub(crate) struct PNode {
    /// The tag, or the `type` attribute in strict mode, as written.
    pub name: String,
    /// The plugin, when l4rs implements it.
    pub canonical: Option<Plugin>,
    /// True when the name is a log4j2 Core plugin.
    pub is_plugin: bool,
    pub attrs: Vec<PAttr>,
    pub children: Vec<PNode>,
    /// Children the plugin has no parameter for, set aside by [`Binder::refuse_children`] and
    /// reported by [`Binder::finish`] after the leftover attributes, as log4j2 orders them.
    ///
    /// [`Binder::refuse_children`]: super::binder::Binder::refuse_children
    /// [`Binder::finish`]: super::binder::Binder::finish
    pub refused: Vec<PNode>,
    pub value: Option<String>,
    pub position: Position,
    /// Set for nodes read from an XInclude'd file.
    pub file: Option<PathBuf>,
}

/// An element log4j2 drops while building the tree: no plugin, yet it has child nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UnknownElement {
    /// Its name (the tag, or the `type` attribute in strict mode).
    pub name: String,
    /// The tag of the element it was in, as log4j2's message prints the DOM parent.
    pub parent_tag: String,
    pub position: Position,
    pub file: Option<PathBuf>,
}

impl PNode {
    /// The node without its attributes, children and value: enough to name it and its position
    /// in a message after the node itself was consumed.
    pub(crate) fn stub(&self) -> PNode {
        PNode {
            canonical: self.canonical,
            is_plugin: self.is_plugin,
            ..PNode::bare(self.name.clone(), self.position, self.file.clone())
        }
    }

    /// A node that is no plugin, with only a name and a position: what a message about an
    /// element that never became a node (or became an attribute) names.
    pub(crate) fn bare(name: String, position: Position, file: Option<PathBuf>) -> PNode {
        PNode {
            name,
            canonical: None,
            is_plugin: false,
            attrs: Vec::new(),
            children: Vec::new(),
            refused: Vec::new(),
            value: None,
            position,
            file,
        }
    }

    /// Builds the node for `element` and its subtree, ignoring dropped unknown elements.
    #[cfg(test)]
    pub(crate) fn build(element: &xml::Node, strict: bool) -> PNode {
        PNode::build_collecting(element, strict, &mut Vec::new())
    }

    /// Builds the node for `element` and its subtree; the unknown elements dropped from it
    /// are added to `unknown` in the order log4j2 finds them (innermost first).
    pub(crate) fn build_collecting(
        element: &xml::Node,
        strict: bool,
        unknown: &mut Vec<UnknownElement>,
    ) -> PNode {
        let mut attributes = element.attributes.clone();
        let mut name = element.name.clone();
        if strict {
            if let Some(index) = attributes
                .iter()
                .position(|attribute| attribute.name.eq_ignore_ascii_case("type"))
            {
                name = attributes.remove(index).value;
            }
        }
        // The JDK's DOM hands attributes over sorted by name.
        attributes.sort_by(|a, b| compare_strings(&a.name, &b.name));
        let mut node = PNode {
            canonical: plugins::l4rs_plugin(&name),
            is_plugin: plugins::is_log4j2_plugin(&name),
            name,
            attrs: Vec::new(),
            children: Vec::new(),
            refused: Vec::new(),
            value: None,
            position: element.position,
            file: element.file.clone(),
        };
        // Where each name is in `attrs`, so that an element with very many attributes is not
        // quadratic to build.
        let mut index = HashMap::new();
        for attribute in attributes {
            node.put(
                &mut index,
                attribute.name,
                attribute.value,
                attribute.position,
            );
        }
        for child_element in &element.children {
            let child = PNode::build_collecting(child_element, strict, unknown);
            if child.is_plugin {
                node.children.push(child);
            } else if let (Some(value), true) = (&child.value, child.children.is_empty()) {
                let value = value.clone();
                node.put(&mut index, child.name, value, child.position);
            } else {
                unknown.push(UnknownElement {
                    name: child.name,
                    parent_tag: element.name.clone(),
                    position: child.position,
                    file: child.file,
                });
            }
        }
        // Decided after the children: a parent whose children all became attributes counts as
        // a leaf, exactly as in log4j2.
        let text = element.value.clone().unwrap_or_default();
        if !text.is_empty() || node.children.is_empty() {
            node.value = Some(text);
        }
        node
    }

    /// A map put: a repeated key keeps its place and takes the new value. `index` maps the
    /// names in `attrs` to their place.
    fn put(
        &mut self,
        index: &mut HashMap<String, usize>,
        name: String,
        value: String,
        position: Position,
    ) {
        match index.get(&name) {
            Some(&at) => self.attrs[at].value = value,
            None => {
                index.insert(name.clone(), self.attrs.len());
                self.attrs.push(PAttr {
                    name,
                    value,
                    position,
                });
            }
        }
    }

    /// Removes and returns the first attribute answering to any of `names` (case-insensitive).
    pub(crate) fn take(&mut self, names: &[&str]) -> Option<PAttr> {
        let index = self.attr_index(names)?;
        Some(self.attrs.remove(index))
    }

    /// Where the first attribute answering to any of `names` is, leaving it in place (for a
    /// message about its value once it is taken).
    pub(crate) fn attr_position(&self, names: &[&str]) -> Option<Position> {
        self.attr_index(names)
            .map(|index| self.attrs[index].position)
    }

    /// The index of the first attribute answering to any of `names` (case-insensitive).
    fn attr_index(&self, names: &[&str]) -> Option<usize> {
        self.attrs.iter().position(|attr| {
            names
                .iter()
                .any(|name| attr.name.eq_ignore_ascii_case(name))
        })
    }

    /// The leftover attributes in log4j2's listing order.
    pub(crate) fn leftover_in_java_order(&self, inserted_count: usize) -> Vec<&PAttr> {
        let keys: Vec<&str> = self.attrs.iter().map(|attr| attr.name.as_str()).collect();
        hash_map_order(&keys, 16, inserted_count)
            .into_iter()
            .map(|index| &self.attrs[index])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaf_non_plugins_become_attributes_and_strict_type_names_the_plugin() {
        let root = xml::parse_str(
            "<Configuration><Appenders><Appender type='Console' name='C'><Layout type='PatternLayout'><Pattern>%m</Pattern></Layout><Wrap><Console/></Wrap></Appender></Appenders></Configuration>",
            None,
        )
        .unwrap();
        let node = PNode::build(&root, true);
        let appender = &node.children[0].children[0];
        assert_eq!(appender.name, "Console");
        assert_eq!(appender.canonical, Some(Plugin::Console));
        let layout = &appender.children[0];
        assert_eq!(layout.name, "PatternLayout");
        assert_eq!(layout.attrs[0].name, "Pattern");
        // `<Wrap>` is no plugin and holds one: dropped with its subtree, and reported.
        assert_eq!(appender.children.len(), 1);
        let mut unknown = Vec::new();
        PNode::build_collecting(&root, true, &mut unknown);
        assert_eq!(
            unknown
                .iter()
                .map(|u| (u.name.as_str(), u.parent_tag.as_str()))
                .collect::<Vec<_>>(),
            [("Wrap", "Appender")]
        );
        // Without strict mode nothing under `<Appenders>` is a plugin: `<Wrap>` is dropped, so
        // `<Appender>` holds no node and becomes an attribute of `<Appenders>`, as in log4j2.
        let concise = PNode::build(&root, false);
        let appenders = &concise.children[0];
        assert!(appenders.children.is_empty());
        assert_eq!(
            appenders
                .attrs
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>(),
            ["Appender"]
        );
    }
}
