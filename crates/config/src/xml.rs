//! The configuration file as a tree of positioned nodes.
//!
//! This is the tree log4j2's `XmlConfiguration` sees after the JDK parser ran: element names are
//! local names (the parser is namespace-aware), text nodes are concatenated and trimmed, entity
//! references other than the predefined ones and character references are not expanded, and
//! `xi:include` elements are replaced by the root element of the included file.

use std::cell::Cell;
use std::path::{Path, PathBuf};

use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

use crate::Position;

/// The XInclude namespace; `include` elements bound to it are resolved.
const XINCLUDE_NAMESPACE: &str = "http://www.w3.org/2001/XInclude";

/// Nested includes deeper than this are taken for a cycle.
const MAX_INCLUDE_DEPTH: usize = 16;

/// How many documents `xi:include` may read for one configuration, counting each time a file
/// is included. A chain of files each including the next several times grows exponentially
/// (4 includes a level, 10 levels: a million documents); real configurations include a few.
pub const MAX_INCLUDED_DOCUMENTS: usize = 256;

/// How many bytes `xi:include` may read in all for one configuration.
pub const MAX_INCLUDED_BYTES: u64 = 16 * 1024 * 1024;

/// What the includes of one configuration have used of their budget.
#[derive(Default)]
struct IncludeBudget {
    documents: Cell<usize>,
    bytes: Cell<u64>,
    /// Set once a limit is crossed: the error then passes every `xi:fallback` so that it is
    /// seen (a fallback would hide it and let the fan-out go on).
    exceeded: Cell<bool>,
}

/// How deeply elements may nest, counting the root as 1 and an included file's elements from
/// the depth of its `xi:include`. Real configurations nest fewer than 10 deep; the limit keeps
/// every step after parsing (which walks the tree recursively) well within a 2 MiB thread
/// stack. log4j2 has no limit of its own.
pub const MAX_ELEMENT_DEPTH: usize = 512;

/// One attribute as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// The qualified name as written (`name`, `xsi:schemaLocation`).
    pub name: String,
    /// The value with entities resolved and whitespace normalised as XML requires.
    pub value: String,
    /// Where the attribute name starts.
    pub position: Position,
}

/// One element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The local name (prefix removed).
    pub name: String,
    /// Attributes in document order.
    pub attributes: Vec<Attribute>,
    /// Child elements in document order.
    pub children: Vec<Node>,
    /// The trimmed, concatenated text: always set for a leaf element (`""` when it has no text),
    /// set for other elements only when the text is not empty (log4j2's rule).
    pub value: Option<String>,
    /// Where the element's `<` is.
    pub position: Position,
    /// The file the element was read from, when it differs from the main file (XInclude).
    pub file: Option<PathBuf>,
}

impl Node {
    /// The first attribute with this name, compared case-insensitively.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes
            .iter()
            .find(|attribute| attribute.name.eq_ignore_ascii_case(name))
    }
}

/// Why a file could not be turned into a node tree.
#[derive(Debug, thiserror::Error)]
pub enum XmlError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The bytes are not text in a supported encoding.
    #[error("{}: {position}: {message}", display_path(.path))]
    Encoding {
        /// The file, when known.
        path: Option<PathBuf>,
        /// Where decoding failed.
        position: Position,
        /// What is wrong.
        message: String,
    },
    /// The text is not well-formed XML.
    #[error("{}: {position}: {message}", display_path(.path))]
    Malformed {
        /// The file, when known.
        path: Option<PathBuf>,
        /// Where the parser stopped.
        position: Position,
        /// What the parser expected or found.
        message: String,
    },
}

impl XmlError {
    /// The file the error is about, when known.
    pub fn path(&self) -> Option<&Path> {
        match self {
            XmlError::Read { path, .. } => Some(path),
            XmlError::Encoding { path, .. } | XmlError::Malformed { path, .. } => path.as_deref(),
        }
    }

    /// Where in the file, when known.
    pub fn position(&self) -> Option<Position> {
        match self {
            XmlError::Read { .. } => None,
            XmlError::Encoding { position, .. } | XmlError::Malformed { position, .. } => {
                Some(*position)
            }
        }
    }
}

fn display_path(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map(|path| path.display().to_string())
        .unwrap_or_else(|| "<string>".to_string())
}

/// Reads and parses a file.
pub fn parse_file(path: &Path) -> Result<Node, XmlError> {
    let bytes = read(path, u64::MAX)?;
    let text = decode(&bytes, Some(path))?;
    Parser::new(&text, Some(path), 0, &IncludeBudget::default()).parse()
}

/// Reads a file, stopping after `limit + 1` bytes: the caller sees it holds more than `limit`
/// without reading a huge file whole.
fn read(path: &Path, limit: u64) -> Result<Vec<u8>, XmlError> {
    let read_error = |source| XmlError::Read {
        path: path.to_path_buf(),
        source,
    };
    read_from(std::fs::File::open(path).map_err(read_error)?, path, limit)
}

/// Reads `file` (which is `path`) like [`read`].
fn read_from(file: std::fs::File, path: &Path, limit: u64) -> Result<Vec<u8>, XmlError> {
    use std::io::Read as _;
    let read_error = |source| XmlError::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    Ok(bytes)
}

/// Parses text; `source` names the file in errors and anchors relative XInclude paths.
pub fn parse_str(text: &str, source: Option<&Path>) -> Result<Node, XmlError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    Parser::new(text, source, 0, &IncludeBudget::default()).parse()
}

/// Turns file bytes into text: a byte-order mark picks UTF-8 or UTF-16, a declared ISO-8859-1
/// (Latin-1) encoding is honoured, anything else must be UTF-8.
pub fn decode(bytes: &[u8], path: Option<&Path>) -> Result<String, XmlError> {
    let encoding_error = |message: String| XmlError::Encoding {
        path: path.map(Path::to_path_buf),
        position: Position { line: 1, column: 1 },
        message,
    };
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8(rest.to_vec())
            .map_err(|e| encoding_error(format!("invalid UTF-8: {e}")));
    }
    let utf16 = |rest: &[u8], big_endian: bool| {
        let units: Vec<u16> = rest
            .chunks_exact(2)
            .map(|pair| {
                if big_endian {
                    u16::from_be_bytes([pair[0], pair[1]])
                } else {
                    u16::from_le_bytes([pair[0], pair[1]])
                }
            })
            .collect();
        String::from_utf16(&units).map_err(|e| encoding_error(format!("invalid UTF-16: {e}")))
    };
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return utf16(rest, false);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return utf16(rest, true);
    }
    if declares_latin1(bytes) {
        return Ok(bytes.iter().map(|&b| char::from(b)).collect());
    }
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let valid = &bytes[..e.utf8_error().valid_up_to()];
        let text = String::from_utf8_lossy(valid);
        XmlError::Encoding {
            path: path.map(Path::to_path_buf),
            position: position_at(&text, text.len()),
            message: "invalid UTF-8 byte sequence (declare encoding=\"ISO-8859-1\" or save the file as UTF-8)".to_string(),
        }
    })
}

fn declares_latin1(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(200)];
    let head = String::from_utf8_lossy(head).to_ascii_lowercase();
    head.starts_with("<?xml")
        && head.split("?>").next().is_some_and(|decl| {
            ["iso-8859-1", "latin1", "iso8859_1", "latin-1"]
                .iter()
                .any(|name| decl.contains(name))
        })
}

/// Line and column (in characters, both from 1) of a byte offset.
pub fn position_at(text: &str, offset: usize) -> Position {
    let offset = offset.min(text.len());
    let mut offset = offset;
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |index| index + 1);
    let column = before[line_start..].chars().count() + 1;
    Position {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
    }
}

/// An element being built: its node and the raw text seen so far.
struct Open {
    node: Node,
    text: String,
    /// The element's namespace prefix, if any.
    prefix: Option<String>,
    /// The prefixes this element declared for XInclude, so `xi:include` is recognised.
    xinclude_prefixes: Vec<String>,
    /// True when this element declared XInclude as its default namespace.
    xinclude_default: bool,
}

struct Parser<'a> {
    text: &'a str,
    source: Option<&'a Path>,
    depth: usize,
    /// The elements around this document (those around the `xi:include` that read it).
    outer_elements: usize,
    /// The last position computed, so the next one is counted from there rather than from the
    /// start of the file: elements and attributes come in document order, which keeps loading
    /// linear in the file's size.
    cursor: Cell<Cursor>,
    /// Shared by the main document and every document it includes.
    budget: &'a IncludeBudget,
}

/// A byte offset in the text and its line and column.
#[derive(Clone, Copy)]
struct Cursor {
    offset: usize,
    position: Position,
}

impl Cursor {
    const START: Cursor = Cursor {
        offset: 0,
        position: Position { line: 1, column: 1 },
    };
}

impl<'a> Parser<'a> {
    fn new(
        text: &'a str,
        source: Option<&'a Path>,
        depth: usize,
        budget: &'a IncludeBudget,
    ) -> Parser<'a> {
        Parser {
            text,
            source,
            depth,
            outer_elements: 0,
            cursor: Cell::new(Cursor::START),
            budget,
        }
    }

    /// Line and column of a byte offset, counted from the previous one when it lies before.
    fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let cursor = self.cursor.get();
        if offset < cursor.offset {
            // Only error positions go backwards; they are computed once.
            return position_at(self.text, offset);
        }
        let mut line = cursor.position.line;
        let mut column = cursor.position.column;
        for c in self.text[cursor.offset..offset].chars() {
            if c == '\n' {
                line = line.saturating_add(1);
                column = 1;
            } else {
                column = column.saturating_add(1);
            }
        }
        let position = Position { line, column };
        self.cursor.set(Cursor { offset, position });
        position
    }

    fn malformed(&self, offset: usize, message: impl Into<String>) -> XmlError {
        XmlError::Malformed {
            path: self.source.map(Path::to_path_buf),
            position: self.position(offset),
            message: message.into(),
        }
    }

    fn parse(&self) -> Result<Node, XmlError> {
        let mut reader = Reader::from_str(self.text);
        let config = reader.config_mut();
        config.trim_text(false);
        config.check_end_names = true;
        config.check_comments = true;
        config.allow_dangling_amp = false;
        let mut stack: Vec<Open> = Vec::new();
        let mut root: Option<Node> = None;
        loop {
            let start = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
            let event = reader.read_event().map_err(|error| {
                let at = usize::try_from(reader.error_position()).unwrap_or(start);
                self.malformed(at, error.to_string())
            })?;
            match event {
                Event::Start(_) | Event::Empty(_) if root.is_some() && stack.is_empty() => {
                    return Err(self.malformed(
                        start,
                        "content is not allowed after the root element (expected end of file)",
                    ));
                }
                Event::Start(_) | Event::Empty(_)
                    if self.outer_elements + stack.len() >= MAX_ELEMENT_DEPTH =>
                {
                    return Err(self.malformed(
                        start,
                        format!(
                            "elements nest deeper than {MAX_ELEMENT_DEPTH} levels, the limit l4rs sets against hostile input"
                        ),
                    ));
                }
                Event::Start(element) => {
                    let open = self.open(&element, start)?;
                    stack.push(open);
                }
                Event::Empty(element) => {
                    let open = self.open(&element, start)?;
                    self.close(open, &mut stack, &mut root)?;
                }
                Event::End(_) => {
                    let Some(open) = stack.pop() else {
                        return Err(self.malformed(start, "unexpected end tag"));
                    };
                    self.close(open, &mut stack, &mut root)?;
                }
                Event::Text(text) => {
                    let content = text.xml10_content();
                    match stack.last_mut() {
                        Some(open) => open.text.push_str(&content),
                        None if content.trim().is_empty() => {}
                        None => {
                            return Err(self.malformed(
                                start,
                                "text is not allowed outside the root element (expected markup)",
                            ))
                        }
                    }
                }
                Event::CData(data) => {
                    if let Some(open) = stack.last_mut() {
                        open.text.push_str(&data.xml10_content());
                    }
                }
                Event::GeneralRef(reference) => {
                    let resolved = if reference.is_char_ref() {
                        match reference.resolve_char_ref() {
                            Ok(Some(c)) => c.to_string(),
                            _ => {
                                return Err(self.malformed(
                                    start,
                                    format!("invalid character reference &{};", &*reference),
                                ))
                            }
                        }
                    } else {
                        match &*reference {
                            "amp" => "&".to_string(),
                            "lt" => "<".to_string(),
                            "gt" => ">".to_string(),
                            "quot" => "\"".to_string(),
                            "apos" => "'".to_string(),
                            // Entities are never expanded (log4j2 disables DTD processing);
                            // keeping the reference verbatim loses nothing.
                            other => format!("&{other};"),
                        }
                    };
                    if let Some(open) = stack.last_mut() {
                        open.text.push_str(&resolved);
                    }
                }
                Event::Eof => {
                    if let Some(open) = stack.last() {
                        return Err(self.malformed(
                            self.text.len(),
                            format!(
                                "unexpected end of file: expected </{}> closing the element at {}",
                                open.node.name, open.node.position
                            ),
                        ));
                    }
                    return root.ok_or_else(|| {
                        self.malformed(
                            self.text.len(),
                            "premature end of file: expected a root element",
                        )
                    });
                }
                // An XML declaration is only allowed as the very first thing in the file; the
                // JDK parser log4j2 uses rejects one after a comment, blank or anything else.
                Event::Decl(_) if start > 0 => {
                    return Err(self.malformed(
                        start,
                        "The processing instruction target matching \"[xX][mM][lL]\" is not allowed (an XML declaration must be at the very start of the file)",
                    ));
                }
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
            }
        }
    }

    fn open(&self, element: &BytesStart<'_>, start: usize) -> Result<Open, XmlError> {
        let prefix = element
            .name()
            .0
            .split_once(':')
            .map(|(prefix, _)| prefix.to_string());
        let local = element.local_name().as_ref().to_string();
        let element_position = self.position(start);
        let mut attributes = Vec::new();
        let mut xinclude_prefixes = Vec::new();
        let mut xinclude_default = false;
        // Duplicates are found here with a set: quick-xml's own check compares each attribute
        // with every one before it, quadratic for an element with very many attributes.
        let mut seen = std::collections::HashSet::new();
        for attribute in element.attributes().with_checks(false) {
            let attribute = attribute.map_err(|error| self.malformed(start, error.to_string()))?;
            let name = attribute.key.0;
            if !seen.insert(name) {
                // The JDK parser's wording.
                return Err(self.malformed(
                    start,
                    format!("Attribute \"{name}\" was already specified for element \"{local}\"."),
                ));
            }
            // quick-xml accepts a raw '<' in an attribute value; the JDK parser log4j2 uses
            // rejects the document, which then falls back to the default configuration.
            if attribute.value.contains('<') {
                return Err(self.malformed(
                    start,
                    format!(
                        "The value of attribute \"{name}\" associated with an element type \"{local}\" must not contain the '<' character."
                    ),
                ));
            }
            let value = attribute
                .normalized_value(XmlVersion::Implicit1_0)
                .map_err(|error| self.malformed(start, error.to_string()))?
                .into_owned();
            if value == XINCLUDE_NAMESPACE {
                if let Some(prefix) = name.strip_prefix("xmlns:") {
                    xinclude_prefixes.push(prefix.to_string());
                } else if name == "xmlns" {
                    xinclude_default = true;
                }
            }
            let position = self.position(self.offset_of(name).unwrap_or(start));
            attributes.push(Attribute {
                name: name.to_string(),
                value,
                position,
            });
        }
        Ok(Open {
            node: Node {
                name: local,
                attributes,
                children: Vec::new(),
                value: None,
                position: element_position,
                file: None,
            },
            text: String::new(),
            prefix,
            xinclude_prefixes,
            xinclude_default,
        })
    }

    /// The byte offset of a slice borrowed from the input text.
    fn offset_of(&self, part: &str) -> Option<usize> {
        let base = self.text.as_ptr() as usize;
        let at = part.as_ptr() as usize;
        (at >= base && at + part.len() <= base + self.text.len()).then(|| at - base)
    }

    fn close(
        &self,
        mut open: Open,
        stack: &mut [Open],
        root: &mut Option<Node>,
    ) -> Result<(), XmlError> {
        // Java's String.trim: every character up to U+0020 is whitespace.
        let text = open.text.trim_matches(|c: char| c <= ' ').to_string();
        if !text.is_empty() || open.node.children.is_empty() {
            open.node.value = Some(text);
        }
        let include = self.is_xinclude(&open, stack);
        let ancestors = stack.len();
        match stack.last_mut() {
            Some(parent) if include => {
                let mut included = self.include(&open.node, ancestors)?;
                parent.node.children.append(&mut included);
            }
            Some(parent) => parent.node.children.push(open.node),
            None => *root = Some(open.node),
        }
        Ok(())
    }

    /// True for an `include` element in the XInclude namespace, declared on it or an ancestor.
    fn is_xinclude(&self, open: &Open, stack: &[Open]) -> bool {
        if open.node.name != "include" {
            return false;
        }
        let scopes = || std::iter::once(open).chain(stack.iter().rev());
        match &open.prefix {
            Some(prefix) => scopes().any(|o| o.xinclude_prefixes.iter().any(|p| p == prefix)),
            // The nearest default-namespace declaration decides.
            None => scopes()
                .find(|o| o.node.attributes.iter().any(|a| a.name == "xmlns"))
                .is_some_and(|o| o.xinclude_default),
        }
    }

    /// Replaces an `xi:include` by the root element of the included file, or by the children of
    /// its `xi:fallback` when that file cannot be used (the JDK parser's behaviour: without a
    /// fallback, the failed include is fatal).
    fn include(&self, node: &Node, stack_depth: usize) -> Result<Vec<Node>, XmlError> {
        let at = node.position;
        let failure = |message: String| XmlError::Malformed {
            path: self.source.map(Path::to_path_buf),
            position: at,
            message,
        };
        let Some(href) = node.attribute("href").map(|a| a.value.clone()) else {
            return Err(failure("xi:include without an href attribute".to_string()));
        };
        if node.attribute("xpointer").is_some() {
            return Err(failure(format!(
                "xi:include of '{href}' uses xpointer, which l4rs does not support"
            )));
        }
        let base = self
            .source
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let target = base.join(&href);
        if self.depth >= MAX_INCLUDE_DEPTH {
            return Err(failure(format!(
                "xi:include of '{href}' nests too deeply (a cycle?)"
            )));
        }
        let result = if node
            .attribute("parse")
            .is_some_and(|parse| parse.value == "text")
        {
            Err(failure(format!(
                "xi:include of '{href}' with parse=\"text\" has no place in a configuration"
            )))
        } else {
            self.parse_included(&target, &href, at, stack_depth)
        };
        if self.budget.exceeded.get() {
            return result.map(|included| vec![included]);
        }
        match result {
            Ok(mut included) => {
                mark_file(&mut included, &target);
                Ok(vec![included])
            }
            Err(error) => match node.children.iter().find(|child| child.name == "fallback") {
                Some(fallback) => Ok(fallback.children.clone()),
                None => Err(failure(format!(
                    "An include with href '{href}' failed, and no fallback element was found ({error})"
                ))),
            },
        }
    }
}

impl Parser<'_> {
    /// Reads and parses an included file within the budget left; `at` is the `xi:include`.
    fn parse_included(
        &self,
        target: &Path,
        href: &str,
        at: Position,
        stack_depth: usize,
    ) -> Result<Node, XmlError> {
        let over_budget = |what: String| {
            self.budget.exceeded.set(true);
            XmlError::Malformed {
                path: self.source.map(Path::to_path_buf),
                position: at,
                message: format!(
                    "xi:include of '{href}' goes over the limit of {what} l4rs sets against hostile input"
                ),
            }
        };
        let documents = self.budget.documents.get() + 1;
        if documents > MAX_INCLUDED_DOCUMENTS {
            return Err(over_budget(format!(
                "{MAX_INCLUDED_DOCUMENTS} included documents"
            )));
        }
        self.budget.documents.set(documents);
        let left = MAX_INCLUDED_BYTES - self.budget.bytes.get();
        // A FIFO or a device (`/dev/stdin`) would block the load, with the configuration lock
        // held, or never end: only a regular file is read.
        let file = l4rs_core::fs::open_regular_file(target).map_err(|error| {
            if error.kind() == std::io::ErrorKind::InvalidInput {
                XmlError::Malformed {
                    path: self.source.map(Path::to_path_buf),
                    position: at,
                    message: format!(
                        "xi:include of '{href}' cannot read {}: {error}",
                        target.display()
                    ),
                }
            } else {
                XmlError::Read {
                    path: target.to_path_buf(),
                    source: error,
                }
            }
        })?;
        let bytes = read_from(file, target, left)?;
        let read = bytes.len() as u64;
        if read > left {
            return Err(over_budget(format!(
                "{MAX_INCLUDED_BYTES} bytes read by all includes together"
            )));
        }
        self.budget.bytes.set(self.budget.bytes.get() + read);
        let text = decode(&bytes, Some(target))?;
        let mut parser = Parser::new(&text, Some(target), self.depth + 1, self.budget);
        parser.outer_elements = self.outer_elements + stack_depth;
        parser.parse()
    }
}

fn mark_file(node: &mut Node, file: &Path) {
    if node.file.is_none() {
        node.file = Some(file.to_path_buf());
    }
    // XInclude adds xml:base to the included root; log4j2 drops it again.
    node.attributes
        .retain(|attribute| attribute.name != "xml:base" && attribute.name != "xml:lang");
    for child in &mut node.children {
        mark_file(child, file);
    }
}

#[cfg(test)]
mod tests {
    use l4rs_test_support::TempDir;

    use super::*;

    fn parse(text: &str) -> Node {
        parse_str(text, None).expect("well-formed")
    }

    /// The position at `line` and `column`, both counted from 1.
    fn at(line: u32, column: u32) -> Position {
        Position { line, column }
    }

    #[test]
    fn positions_of_elements_and_attributes() {
        let root =
            parse("<Configuration status=\"warn\">\n  <Appenders  a='1'/>\n</Configuration>");
        assert_eq!(root.position, at(1, 1));
        assert_eq!(root.attributes[0].position, at(1, 16));
        let appenders = &root.children[0];
        assert_eq!(appenders.position, at(2, 3));
        assert_eq!(appenders.attributes[0].position, at(2, 15));
    }

    #[test]
    fn positions_counted_incrementally_match_counting_from_the_start() {
        let text = "<a x='é'>\n  <b\n     y='1' z=\"ü\"/><c>ß\n</c>\r\n<d w='2'/></a>";
        let root = parse(text);
        let mut seen = Vec::new();
        let mut stack = vec![&root];
        while let Some(node) = stack.pop() {
            seen.push(node.position);
            seen.extend(node.attributes.iter().map(|a| a.position));
            stack.extend(node.children.iter());
        }
        let expected = |needle: &str| position_at(text, text.find(needle).unwrap());
        for needle in ["<a", "x=", "<b", "y=", "z=", "<c", "<d", "w="] {
            assert!(seen.contains(&expected(needle)), "{needle}: {seen:?}");
        }
        assert_eq!(expected("z="), at(3, 12));
        assert_eq!(seen.len(), 8);
    }

    #[test]
    fn text_is_concatenated_and_trimmed_and_leaves_always_get_a_value() {
        let root =
            parse("<a><b>  x &amp; <![CDATA[<y>]]> &#65; </b><c/><d><e/> t </d><f><g/></f></a>");
        assert_eq!(root.children[0].value.as_deref(), Some("x & <y> A"));
        assert_eq!(root.children[1].value.as_deref(), Some(""));
        assert_eq!(root.children[2].value.as_deref(), Some("t"));
        assert_eq!(root.children[3].value, None);
        assert_eq!(root.value, None);
    }

    #[test]
    fn prefixes_are_dropped_from_element_names() {
        let root = parse(
            "<log4j:Configuration xmlns:log4j=\"urn:x\"><log4j:Appenders/></log4j:Configuration>",
        );
        assert_eq!(root.name, "Configuration");
        assert_eq!(root.children[0].name, "Appenders");
        assert_eq!(root.attributes[0].name, "xmlns:log4j");
    }

    #[test]
    fn unknown_entities_stay_verbatim() {
        let root = parse("<!DOCTYPE a [<!ENTITY e \"boom\">]><a>&e;</a>");
        assert_eq!(root.value.as_deref(), Some("&e;"));
    }

    #[test]
    fn attribute_whitespace_is_normalised() {
        let root = parse("<a p=\"x\ny\tz\"/>");
        assert_eq!(root.attributes[0].value, "x y z");
    }

    #[test]
    fn malformed_xml_names_the_place_and_the_problem() {
        let error = parse_str(
            "<Configuration status=\"OFF\"\n  <Appenders/>\n</Configuration>",
            Some(Path::new("bad.xml")),
        )
        .unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("bad.xml: "), "{text}");
        assert!(error.position().is_some());
        let error = parse_str("<a p=\"x<y\"/>", None).unwrap_err();
        assert!(
            error.to_string().contains("must not contain the '<'"),
            "{error}"
        );
        let error = parse_str("<a><b></a>", None).unwrap_err();
        assert!(error.to_string().contains('b'), "{error}");
        let error = parse_str("<a>", None).unwrap_err();
        assert!(error.to_string().contains("</a>"), "{error}");
        assert!(parse_str("", None).is_err());
        let error = parse_str("<!-- c -->\n<?xml version=\"1.0\"?><a/>", None).unwrap_err();
        assert_eq!(error.position(), Some(at(2, 1)));
        assert!(error.to_string().contains("[xX][mM][lL]"), "{error}");
        assert!(parse_str(" <?xml version=\"1.0\"?><a/>", None).is_err());
        assert!(parse_str("\u{feff}<?xml version=\"1.0\"?><a/>", None).is_ok());
        assert!(parse_str("<a/><b/>", None).is_err());
        let error = parse_str("<a x='1' y='2' x='3'/>", None).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("Attribute \"x\" was already specified"),
            "{error}"
        );
    }

    #[test]
    fn xinclude_splices_the_included_root() {
        let temp = TempDir::new("config-xi");
        let dir = temp.path();
        std::fs::write(
            dir.join("appenders.xml"),
            "<Appenders><Console name=\"C\"/></Appenders>",
        )
        .unwrap();
        let main = dir.join("main.xml");
        std::fs::write(
            &main,
            "<Configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n  <xi:include href=\"appenders.xml\"/>\n  <xi:include href=\"missing.xml\"><xi:fallback><Loggers/></xi:fallback></xi:include>\n</Configuration>",
        )
        .unwrap();
        let root = parse_file(&main).unwrap();
        let names: Vec<_> = root.children.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Appenders", "Loggers"]);
        assert_eq!(
            root.children[0].file.as_deref(),
            Some(dir.join("appenders.xml").as_path())
        );
        std::fs::write(
            &main,
            "<Configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"missing.xml\"/></Configuration>",
        )
        .unwrap();
        let error = parse_file(&main).unwrap_err();
        assert!(error.to_string().contains("no fallback"), "{error}");
    }

    #[test]
    fn an_xinclude_of_a_fifo_is_refused_without_waiting() {
        let dir = TempDir::new("config-xi-fifo");
        dir.fifo("appenders.xml");
        let main = dir.path().join("main.xml");
        std::fs::write(
            &main,
            "<Configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n  <xi:include href=\"appenders.xml\"/>\n</Configuration>",
        )
        .unwrap();
        // Reading the FIFO would wait for a writer for ever.
        let error = parse_file(&main).unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("xi:include of 'appenders.xml'"),
            "{message}"
        );
        assert!(message.contains("a FIFO, not a regular file"), "{message}");
        assert_eq!(error.path(), Some(main.as_path()));
        assert_eq!(error.position().map(|p| p.line), Some(2));
    }

    #[test]
    fn latin1_and_utf16_files_decode() {
        let latin1 = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\xe4</a>";
        assert_eq!(decode(latin1, None).unwrap().chars().last(), Some('>'));
        assert!(decode(latin1, None).unwrap().contains('ä'));
        let mut utf16 = vec![0xFF, 0xFE];
        for unit in "<a/>".encode_utf16() {
            utf16.extend_from_slice(&unit.to_le_bytes());
        }
        assert_eq!(decode(&utf16, None).unwrap(), "<a/>");
        assert!(decode(b"<a>\xff</a>", None).is_err());
    }
}
