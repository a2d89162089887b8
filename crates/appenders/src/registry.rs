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
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};

/// What the registry needs from a manager.
pub(crate) trait Managed: Send + Sync {
    /// Pushes buffered bytes to the OS.
    fn flush(&self);
    /// Writes the footer, flushes and closes; later writes fail. Called once.
    fn close(&self);
}

/// A key's place in the registry.
enum Slot<M> {
    /// A manager and the number of appenders using it.
    Live { manager: Arc<M>, users: usize },
    /// One thread is creating or closing the key's manager, outside the registry's lock (a
    /// socket manager may take a whole connect or write timeout): other threads wanting the
    /// same key wait for the turn to end, threads wanting other keys do not wait at all.
    Busy(Arc<Turn>),
}

/// The end of one thread's creation or closing of a key's manager, which others can wait for.
#[derive(Default)]
struct Turn {
    over: Mutex<bool>,
    ended: Condvar,
}

impl Turn {
    fn wait(&self) {
        let over = self.over.lock().unwrap_or_else(|e| e.into_inner());
        let _over = self
            .ended
            .wait_while(over, |over| !*over)
            .unwrap_or_else(|e| e.into_inner());
    }

    fn end(&self) {
        *self.over.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.ended.notify_all();
    }
}

/// Managers by destination key, with the number of appenders using each.
pub(crate) struct Registry<K, M> {
    entries: OnceLock<Mutex<HashMap<K, Slot<M>>>>,
}

/// Ends a turn when dropped (also when `create` or `close` panics): the keys still marked
/// with it are forgotten and the threads waiting for them go on.
struct EndOfTurn<'r, K: Eq + Hash, M> {
    registry: &'r Registry<K, M>,
    keys: Vec<K>,
    turn: Arc<Turn>,
}

impl<K: Eq + Hash, M> Drop for EndOfTurn<'_, K, M> {
    fn drop(&mut self) {
        if let Some(entries) = self.registry.entries.get() {
            let mut entries = entries.lock().unwrap_or_else(|e| e.into_inner());
            for key in &self.keys {
                if matches!(entries.get(key), Some(Slot::Busy(turn)) if Arc::ptr_eq(turn, &self.turn))
                {
                    entries.remove(key);
                }
            }
        }
        self.turn.end();
    }
}

impl<K: Eq + Hash + Clone, M: Managed> Registry<K, M> {
    /// An empty registry, usable in a `static`.
    pub(crate) const fn new() -> Registry<K, M> {
        Registry {
            entries: OnceLock::new(),
        }
    }

    fn entries(&self) -> MutexGuard<'_, HashMap<K, Slot<M>>> {
        self.entries
            .get_or_init(|| Mutex::new(HashMap::new()))
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// The registry locked with no turn under way for `key`.
    fn entries_settled<Q>(&self, key: &Q) -> MutexGuard<'_, HashMap<K, Slot<M>>>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        loop {
            let entries = self.entries();
            let Some(Slot::Busy(turn)) = entries.get(key) else {
                return entries;
            };
            let turn = Arc::clone(turn);
            drop(entries);
            turn.wait();
        }
    }

    /// The live manager for `key`, or a new one from `create`. `create` runs outside the
    /// registry's lock, so a slow creation (a connection to a host that does not answer)
    /// delays only the appenders of the same key, which wait for it and then share what it
    /// made: two appenders built at once for one destination never both create it.
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
        let mut entries = self.entries_settled(key);
        if let Some(Slot::Live { manager, users }) = entries.get_mut(key) {
            *users += 1;
            return Ok(Arc::clone(manager));
        }
        let turn = Arc::new(Turn::default());
        entries.insert(key.clone(), Slot::Busy(Arc::clone(&turn)));
        drop(entries);
        let _end = EndOfTurn {
            registry: self,
            keys: vec![key.clone()],
            turn,
        };
        let manager = create()?;
        self.entries().insert(
            key.clone(),
            Slot::Live {
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
        let Some((stored_key, slot)) = entries.get_key_value(key) else {
            return;
        };
        let Slot::Live { manager: live, .. } = slot else {
            return;
        };
        if !Arc::ptr_eq(live, manager) {
            return;
        }
        let stored_key = stored_key.clone();
        let Some(Slot::Live { users, .. }) = entries.get_mut(key) else {
            return;
        };
        *users -= 1;
        if *users > 0 {
            return;
        }
        // Closed outside the lock, but in the key's turn: a manager created next for the same
        // destination starts after this one's footer and close.
        let turn = Arc::new(Turn::default());
        entries.insert(stored_key.clone(), Slot::Busy(Arc::clone(&turn)));
        drop(entries);
        let _end = EndOfTurn {
            registry: self,
            keys: vec![stored_key],
            turn,
        };
        manager.close();
    }

    /// Flushes every live manager (outside the registry's lock).
    pub(crate) fn flush_all(&self) {
        let live: Vec<Arc<M>> = self
            .entries()
            .values()
            .filter_map(|slot| match slot {
                Slot::Live { manager, .. } => Some(Arc::clone(manager)),
                Slot::Busy(_) => None,
            })
            .collect();
        for manager in live {
            manager.flush();
        }
    }

    /// Closes every live manager, whoever still uses it, and forgets them all. Creations and
    /// closings under way end first.
    pub(crate) fn close_all(&self) {
        let mut entries = loop {
            let entries = self.entries();
            let busy = entries.values().find_map(|slot| match slot {
                Slot::Busy(turn) => Some(Arc::clone(turn)),
                Slot::Live { .. } => None,
            });
            match busy {
                Some(turn) => {
                    drop(entries);
                    turn.wait();
                }
                None => break entries,
            }
        };
        let turn = Arc::new(Turn::default());
        let mut keys = Vec::with_capacity(entries.len());
        let mut managers = Vec::with_capacity(entries.len());
        for (key, slot) in entries.iter_mut() {
            if let Slot::Live { manager, .. } =
                std::mem::replace(slot, Slot::Busy(Arc::clone(&turn)))
            {
                keys.push(key.clone());
                managers.push(manager);
            }
        }
        drop(entries);
        let _end = EndOfTurn {
            registry: self,
            keys,
            turn,
        };
        for manager in managers {
            manager.close();
        }
    }

    /// Runs `action` unless a manager for `key` is live, with the registry locked meanwhile so
    /// that none is created for `key` while it runs (a creation or closing under way for `key`
    /// ends first).
    pub(crate) fn unless_live<Q>(&self, key: &Q, action: impl FnOnce())
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let entries = self.entries_settled(key);
        if !entries.contains_key(key) {
            action();
        }
    }

    /// How many appenders use the manager for `key` (0 when there is none).
    #[cfg(test)]
    pub(crate) fn users(&self, key: &K) -> usize {
        match self.entries().get(key) {
            Some(Slot::Live { users, .. }) => *users,
            _ => 0,
        }
    }
}

/// A registry whatever its managers' type: for code that must leave a live manager's file
/// alone ([`crate::takeover`], [`crate::replaced`]) and for what the process does to every
/// manager at once ([`crate::flush_all`], [`crate::stop_all`]).
pub(crate) trait AnyRegistry: Sync {
    /// [`Registry::unless_live`].
    fn unless_live(&self, key: &str, action: &mut dyn FnMut());

    /// True when a manager for `key` is live.
    fn is_live(&self, key: &str) -> bool {
        let mut live = true;
        self.unless_live(key, &mut || live = false);
        live
    }

    /// [`Registry::flush_all`].
    fn flush_all(&self);

    /// [`Registry::close_all`].
    fn close_all(&self);
}

impl<M: Managed> AnyRegistry for Registry<String, M> {
    fn unless_live(&self, key: &str, action: &mut dyn FnMut()) {
        Registry::unless_live(self, key, action);
    }

    fn flush_all(&self) {
        Registry::flush_all(self);
    }

    fn close_all(&self) {
        Registry::close_all(self);
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

    /// A manager whose close waits until the test lets it go.
    struct SlowClose {
        closing: std::sync::mpsc::Sender<()>,
        go: Mutex<std::sync::mpsc::Receiver<()>>,
        closed: std::sync::atomic::AtomicBool,
    }

    impl Managed for SlowClose {
        fn flush(&self) {}
        fn close(&self) {
            let _ = self.closing.send(());
            let _ = self
                .go
                .lock()
                .unwrap()
                .recv_timeout(std::time::Duration::from_secs(10));
            self.closed.store(true, Ordering::Release);
        }
    }

    /// How long a thread that must not wait is given.
    const NOT_WAITING: std::time::Duration = std::time::Duration::from_secs(2);

    #[test]
    fn a_slow_creation_delays_only_the_appenders_of_its_key() {
        use std::sync::mpsc::channel;
        let registry: Registry<&str, Counting> = Registry::new();
        let (entered, creating) = channel();
        let (release, go) = channel::<()>();
        let (fast_sender, fast) = channel();
        let (same_sender, same) = channel();
        let creations = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            let (registry, creations) = (&registry, &creations);
            let slow = scope.spawn(move || {
                registry
                    .acquire(&"slow", || {
                        creations.fetch_add(1, Ordering::Relaxed);
                        entered.send(()).unwrap();
                        let _ = go.recv_timeout(std::time::Duration::from_secs(10));
                        Ok::<_, ()>(Counting::default())
                    })
                    .unwrap()
            });
            creating.recv().unwrap();
            scope.spawn(move || {
                let manager = registry.acquire(&"fast", || Ok::<_, ()>(Counting::default()));
                fast_sender.send(manager.is_ok()).unwrap();
            });
            let same_key = scope.spawn(move || {
                let manager = registry
                    .acquire(&"slow", || {
                        creations.fetch_add(1, Ordering::Relaxed);
                        Ok::<_, ()>(Counting::default())
                    })
                    .unwrap();
                same_sender.send(()).unwrap();
                manager
            });
            let fast_done = fast.recv_timeout(NOT_WAITING);
            let same_waited = same
                .recv_timeout(std::time::Duration::from_millis(200))
                .is_err();
            release.send(()).unwrap();
            assert_eq!(
                fast_done,
                Ok(true),
                "another key waited for the slow creation"
            );
            assert!(same_waited, "the same key did not wait for its creation");
            let first = slow.join().unwrap();
            let second = same_key.join().unwrap();
            assert!(Arc::ptr_eq(&first, &second), "two managers for one key");
        });
        assert_eq!(creations.load(Ordering::Relaxed), 1);
        assert_eq!(registry.users(&"slow"), 2);
    }

    #[test]
    fn a_slow_close_delays_only_the_appenders_of_its_key() {
        use std::sync::mpsc::channel;
        let registry: Registry<&str, SlowClose> = Registry::new();
        let (closing_sender, closing) = channel();
        let (release, go) = channel();
        let slow = registry
            .acquire(&"slow", || {
                Ok::<_, ()>(SlowClose {
                    closing: closing_sender.clone(),
                    go: Mutex::new(go),
                    closed: Default::default(),
                })
            })
            .unwrap();
        let (fast_sender, fast) = channel();
        std::thread::scope(|scope| {
            scope.spawn(|| registry.release(&"slow", &slow));
            closing.recv().unwrap();
            scope.spawn(|| {
                let (_release, go) = channel();
                let manager = registry.acquire(&"fast", || {
                    Ok::<_, ()>(SlowClose {
                        closing: closing_sender.clone(),
                        go: Mutex::new(go),
                        closed: Default::default(),
                    })
                });
                fast_sender.send(manager.is_ok()).unwrap();
            });
            let reopened = scope.spawn(|| {
                let (_release, go) = channel();
                registry
                    .acquire(&"slow", || {
                        // The old manager's close is over before its successor is made.
                        assert!(
                            slow.closed.load(Ordering::Acquire),
                            "created during the close"
                        );
                        Ok::<_, ()>(SlowClose {
                            closing: closing_sender.clone(),
                            go: Mutex::new(go),
                            closed: Default::default(),
                        })
                    })
                    .unwrap()
            });
            let fast_done = fast.recv_timeout(NOT_WAITING);
            release.send(()).unwrap();
            assert_eq!(fast_done, Ok(true), "another key waited for the slow close");
            assert!(!Arc::ptr_eq(&reopened.join().unwrap(), &slow));
        });
    }

    #[test]
    fn a_panicking_creation_lets_the_next_one_try() {
        let registry: Registry<&str, Counting> = Registry::new();
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            registry.acquire(&"p", || -> Result<Counting, ()> {
                panic!("creation failed")
            })
        }));
        assert!(panicked.is_err());
        assert!(registry
            .acquire(&"p", || Ok::<_, ()>(Counting::default()))
            .is_ok());
        assert_eq!(registry.users(&"p"), 1);
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
