//! Thread context data attached to events: the MDC map and the NDC stack.

/// log4j2's ThreadContext map (MDC) as seen by one event: key/value pairs sorted by key.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ContextMap {
    entries: Vec<(String, String)>,
}

impl Clone for ContextMap {
    fn clone(&self) -> ContextMap {
        ContextMap {
            entries: self.entries.clone(),
        }
    }

    /// Copies `source` into `self` reusing `self`'s strings, so that an asynchronous stage
    /// snapshotting the map of every event allocates nothing once its buffers have grown.
    fn clone_from(&mut self, source: &ContextMap) {
        self.entries.truncate(source.entries.len());
        for ((key, value), (source_key, source_value)) in
            self.entries.iter_mut().zip(&source.entries)
        {
            key.clone_from(source_key);
            value.clone_from(source_value);
        }
        let kept = self.entries.len();
        self.entries.extend(source.entries[kept..].iter().cloned());
    }
}

/// The empty map, for events without context data.
pub static EMPTY_CONTEXT_MAP: ContextMap = ContextMap {
    entries: Vec::new(),
};

/// The empty stack, for events without a nested diagnostic context.
pub static EMPTY_CONTEXT_STACK: ContextStack = ContextStack {
    entries: Vec::new(),
};

impl ContextMap {
    /// An empty map.
    pub const fn new() -> ContextMap {
        ContextMap {
            entries: Vec::new(),
        }
    }

    /// Sets `key` to `value`, keeping the entries sorted.
    pub fn insert(&mut self, key: impl Into<String>, value: impl Into<String>) {
        let key = key.into();
        match self.entries.binary_search_by(|(k, _)| k.as_str().cmp(&key)) {
            Ok(index) => self.entries[index].1 = value.into(),
            Err(index) => self.entries.insert(index, (key, value.into())),
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        match self.entries.binary_search_by(|(k, _)| k.as_str().cmp(key)) {
            Ok(index) => Some(self.entries.remove(index).1),
            Err(_) => None,
        }
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()
            .map(|index| self.entries[index].1.as_str())
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// True when the map has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

/// log4j2's ThreadContext stack (NDC): the bottom (first pushed) entry first.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ContextStack {
    entries: Vec<String>,
}

impl Clone for ContextStack {
    fn clone(&self) -> ContextStack {
        ContextStack {
            entries: self.entries.clone(),
        }
    }

    /// Copies `source` into `self` reusing `self`'s strings (see [`ContextMap::clone_from`]).
    fn clone_from(&mut self, source: &ContextStack) {
        // `Vec<String>::clone_from` reuses the existing strings' buffers.
        self.entries.clone_from(&source.entries);
    }
}

impl ContextStack {
    /// An empty stack.
    pub const fn new() -> ContextStack {
        ContextStack {
            entries: Vec::new(),
        }
    }

    /// Pushes an entry on top.
    pub fn push(&mut self, entry: impl Into<String>) {
        self.entries.push(entry.into());
    }

    /// Pops the top entry.
    pub fn pop(&mut self) -> Option<String> {
        self.entries.pop()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Entries from the bottom (first pushed) to the top.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(String::as_str)
    }

    /// True when the stack is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_keeps_keys_sorted_and_replaces_values() {
        let mut map = ContextMap::new();
        map.insert("b", "2");
        map.insert("a", "1");
        map.insert("b", "3");
        let pairs: Vec<_> = map.iter().collect();
        assert_eq!(pairs, vec![("a", "1"), ("b", "3")]);
        assert_eq!(map.remove("a").as_deref(), Some("1"));
        assert_eq!(map.get("a"), None);
    }

    #[test]
    fn clone_from_copies_exactly() {
        let mut source = ContextMap::new();
        source.insert("a", "1");
        source.insert("b", "2");
        let mut target = ContextMap::new();
        target.insert("x", "long value");
        target.insert("y", "y");
        target.insert("z", "z");
        target.clone_from(&source);
        assert_eq!(target, source);
        let mut grown = ContextMap::new();
        grown.clone_from(&source);
        assert_eq!(grown, source);
        let mut stack = ContextStack::new();
        stack.push("old");
        let mut other = ContextStack::new();
        other.push("a");
        other.push("b");
        stack.clone_from(&other);
        assert_eq!(stack, other);
    }

    #[test]
    fn stack_iterates_bottom_first() {
        let mut stack = ContextStack::new();
        stack.push("first");
        stack.push("second");
        assert_eq!(stack.iter().collect::<Vec<_>>(), vec!["first", "second"]);
        assert_eq!(stack.pop().as_deref(), Some("second"));
    }
}
