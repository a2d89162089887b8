//! Thread context data attached to events: the MDC map and the NDC stack.

/// log4j2's ThreadContext map (MDC) as seen by one event: key/value pairs sorted by key.
#[derive(Default)]
pub struct ContextMap {
    entries: Vec<(String, String)>,
    /// Emptied strings of removed entries, kept by [`ContextMap::recycle`] for
    /// [`ContextMap::insert_with`]; not part of the map's value.
    spare: Vec<(String, String)>,
}

impl PartialEq for ContextMap {
    fn eq(&self, other: &ContextMap) -> bool {
        self.entries == other.entries
    }
}

impl Eq for ContextMap {}

impl std::fmt::Debug for ContextMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextMap")
            .field("entries", &self.entries)
            .finish()
    }
}

impl Clone for ContextMap {
    fn clone(&self) -> ContextMap {
        ContextMap {
            entries: self.entries.clone(),
            spare: Vec::new(),
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
    spare: Vec::new(),
};

/// The empty stack, for events without a nested diagnostic context.
pub static EMPTY_CONTEXT_STACK: ContextStack = ContextStack {
    entries: Vec::new(),
    spare: Vec::new(),
};

impl ContextMap {
    /// An empty map.
    pub const fn new() -> ContextMap {
        ContextMap {
            entries: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// Empties the map but keeps its strings, emptied, for [`ContextMap::insert_with`]: a map
    /// refilled for every event (the `tracing` layer's fields) allocates nothing once its
    /// strings have grown to the sizes the events need.
    pub fn recycle(&mut self) {
        for (mut key, mut value) in self.entries.drain(..) {
            key.clear();
            value.clear();
            self.spare.push((key, value));
        }
    }

    /// Sets `key` to the text `write` appends, keeping the entries sorted; a new entry reuses
    /// strings kept by [`ContextMap::recycle`] when there are some.
    pub fn insert_with(&mut self, key: &str, write: impl FnOnce(&mut String)) {
        match self.entries.binary_search_by(|(k, _)| k.as_str().cmp(key)) {
            Ok(index) => {
                let value = &mut self.entries[index].1;
                value.clear();
                write(value);
            }
            Err(index) => {
                let (mut new_key, mut value) = self.spare.pop().unwrap_or_default();
                new_key.push_str(key);
                write(&mut value);
                self.entries.insert(index, (new_key, value));
            }
        }
    }

    /// True when the map has an entry for `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.entries
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .is_ok()
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

    /// The entry at `index` in key order.
    pub fn entry_at(&self, index: usize) -> Option<(&str, &str)> {
        self.entries
            .get(index)
            .map(|(k, v)| (k.as_str(), v.as_str()))
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
#[derive(Default)]
pub struct ContextStack {
    entries: Vec<String>,
    /// Emptied strings kept by [`ContextStack::recycle`] for [`ContextStack::push_str`].
    spare: Vec<String>,
}

impl PartialEq for ContextStack {
    fn eq(&self, other: &ContextStack) -> bool {
        self.entries == other.entries
    }
}

impl Eq for ContextStack {}

impl std::fmt::Debug for ContextStack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextStack")
            .field("entries", &self.entries)
            .finish()
    }
}

impl Clone for ContextStack {
    fn clone(&self) -> ContextStack {
        ContextStack {
            entries: self.entries.clone(),
            spare: Vec::new(),
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
            spare: Vec::new(),
        }
    }

    /// Empties the stack but keeps its strings, emptied, for [`ContextStack::push_str`] (see
    /// [`ContextMap::recycle`]).
    pub fn recycle(&mut self) {
        for mut entry in self.entries.drain(..) {
            entry.clear();
            self.spare.push(entry);
        }
    }

    /// Pushes a copy of `entry` on top, into a string kept by [`ContextStack::recycle`] when
    /// there is one.
    pub fn push_str(&mut self, entry: &str) {
        let mut text = self.spare.pop().unwrap_or_default();
        text.push_str(entry);
        self.entries.push(text);
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
    fn recycled_maps_and_stacks_refill_without_allocating_new_strings() {
        let mut map = ContextMap::new();
        // Values longer than the ones refilled below, so the refill fits in their buffers.
        map.insert_with("b", |v| v.push_str("two-two-two"));
        map.insert_with("a", |v| v.push_str("one-one-one"));
        map.insert_with("b", |v| v.push_str("22"));
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [("a", "one-one-one"), ("b", "22")]
        );
        assert!(map.contains_key("a") && !map.contains_key("c"));
        let buffers: Vec<*const u8> = map.entries.iter().map(|(_, v)| v.as_ptr()).collect();
        map.recycle();
        assert!(map.is_empty());
        assert_eq!(map, ContextMap::new());
        map.insert_with("c", |v| v.push_str("three"));
        map.insert_with("d", |v| v.push_str("four"));
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [("c", "three"), ("d", "four")]
        );
        // Both values live in the recycled buffers.
        assert!(map
            .entries
            .iter()
            .all(|(_, v)| buffers.contains(&v.as_ptr())));
        let mut stack = ContextStack::new();
        stack.push_str("outer-span");
        let buffer = stack.entries[0].as_ptr();
        stack.recycle();
        assert!(stack.is_empty());
        stack.push_str("inner");
        assert_eq!(stack.iter().collect::<Vec<_>>(), ["inner"]);
        assert_eq!(stack.entries[0].as_ptr(), buffer);
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
