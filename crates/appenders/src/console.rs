//! The Console appender (log4j2's `ConsoleAppender`).

use std::io::{self, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use l4rs_config::model::{ConsoleSpec, ConsoleTarget};
use l4rs_core::{status, AppendError, Appender, Layout, LogEvent};

use crate::file_manager::report_stream_error;
use crate::registry::{Managed, Registry};
use crate::AppenderBuildError;

/// The console managers of the process.
static CONSOLE_MANAGERS: Registry<ConsoleKey, ConsoleManager> = Registry::new();

/// What a console manager is shared by: log4j2 names it `<target>.<follow>.<direct>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ConsoleKey {
    /// True for SYSTEM_ERR.
    stderr: bool,
    follow: bool,
    direct: bool,
}

impl ConsoleKey {
    fn new(spec: &ConsoleSpec) -> ConsoleKey {
        ConsoleKey {
            stderr: spec.target == ConsoleTarget::SystemErr,
            follow: spec.follow,
            direct: spec.direct,
        }
    }

    /// log4j2's manager name, used as the destination in write errors.
    fn manager_name(&self) -> String {
        format!(
            "{}.{}.{}",
            if self.stderr {
                "SYSTEM_ERR"
            } else {
                "SYSTEM_OUT"
            },
            self.follow,
            self.direct
        )
    }

    /// Where this key's manager writes. `direct` bypasses Rust's standard streams and writes
    /// to the descriptor itself, as log4j2 bypasses `System.out`. Rust cannot swap its standard
    /// streams the way Java's `System.setOut` does, so `follow` changes nothing else.
    fn sink(&self) -> ConsoleSink {
        match (self.stderr, self.direct) {
            (false, false) => ConsoleSink::Stdout,
            (true, false) => ConsoleSink::Stderr,
            (false, true) => ConsoleSink::Descriptor(libc::STDOUT_FILENO),
            (true, true) => ConsoleSink::Descriptor(libc::STDERR_FILENO),
        }
    }
}

/// Where console bytes go.
pub(crate) enum ConsoleSink {
    /// Rust's standard output: its lock keeps our lines whole among `println!` output, and
    /// each write is flushed at once.
    Stdout,
    /// Rust's standard error (unbuffered).
    Stderr,
    /// A raw descriptor, never closed here.
    Descriptor(libc::c_int),
    /// Bytes kept in memory, for tests.
    #[cfg(test)]
    Memory(Arc<std::sync::Mutex<Vec<u8>>>),
}

impl ConsoleSink {
    fn write(&self, bytes: &[u8]) -> io::Result<()> {
        match self {
            ConsoleSink::Stdout => {
                let mut out = io::stdout().lock();
                out.write_all(bytes)?;
                out.flush()
            }
            ConsoleSink::Stderr => io::stderr().lock().write_all(bytes),
            ConsoleSink::Descriptor(fd) => write_descriptor(*fd, bytes),
            #[cfg(test)]
            ConsoleSink::Memory(memory) => {
                memory
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend_from_slice(bytes);
                Ok(())
            }
        }
    }
}

/// `write(2)` until every byte is taken, retrying after signals.
fn write_descriptor(fd: libc::c_int, mut bytes: &[u8]) -> io::Result<()> {
    while !bytes.is_empty() {
        // SAFETY: the pointer and length describe a live byte slice.
        let written = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if written < 0 {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error);
        }
        if written == 0 {
            return Err(io::Error::from(io::ErrorKind::WriteZero));
        }
        bytes = &bytes[written as usize..];
    }
    Ok(())
}

/// One console stream, shared by every Console appender with the same target, follow and
/// direct settings. The header of the first appender's layout is written when the manager is
/// created, its footer when the last appender stops: so, as in log4j2 2.19, a second console
/// appender on the same stream never prints its own header or footer.
pub(crate) struct ConsoleManager {
    name: String,
    sink: ConsoleSink,
    layout: Arc<dyn Layout>,
    /// False once closed; writers share it, closing takes it exclusively.
    open: RwLock<bool>,
}

impl ConsoleManager {
    fn create(name: String, sink: ConsoleSink, layout: Arc<dyn Layout>) -> ConsoleManager {
        let manager = ConsoleManager {
            name,
            sink,
            layout,
            open: RwLock::new(true),
        };
        let result = crate::encode::with_encoded(
            manager.layout.as_ref(),
            |out| manager.layout.header(out),
            |bytes| manager.write_bytes(bytes),
        );
        if let Err(error) = result {
            status::error(format_args!(
                "OutputStreamManager {} Unable to write header: {error}",
                manager.name
            ));
        }
        manager
    }

    fn write_bytes(&self, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.sink.write(bytes)
    }

    /// Writes one event's bytes; `Ok(false)` when the manager is closed.
    fn write(&self, bytes: &[u8]) -> io::Result<bool> {
        let open = self.open.read().unwrap_or_else(|e| e.into_inner());
        if !*open {
            return Ok(false);
        }
        self.write_bytes(bytes).map(|()| true)
    }
}

impl Managed for ConsoleManager {
    fn flush(&self) {}

    fn close(&self) {
        let footer = crate::encode::encoded_footer(self.layout.as_ref());
        let mut open = self.open.write().unwrap_or_else(|e| e.into_inner());
        if !*open {
            return;
        }
        *open = false;
        if let Err(error) = self.write_bytes(&footer) {
            report_stream_error(&self.name, &error);
        }
    }
}

/// Writes events to standard output or standard error, with log4j2's `<Console>` options.
///
/// Every event is written and flushed before `append` returns (log4j2 ignores `immediateFlush`
/// and `bufferSize` on consoles too). Stopping writes the footer but never closes the stream.
pub struct ConsoleAppender {
    name: String,
    layout: Arc<dyn Layout>,
    manager: Arc<ConsoleManager>,
    key: ConsoleKey,
    registry: &'static Registry<ConsoleKey, ConsoleManager>,
    started: AtomicBool,
}

impl ConsoleAppender {
    /// Builds the appender named `name`, sharing the stream's manager with the other Console
    /// appenders of the same target, `follow` and `direct`.
    ///
    /// Fails, as log4j2 does, when both `follow` and `direct` are set.
    pub fn new(
        name: impl Into<String>,
        spec: &ConsoleSpec,
        layout: Arc<dyn Layout>,
    ) -> Result<ConsoleAppender, AppenderBuildError> {
        ConsoleAppender::build_in(
            &CONSOLE_MANAGERS,
            name.into(),
            spec,
            layout,
            ConsoleKey::sink,
        )
    }

    fn build_in(
        registry: &'static Registry<ConsoleKey, ConsoleManager>,
        name: String,
        spec: &ConsoleSpec,
        layout: Arc<dyn Layout>,
        sink: impl FnOnce(&ConsoleKey) -> ConsoleSink,
    ) -> Result<ConsoleAppender, AppenderBuildError> {
        if spec.follow && spec.direct {
            return Err(AppenderBuildError::FollowAndDirect { appender: name });
        }
        let key = ConsoleKey::new(spec);
        let manager = registry.acquire(&key, || {
            Ok::<_, AppenderBuildError>(ConsoleManager::create(
                key.manager_name(),
                sink(&key),
                Arc::clone(&layout),
            ))
        })?;
        Ok(ConsoleAppender {
            name,
            layout,
            manager,
            key,
            registry,
            started: AtomicBool::new(true),
        })
    }

    /// The stream written to.
    pub fn target(&self) -> ConsoleTarget {
        if self.key.stderr {
            ConsoleTarget::SystemErr
        } else {
            ConsoleTarget::SystemOut
        }
    }
}

impl Appender for ConsoleAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if !self.started.load(Ordering::Acquire) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        let written = crate::encode::with_encoded(
            self.layout.as_ref(),
            |out| self.layout.format(event, out),
            |bytes| self.manager.write(bytes),
        );
        match written {
            Ok(true) => Ok(()),
            Ok(false) => Err(AppendError::NotStarted(self.name.clone())),
            Err(source) => Err(AppendError::Io {
                destination: self.manager.name.clone(),
                source,
            }),
        }
    }

    fn stop(&self) {
        if self.started.swap(false, Ordering::AcqRel) {
            self.registry.release(&self.key, &self.manager);
        }
    }

    fn requires_location(&self) -> bool {
        self.layout.requires_location()
    }
}

impl Drop for ConsoleAppender {
    /// An appender dropped without [`Appender::stop`] still gives up its share of the stream.
    fn drop(&mut self) {
        self.stop();
    }
}

impl std::fmt::Debug for ConsoleAppender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConsoleAppender")
            .field("name", &self.name)
            .field("manager", &self.manager.name)
            .field("started", &self.started.load(Ordering::Relaxed))
            .finish()
    }
}

/// Closes every console manager (footers are written); used at process exit.
pub(crate) fn close_all() {
    CONSOLE_MANAGERS.close_all();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{event, LineLayout};
    use std::sync::Mutex;

    fn spec(target: ConsoleTarget, follow: bool, direct: bool) -> ConsoleSpec {
        ConsoleSpec {
            target,
            follow,
            direct,
        }
    }

    fn leaked_registry() -> &'static Registry<ConsoleKey, ConsoleManager> {
        Box::leak(Box::new(Registry::new()))
    }

    fn memory_console(
        registry: &'static Registry<ConsoleKey, ConsoleManager>,
        name: &str,
        spec: &ConsoleSpec,
        layout: LineLayout,
        memory: &Arc<Mutex<Vec<u8>>>,
    ) -> ConsoleAppender {
        let memory = Arc::clone(memory);
        ConsoleAppender::build_in(
            registry,
            name.to_string(),
            spec,
            Arc::new(layout),
            move |_| ConsoleSink::Memory(memory),
        )
        .unwrap()
    }

    fn text(memory: &Arc<Mutex<Vec<u8>>>) -> String {
        String::from_utf8(memory.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn follow_and_direct_together_are_refused() {
        let error = ConsoleAppender::new(
            "C",
            &spec(ConsoleTarget::SystemOut, true, true),
            Arc::new(LineLayout::default()),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "Cannot use both follow and direct on ConsoleAppender 'C'"
        );
    }

    #[test]
    fn header_at_creation_events_flushed_footer_on_stop() {
        let registry = leaked_registry();
        let memory = Arc::new(Mutex::new(Vec::new()));
        let console = memory_console(
            registry,
            "C",
            &spec(ConsoleTarget::SystemOut, false, false),
            LineLayout::with_header_footer("=== header ===\n", "=== footer ===\n"),
            &memory,
        );
        assert_eq!(text(&memory), "=== header ===\n");
        console.append(&event("body line 1")).unwrap();
        console.append(&event("body line 2")).unwrap();
        assert_eq!(text(&memory), "=== header ===\nbody line 1\nbody line 2\n");
        console.stop();
        console.stop();
        assert_eq!(
            text(&memory),
            "=== header ===\nbody line 1\nbody line 2\n=== footer ===\n"
        );
        assert!(matches!(
            console.append(&event("late")),
            Err(AppendError::NotStarted(name)) if name == "C"
        ));
    }

    /// The 2.19 quirk: appenders on one stream share a manager, so only the first one's
    /// header and footer appear, once.
    #[test]
    fn appenders_on_one_stream_share_the_first_header_and_footer() {
        let registry = leaked_registry();
        let memory = Arc::new(Mutex::new(Vec::new()));
        let out = spec(ConsoleTarget::SystemOut, false, false);
        let first = memory_console(
            registry,
            "A",
            &out,
            LineLayout::with_header_footer("A-head\n", "A-foot\n"),
            &memory,
        );
        let second = memory_console(
            registry,
            "B",
            &out,
            LineLayout::with_header_footer("B-head\n", "B-foot\n").prefixed("b: "),
            &memory,
        );
        first.append(&event("one")).unwrap();
        second.append(&event("two")).unwrap();
        first.stop();
        second.append(&event("three")).unwrap();
        second.stop();
        assert_eq!(text(&memory), "A-head\none\nb: two\nb: three\nA-foot\n");
    }

    #[test]
    fn targets_and_flags_get_separate_managers() {
        let registry = leaked_registry();
        let memory = Arc::new(Mutex::new(Vec::new()));
        let consoles = [
            ("O", ConsoleTarget::SystemOut, false),
            ("E", ConsoleTarget::SystemErr, false),
            ("F", ConsoleTarget::SystemOut, true),
        ]
        .map(|(name, target, follow)| {
            let layout = LineLayout::with_header_footer("head\n", "");
            let console = memory_console(
                registry,
                name,
                &spec(target, follow, false),
                layout,
                &memory,
            );
            (console, target)
        });
        assert_eq!(text(&memory), "head\nhead\nhead\n");
        for (console, target) in &consoles {
            assert_eq!(console.target(), *target, "{console:?}");
        }
        assert_eq!(
            ConsoleKey::new(&spec(ConsoleTarget::SystemErr, false, true)).manager_name(),
            "SYSTEM_ERR.false.true"
        );
    }

    #[test]
    fn descriptor_sink_writes_everything_and_reports_errors() {
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let sink = ConsoleSink::Descriptor(fds[1]);
        sink.write(b"through a pipe\n").unwrap();
        let mut read_back = [0u8; 64];
        // SAFETY: reading into a live buffer of the given size.
        let n = unsafe { libc::read(fds[0], read_back.as_mut_ptr().cast(), read_back.len()) };
        assert_eq!(&read_back[..n as usize], b"through a pipe\n");
        // SAFETY: closing the read end this test opened.
        unsafe { libc::close(fds[0]) };
        // Nobody reads any more: the write fails (EPIPE; Rust ignores SIGPIPE) instead of
        // succeeding silently.
        assert!(sink.write(b"x").is_err());
        // SAFETY: closing the write end this test opened.
        unsafe { libc::close(fds[1]) };
    }

    #[test]
    fn requires_location_forwards_the_layout() {
        let registry = leaked_registry();
        let memory = Arc::new(Mutex::new(Vec::new()));
        let plain = memory_console(
            registry,
            "P",
            &spec(ConsoleTarget::SystemOut, false, false),
            LineLayout::default(),
            &memory,
        );
        assert!(!plain.requires_location());
        let located = memory_console(
            registry,
            "L",
            &spec(ConsoleTarget::SystemOut, false, false),
            LineLayout::default().with_location(),
            &memory,
        );
        assert!(located.requires_location());
    }
}
