//! Process-wide, reference-counted sharing of output managers.
//!
//! log4j2 gives every destination one manager per process: two appenders on the same file (or
//! the same console stream) share it, the first one's layout provides the header and footer,
//! and the destination is closed only when the last appender using it stops. A new
//! configuration's appenders are built before the old ones stop, so a manager survives
//! reconfiguration and its file is not truncated or given a second header.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// What the registry needs from a manager.
pub(crate) trait Managed: Send + Sync {
    /// Pushes buffered bytes to the OS.
    fn flush(&self);
    /// Writes the footer, flushes and closes; later writes fail. Called once.
    fn close(&self);
}

struct Entry<M> {
    manager: Arc<M>,
    users: usize,
}

/// Managers by destination key, with the number of appenders using each.
pub(crate) struct Registry<K, M> {
    entries: OnceLock<Mutex<HashMap<K, Entry<M>>>>,
}

impl<K: Eq + Hash + Clone, M: Managed> Registry<K, M> {
    /// An empty registry, usable in a `static`.
    pub(crate) const fn new() -> Registry<K, M> {
        Registry {
            entries: OnceLock::new(),
        }
    }

    fn entries(&self) -> MutexGuard<'_, HashMap<K, Entry<M>>> {
        self.entries
            .get_or_init(|| Mutex::new(HashMap::new()))
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The live manager for `key`, or a new one from `create`. The registry stays locked while
    /// `create` runs, so two appenders built at once for one destination cannot both create it.
    pub(crate) fn acquire<E>(
        &self,
        key: &K,
        create: impl FnOnce() -> Result<M, E>,
    ) -> Result<Arc<M>, E> {
        self.acquire_shared(key, || create().map(Arc::new))
    }

    /// [`Registry::acquire`] for a manager that is created inside its `Arc` (one that hands
    /// weak references to threads of its own).
    pub(crate) fn acquire_shared<E>(
        &self,
        key: &K,
        create: impl FnOnce() -> Result<Arc<M>, E>,
    ) -> Result<Arc<M>, E> {
        let mut entries = self.entries();
        if let Some(entry) = entries.get_mut(key) {
            entry.users += 1;
            return Ok(Arc::clone(&entry.manager));
        }
        let manager = create()?;
        entries.insert(
            key.clone(),
            Entry {
                manager: Arc::clone(&manager),
                users: 1,
            },
        );
        Ok(manager)
    }

    /// One user of `manager` is done with it; the last one closes it. A manager that is no
    /// longer registered (closed by [`Registry::close_all`]) is left alone.
    pub(crate) fn release<Q>(&self, key: &Q, manager: &Arc<M>)
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let mut entries = self.entries();
        let Some(entry) = entries.get_mut(key) else {
            return;
        };
        if !Arc::ptr_eq(&entry.manager, manager) {
            return;
        }
        entry.users -= 1;
        if entry.users == 0 {
            if let Some(entry) = entries.remove(key) {
                // Closed with the registry still locked, so a manager created next for the same
                // destination starts after this one's footer and close.
                entry.manager.close();
            }
        }
    }

    /// Flushes every live manager.
    pub(crate) fn flush_all(&self) {
        for entry in self.entries().values() {
            entry.manager.flush();
        }
    }

    /// Closes every live manager, whoever still uses it, and forgets them all.
    pub(crate) fn close_all(&self) {
        let mut entries = self.entries();
        for (_, entry) in entries.drain() {
            entry.manager.close();
        }
    }

    /// Runs `action` unless a manager for `key` is live, with the registry locked meanwhile so
    /// that none is created for `key` while it runs.
    pub(crate) fn unless_live<Q>(&self, key: &Q, action: impl FnOnce())
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let entries = self.entries();
        if !entries.contains_key(key) {
            action();
        }
    }

    /// How many appenders use the manager for `key` (0 when there is none).
    #[cfg(test)]
    pub(crate) fn users(&self, key: &K) -> usize {
        self.entries().get(key).map_or(0, |entry| entry.users)
    }
}

/// A registry of file managers seen only as "is a manager live for this file?", for code that
/// must leave a live manager's file alone whatever the manager's type.
pub(crate) trait LiveManagers: Sync {
    /// [`Registry::unless_live`].
    fn unless_live(&self, key: &str, action: &mut dyn FnMut());

    /// True when a manager for `key` is live.
    fn is_live(&self, key: &str) -> bool {
        let mut live = true;
        self.unless_live(key, &mut || live = false);
        live
    }
}

impl<M: Managed> LiveManagers for Registry<String, M> {
    fn unless_live(&self, key: &str, action: &mut dyn FnMut()) {
        Registry::unless_live(self, key, action);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[derive(Default)]
    struct Counting {
        flushes: AtomicUsize,
        closes: AtomicUsize,
    }

    impl Managed for Counting {
        fn flush(&self) {
            self.flushes.fetch_add(1, Ordering::Relaxed);
        }
        fn close(&self) {
            self.closes.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn shares_by_key_and_closes_with_the_last_user() {
        let registry: Registry<&str, Counting> = Registry::new();
        let a = registry
            .acquire(&"x", || Ok::<_, ()>(Counting::default()))
            .unwrap();
        let b = registry
            .acquire(&"x", || -> Result<Counting, ()> { panic!("must reuse") })
            .unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(registry.users(&"x"), 2);
        registry.release(&"x", &a);
        assert_eq!(a.closes.load(Ordering::Relaxed), 0);
        registry.flush_all();
        assert_eq!(a.flushes.load(Ordering::Relaxed), 1);
        registry.release(&"x", &b);
        assert_eq!(a.closes.load(Ordering::Relaxed), 1);
        assert_eq!(registry.users(&"x"), 0);
        // A fresh manager for the same key after the old one closed.
        let c = registry
            .acquire(&"x", || Ok::<_, ()>(Counting::default()))
            .unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        // Releasing a stale manager does not touch the new one.
        registry.release(&"x", &a);
        assert_eq!(registry.users(&"x"), 1);
        registry.close_all();
        assert_eq!(c.closes.load(Ordering::Relaxed), 1);
        registry.release(&"x", &c);
        assert_eq!(c.closes.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_failed_creation_registers_nothing() {
        let registry: Registry<&str, Counting> = Registry::new();
        assert!(registry
            .acquire(&"y", || Err::<Counting, _>("nope"))
            .is_err());
        assert_eq!(registry.users(&"y"), 0);
    }
}
