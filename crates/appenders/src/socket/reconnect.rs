//! The reconnector thread log4j2's TCP socket manager runs after a connection is lost, shared
//! by the TCP (and TLS) manager and the RELP manager: it waits `reconnectionDelayMillis`,
//! tries to connect, and stops once connected or once the manager is closed. While its first
//! attempt runs, a writer without `immediateFail` waits for it (log4j2's latch), and no longer.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::Duration;

use l4rs_core::status::{self, ReportLimit};
use l4rs_core::Level;

use super::tcp::TcpOptions;

/// What the reconnector needs of the state a manager keeps under its lock.
pub(super) trait ConnectionState<C> {
    /// The reconnector thread, while one runs: `Some(true)` once its first attempt is over.
    fn reconnector(&mut self) -> &mut Option<bool>;
    /// True while a connection is held.
    fn is_connected(&self) -> bool;
    /// Keeps `connection` (to `peer`, as Java prints it) as the manager's connection.
    fn install(&mut self, connection: C, peer: String);
}

/// A connection manager that a reconnector thread serves.
pub(super) trait Reconnecting: Send + Sync + Sized + 'static {
    /// The connection the manager holds (a stream, a RELP session).
    type Connection;
    /// The state kept under the manager's lock.
    type State: ConnectionState<Self::Connection>;
    /// The reconnector thread's name, log4j2's (`TcpSocketManager-Reconnector`).
    const THREAD_NAME: &'static str;

    /// The connection's options.
    fn options(&self) -> &TcpOptions;
    /// What the manager shares with its reconnector.
    fn link(&self) -> &Link<Self>;
    /// Opens a new connection and names its peer.
    fn connect(&self) -> io::Result<(Self::Connection, String)>;
    /// Closes a connection that arrived after the manager was closed.
    fn discard(connection: Self::Connection);

    /// Locks the manager's state; a writer that panicked while holding it leaves it usable.
    fn lock(&self) -> MutexGuard<'_, Self::State> {
        crate::lock(&self.link().state)
    }

    /// True once the manager is closed: writes fail and the reconnector stops.
    fn is_closed(&self) -> bool {
        self.link().closed.load(Ordering::Acquire)
    }
}

/// What a manager shares with its reconnector thread, the same for every manager: the state
/// under the manager's lock, the condition signalled when the reconnector finishes an attempt
/// and on close, whether the manager is closed, and the manager itself for the thread to own.
pub(super) struct Link<M: Reconnecting> {
    state: Mutex<M::State>,
    changed: Condvar,
    closed: AtomicBool,
    this: Weak<M>,
}

impl<M: Reconnecting> Link<M> {
    /// The link of the manager `this` (as `Arc::new_cyclic` gives it), open, with `state`.
    pub(super) fn new(state: M::State, this: &Weak<M>) -> Link<M> {
        Link {
            state: Mutex::new(state),
            changed: Condvar::new(),
            closed: AtomicBool::new(false),
            this: this.clone(),
        }
    }

    /// Marks the manager closed; false when it already was (so only one caller closes it).
    pub(super) fn close(&self) -> bool {
        !self.closed.swap(true, Ordering::AcqRel)
    }

    /// Wakes the reconnector and the writers waiting for it (after a close).
    pub(super) fn notify_all(&self) {
        self.changed.notify_all();
    }
}

/// Connects `manager` for the first time: keeps the connection, after `prepare` (which may
/// write a header into it), or reports why there is none in log4j2's words for the manager
/// `kind` (`TcpSocketManager`, …) and starts reconnecting.
pub(super) fn connect_first<M: Reconnecting>(
    manager: &Arc<M>,
    kind: &str,
    prepare: impl FnOnce(&mut M::Connection),
) {
    match manager.connect() {
        Ok((mut connection, peer)) => {
            prepare(&mut connection);
            manager.lock().install(connection, peer);
        }
        Err(error) => {
            status::error(format_args!(
                "{kind} ({}) caught exception and will continue: {error}",
                manager.options().name
            ));
            let mut state = manager.lock();
            start(manager.as_ref(), &mut state);
        }
    }
}

/// Starts the reconnector thread of `manager` unless one runs, reconnection is off or the
/// manager is closed; `state` is the manager's locked state.
pub(super) fn start<M: Reconnecting>(manager: &M, state: &mut M::State) {
    if !manager.options().retry || state.reconnector().is_some() || manager.is_closed() {
        return;
    }
    let Some(owned) = manager.link().this.upgrade() else {
        return;
    };
    *state.reconnector() = Some(false);
    let started = std::thread::Builder::new()
        .name(M::THREAD_NAME.into())
        .spawn(move || run(owned.as_ref()));
    if let Err(error) = started {
        // Tried again at the next failed write: while threads cannot be made, that is every
        // write.
        static SPAWN_FAILURES: ReportLimit = ReportLimit::per_second();
        *state.reconnector() = None;
        SPAWN_FAILURES.report(
            Level::ERROR,
            format_args!(
                "{}: cannot start the reconnector thread: {error}",
                manager.options().name
            ),
        );
    }
}

/// The reconnector: waits the delay, tries, and stops once connected or closed.
fn run<M: Reconnecting>(manager: &M) {
    let options = manager.options();
    loop {
        {
            let state = manager.lock();
            let _ =
                manager
                    .link()
                    .changed
                    .wait_timeout_while(state, options.reconnect_delay, |_| !manager.is_closed());
        }
        if manager.is_closed() {
            *manager.lock().reconnector() = None;
            manager.link().changed.notify_all();
            return;
        }
        let attempt = manager.connect();
        let mut state = manager.lock();
        match attempt {
            Ok((connection, peer)) if !manager.is_closed() => {
                status::debug(format_args!(
                    "Connection to {}:{} reestablished: {peer}",
                    options.host, options.port
                ));
                state.install(connection, peer);
                *state.reconnector() = None;
                drop(state);
                manager.link().changed.notify_all();
                return;
            }
            Ok((connection, _)) => M::discard(connection),
            Err(error) => {
                status::debug(format_args!(
                    "Unable to reconnect to {}:{}: {error}",
                    options.host, options.port
                ));
                *state.reconnector() = Some(true);
            }
        }
        drop(state);
        manager.link().changed.notify_all();
    }
}

/// With no connection and `immediateFail` off, waits (as log4j2 waits on the reconnector's
/// latch) for the reconnector's first attempt, no more, bounded by the delay and the connect
/// timeout; returns the state locked again.
pub(super) fn await_first_attempt<'a, M: Reconnecting>(
    manager: &'a M,
    mut state: MutexGuard<'a, M::State>,
) -> MutexGuard<'a, M::State> {
    let options = manager.options();
    if !state.is_connected() && !options.immediate_fail {
        let bound = options.reconnect_delay + options.connect_timeout + Duration::from_secs(1);
        state = manager
            .link()
            .changed
            .wait_timeout_while(state, bound, |state| {
                !state.is_connected() && *state.reconnector() == Some(false) && !manager.is_closed()
            })
            .map(|(state, _)| state)
            .unwrap_or_else(|e| e.into_inner().0);
    }
    state
}
