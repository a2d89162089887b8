//! The File appender's manager: one open file per `fileName` in the process (log4j2's
//! `FileManager`).
//!
//! # Write paths
//!
//! * **Immediate** (the default, and always when `bufferedIo="false"` or `locking="true"`): the
//!   event's bytes go to the OS in one `write(2)` on a descriptor opened with `O_APPEND`. The
//!   kernel appends each such write whole, so concurrent writers need no lock of ours: they
//!   share a read lock on the handle, which only opening on demand and closing take exclusively.
//! * **Buffered** (`bufferedIo="true" immediateFlush="false"`): a short mutex-protected copy
//!   into the manager's buffer; once per `bufferSize` bytes the holder also writes the buffer
//!   out, which keeps the file in the order events were buffered. A record at least as large
//!   as the buffer flushes it and is written straight through, as log4j2 does.
//! * **Locking**: the immediate path inside an OS write lock (`fcntl`, as Java's `FileChannel.lock`
//!   takes on Linux) over the whole file, so other processes that lock the file too never
//!   interleave with us. The lock is per process, so writers in this process also take a
//!   mutex around it.

use std::fs::{File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

use l4rs_core::fs::open_without_waiting;
use l4rs_core::{status, Layout};

use crate::lock;
use crate::posix::{define_attributes, OsFileLock};
use crate::registry::{Managed, Registry};
use crate::target::{classify, make_missing_parent, open_error, OpenWhen, Target};
use crate::AppenderBuildError;

/// Every file manager of the process, by `fileName` as configured (log4j2 keys them the same
/// way, so `a.log` and `./a.log` are two managers).
pub(crate) static FILE_MANAGERS: Registry<String, FileManager> = Registry::new();

/// Buffers are allocated up to this size at once and grow to `bufferSize` only if used, so a
/// huge `bufferSize` costs nothing until the bytes are there.
const INITIAL_BUFFER_LIMIT: usize = 1 << 20;

/// The options a manager is created with, after log4j2's adjustments.
#[derive(Clone, Debug)]
pub(crate) struct FileOptions {
    /// The manager's name in error messages (`FileManager`, or `RandomAccessFileManager` when
    /// the manager serves a RandomAccessFile appender).
    pub manager: &'static str,
    /// Write the layout's header into a new or truncated file. log4j2 2.19's RandomAccessFile
    /// manager hands its header to a stream that discards it, so it passes false.
    pub header: bool,
    /// Append to an existing file (false: truncate it when it is opened).
    pub append: bool,
    /// Keep a buffer (false when `bufferedIo` is off or `locking` turned it off).
    pub buffered: bool,
    /// The buffer's size in bytes.
    pub buffer_size: usize,
    /// Take an OS write lock around each write.
    pub locking: bool,
    /// Open the file at the first write instead of now.
    pub create_on_demand: bool,
    /// Permission bits to set on the file (`filePermissions`).
    pub permissions: Option<u32>,
    /// User to own the file (`fileOwner`).
    pub owner: Option<String>,
    /// Group to own the file (`fileGroup`).
    pub group: Option<String>,
}

/// Why a write did not reach the file.
#[derive(Debug)]
pub(crate) enum WriteError {
    /// The manager was closed.
    Closed,
    /// The OS refused.
    Io(io::Error),
}

impl From<io::Error> for WriteError {
    fn from(error: io::Error) -> WriteError {
        WriteError::Io(error)
    }
}

/// Reports, in log4j2's words, a failed write to `stream` that no caller gets back as an
/// error: a flush or a close done on the registry's behalf, a footer.
pub(crate) fn report_stream_error(stream: &str, error: &io::Error) {
    status::error(format_args!("Error writing to stream {stream}: {error}"));
}

/// [`report_stream_error`] for what a manager's write returned; a write refused because the
/// manager was closed lost nothing, so it is not reported.
pub(crate) fn report_write_result(stream: &str, result: Result<(), WriteError>) {
    if let Err(WriteError::Io(error)) = result {
        report_stream_error(stream, &error);
    }
}

enum Handle {
    /// `createOnDemand`: no write has reached the file yet.
    Unopened,
    Open(File),
    Closed,
}

/// One file, shared by every File appender configured with its name.
pub(crate) struct FileManager {
    file_name: String,
    path: PathBuf,
    options: FileOptions,
    /// The layout of the appender that created the manager: it alone provides the header and
    /// footer, as in log4j2.
    layout: Arc<dyn Layout>,
    handle: RwLock<Handle>,
    buffer: Option<Mutex<Vec<u8>>>,
    /// True while the buffer holds bytes, so immediate writes can skip its lock when it is empty.
    pending: AtomicBool,
    /// Set, under the buffer lock, once the manager is closed.
    closed: AtomicBool,
    /// True while some asynchronous stage's thread owes this manager a flush at the end of its
    /// batch ([`FileManager::defer_flush`]): later deferring writers rely on that flush.
    deferred: AtomicBool,
    /// True after a deferred flush failed, until one succeeds.
    deferred_failing: AtomicBool,
    /// Serializes locked writes within the process (the OS lock is per process).
    lock_writes: Mutex<()>,
    /// The file's length when the manager was created (0 when it was truncated) plus every
    /// byte written since, the header aside: log4j2's size accounting for rolling files, which
    /// counts what reached the OS and not what waits in the buffer.
    size: AtomicU64,
}

impl FileManager {
    /// Creates the manager: missing parent directories are made, and unless `createOnDemand` is
    /// set the file is opened (truncated when `append` is false), given its attributes and, when
    /// it is new or was truncated, the header.
    pub(crate) fn create(
        file_name: &str,
        options: FileOptions,
        layout: Arc<dyn Layout>,
    ) -> Result<FileManager, AppenderBuildError> {
        let path = PathBuf::from(file_name);
        let opening = if options.create_on_demand {
            OpenWhen::Deferred
        } else {
            OpenWhen::Now
        };
        let target = prepare(options.manager, file_name, opening)?;
        let initial_size = if options.append {
            std::fs::metadata(&path).map_or(0, |metadata| metadata.len())
        } else {
            0
        };
        let handle = if options.create_on_demand {
            Handle::Unopened
        } else {
            // Decided before opening, which creates the file (log4j2 does the same).
            let write_header = options.header && (!options.append || !path.exists());
            let file = open_file(&path, options.append)
                .map_err(|source| open_error(options.manager, file_name, &target, source))?;
            define_attributes(&file, &path, &options);
            if write_header {
                write_header_to(&file, file_name, layout.as_ref());
            }
            Handle::Open(file)
        };
        let buffer = options.buffered.then(|| {
            Mutex::new(Vec::with_capacity(
                options.buffer_size.min(INITIAL_BUFFER_LIMIT),
            ))
        });
        Ok(FileManager {
            file_name: file_name.to_string(),
            path,
            options,
            layout,
            handle: RwLock::new(handle),
            buffer,
            pending: AtomicBool::new(false),
            closed: AtomicBool::new(false),
            deferred: AtomicBool::new(false),
            deferred_failing: AtomicBool::new(false),
            lock_writes: Mutex::new(()),
            size: AtomicU64::new(initial_size),
        })
    }

    /// The bytes in the file by log4j2's rolling accounting: its length when the manager was
    /// created plus what was written since, without the header and the bytes still buffered.
    pub(crate) fn size(&self) -> u64 {
        self.size.load(Ordering::Relaxed)
    }

    /// The `fileName` the manager was created for.
    pub(crate) fn file_name(&self) -> &str {
        &self.file_name
    }

    /// True when the manager keeps a buffer.
    pub(crate) fn is_buffered(&self) -> bool {
        self.buffer.is_some()
    }

    /// Writes one record; with `flush` its bytes (and anything buffered before them) reach the OS
    /// before this returns.
    pub(crate) fn write(&self, bytes: &[u8], flush: bool) -> Result<(), WriteError> {
        let Some(buffer) = &self.buffer else {
            return self.write_through(bytes);
        };
        if flush && !self.pending.load(Ordering::Acquire) {
            // Nothing of this thread's waits in the buffer (its own buffered bytes would have
            // set `pending`), so writing straight through keeps its order and skips the lock.
            return self.write_through(bytes);
        }
        let mut buffered = lock(buffer);
        if self.closed.load(Ordering::Acquire) {
            return Err(WriteError::Closed);
        }
        self.buffer_record(&mut buffered, bytes)?;
        if flush {
            self.drain(&mut buffered)?;
        }
        Ok(())
    }

    /// Leaves what was just buffered for the calling thread's asynchronous stage to flush at
    /// the end of its batch ([`l4rs_core::batch`]). Returns false when the caller must flush
    /// now: no buffer, or not a deferring thread. Called after the record was buffered, so a
    /// stage whose flush is already owed (the flag was set) clears the flag before draining
    /// and therefore drains this record too.
    pub(crate) fn defer_flush(this: &Arc<FileManager>) -> bool {
        if this.buffer.is_none() || !l4rs_core::batch::is_deferring() {
            return false;
        }
        if this.deferred.swap(true, Ordering::SeqCst) {
            return true;
        }
        if l4rs_core::batch::defer(Arc::clone(this) as Arc<dyn l4rs_core::batch::DeferredFlush>) {
            return true;
        }
        this.deferred.store(false, Ordering::SeqCst);
        false
    }

    /// Writes the buffer out.
    pub(crate) fn flush(&self) -> Result<(), WriteError> {
        let Some(buffer) = &self.buffer else {
            return Ok(());
        };
        let mut buffered = lock(buffer);
        if self.closed.load(Ordering::Acquire) {
            return Err(WriteError::Closed);
        }
        self.drain(&mut buffered)
    }

    fn buffer_record(&self, buffered: &mut Vec<u8>, bytes: &[u8]) -> Result<(), WriteError> {
        let capacity = self.options.buffer_size;
        if bytes.len() >= capacity {
            self.drain(buffered)?;
            return self.write_through(bytes);
        }
        if bytes.len() > capacity - buffered.len() {
            self.drain(buffered)?;
        }
        buffered.extend_from_slice(bytes);
        if !buffered.is_empty() {
            self.pending.store(true, Ordering::Release);
        }
        Ok(())
    }

    /// Writes the buffer's bytes and empties it; on failure they are dropped, as log4j2 drops
    /// them, so one bad write does not repeat forever.
    fn drain(&self, buffered: &mut Vec<u8>) -> Result<(), WriteError> {
        if buffered.is_empty() {
            return Ok(());
        }
        let result = self.write_through(buffered);
        buffered.clear();
        self.pending.store(false, Ordering::Release);
        result
    }

    /// One write of `bytes` to the file, opening it first under `createOnDemand`.
    fn write_through(&self, bytes: &[u8]) -> Result<(), WriteError> {
        if bytes.is_empty() {
            return Ok(());
        }
        loop {
            {
                let handle = self.read_handle();
                match &*handle {
                    Handle::Open(file) => return Ok(self.write_file(file, bytes)?),
                    Handle::Closed => return Err(WriteError::Closed),
                    Handle::Unopened => {}
                }
            }
            let mut handle = self.write_handle();
            self.ensure_open(&mut handle)?;
        }
    }

    fn read_handle(&self) -> RwLockReadGuard<'_, Handle> {
        self.handle.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write_handle(&self) -> RwLockWriteGuard<'_, Handle> {
        self.handle.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens an on-demand file if it is not open yet. Like log4j2's `createOutputStream`, the
    /// header goes into a file found empty, and the attributes are applied.
    fn ensure_open<'h>(&self, handle: &'h mut Handle) -> Result<&'h File, WriteError> {
        if let Handle::Unopened = handle {
            let file = open_file(&self.path, self.options.append)?;
            if self.options.header && file.metadata().map(|m| m.len() == 0).unwrap_or(false) {
                write_header_to(&file, &self.file_name, self.layout.as_ref());
            }
            define_attributes(&file, &self.path, &self.options);
            *handle = Handle::Open(file);
        }
        match handle {
            Handle::Open(file) => Ok(file),
            Handle::Unopened | Handle::Closed => Err(WriteError::Closed),
        }
    }

    fn write_file(&self, file: &File, bytes: &[u8]) -> io::Result<()> {
        self.size.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let mut writer = file;
        if !self.options.locking {
            return writer.write_all(bytes);
        }
        let _in_process = lock(&self.lock_writes);
        let _os_lock = OsFileLock::acquire(file).map_err(|error| {
            io::Error::new(
                error.kind(),
                format!("Unable to obtain lock on {}: {error}", self.file_name),
            )
        })?;
        writer.write_all(bytes)
    }
}

impl Managed for FileManager {
    fn flush(&self) {
        report_write_result(&self.file_name, FileManager::flush(self));
    }

    /// Writes what is buffered and the footer, then closes the file. Writers racing with this
    /// either finish before the footer or fail with "closed": the exclusive handle lock waits
    /// for in-flight writes, and the buffer lock for in-flight copies.
    fn close(&self) {
        self.close_with(true);
    }
}

impl FileManager {
    /// Closes the file, writing the buffered bytes and then what
    /// [`closing_footer`](crate::encode::closing_footer) makes of `footer`.
    pub(crate) fn close_with(&self, footer: bool) {
        let footer = crate::encode::closing_footer(self.layout.as_ref(), footer);
        let mut buffered = self.buffer.as_ref().map(lock);
        let mut handle = self.write_handle();
        if let Handle::Closed = *handle {
            return;
        }
        self.closed.store(true, Ordering::Release);
        let pending: &[u8] = buffered.as_deref().map_or(&[], Vec::as_slice);
        let result = if pending.is_empty() && footer.is_empty() {
            Ok(())
        } else {
            // log4j2 writes the footer through the buffer, so an on-demand file that was never
            // written is created now (with its header) to receive it.
            match self.ensure_open(&mut handle) {
                Ok(file) => self
                    .write_file(file, pending)
                    .and_then(|()| self.write_file(file, &footer))
                    .map_err(WriteError::Io),
                Err(error) => Err(error),
            }
        };
        if let Some(buffered) = buffered.as_deref_mut() {
            buffered.clear();
        }
        self.pending.store(false, Ordering::Release);
        // Dropping the file closes its descriptor, which no writer can be using now.
        *handle = Handle::Closed;
        report_write_result(&self.file_name, result);
    }
}

/// Opens for appending; `O_APPEND` makes every write land at the end, whoever else writes.
/// Without `append` the file is truncated first (Java's `FileOutputStream(file, false)`).
/// Opening never waits: see [`open_without_waiting`].
pub(crate) fn open_file(path: &Path, append: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    // std refuses `truncate` together with `append`, though the OS allows it.
    let truncate = if append { 0 } else { libc::O_TRUNC };
    open_without_waiting(&mut options, path, truncate)
}

/// Judges `file_name` as opening it for `opening` will find it ([`classify`], the judgement
/// `l4rs check` makes too), then makes its missing parent directories as log4j2's
/// `FileUtils.makeParentDirs` does. Failures are worded as log4j2 words them, prefixed with the
/// `manager`'s name.
pub(crate) fn prepare(
    manager: &'static str,
    file_name: &str,
    opening: OpenWhen,
) -> Result<Target, AppenderBuildError> {
    let target = classify(manager, file_name, opening)?;
    make_missing_parent(manager, file_name, &target)?;
    Ok(target)
}

impl l4rs_core::batch::DeferredFlush for FileManager {
    /// The end of a batch: the buffered records reach the OS. A failure has no caller to go
    /// to, so it is reported here with the wording of a failed append.
    fn flush_deferred(&self) {
        // Cleared before draining: a writer that finds the flag still set relies on this drain
        // (see `defer_flush`).
        self.deferred.store(false, Ordering::SeqCst);
        match self.flush() {
            Ok(()) | Err(WriteError::Closed) => {
                self.deferred_failing.store(false, Ordering::Relaxed)
            }
            // Reported when the flushes start failing, not once per batch while they go on.
            Err(WriteError::Io(source)) => {
                if !self.deferred_failing.swap(true, Ordering::Relaxed) {
                    status::error(format_args!(
                        "Error writing to stream {}: {source} (further failures of this file's batched flushes are not reported until one succeeds)",
                        self.file_name
                    ));
                }
            }
        }
    }
}

/// Writes the layout's header straight to the file, bypassing any buffer, as log4j2 does. A
/// failure is reported and the file used anyway.
fn write_header_to(file: &File, file_name: &str, layout: &dyn Layout) {
    let result = crate::encode::with_encoded(
        layout,
        |out| layout.header(out),
        |bytes| {
            let mut writer = file;
            writer.write_all(bytes)
        },
    );
    if let Err(error) = result {
        status::error(format_args!(
            "FileManager {file_name} Unable to write header: {error}"
        ));
    }
}
