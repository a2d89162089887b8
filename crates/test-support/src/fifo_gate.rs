//! A named pipe as an appender that the test can stall: a File appender writing into it blocks
//! once the pipe's buffer (64 KiB on Linux) is full and nobody reads, which holds the thread
//! writing (an AsyncLogger or Async appender thread) exactly where the test wants it, with no
//! timing involved. Used by the async tests that need a stuck appender.

use std::fs::File;
use std::io::Read as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// How far the reader may read: `None` without limit, else up to that many bytes in all.
#[derive(Default)]
struct Allowance {
    limit: Option<usize>,
    read: usize,
}

/// The reading end of a named pipe, read by a thread of its own as far as the test allows.
pub struct FifoGate {
    path: PathBuf,
    allowance: Arc<(Mutex<Allowance>, Condvar)>,
    reader: Option<JoinHandle<Vec<u8>>>,
    /// A writing end held from the moment the reader has the pipe open until [`FifoGate::finish`]:
    /// opening it proves the reader is there before the appender opens the pipe (l4rs refuses a
    /// FIFO nobody reads instead of waiting), and holding it keeps the reader from seeing the end
    /// of the data before the appender has written.
    witness: Option<File>,
}

impl FifoGate {
    /// Makes the pipe at `path` and starts its reader, closed (reading nothing), and returns
    /// once the reader has the pipe open, so the File appender's open (at configuration time)
    /// finds a reader.
    pub fn create(path: &Path) -> FifoGate {
        let _ = std::fs::remove_file(path);
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("run mkfifo");
        assert!(status.success(), "mkfifo {}", path.display());
        let allowance = Arc::new((
            Mutex::new(Allowance {
                limit: Some(0),
                read: 0,
            }),
            Condvar::new(),
        ));
        let shared = Arc::clone(&allowance);
        let fifo = path.to_path_buf();
        let reader = std::thread::spawn(move || {
            // Blocks until the appender opens the writing end.
            let mut pipe = std::fs::File::open(&fifo).expect("open the pipe for reading");
            let mut data = Vec::new();
            let mut chunk = vec![0u8; 16 * 1024];
            loop {
                let room = {
                    let (lock, signal) = &*shared;
                    let mut allowance = lock.lock().unwrap();
                    loop {
                        match allowance.limit {
                            None => break chunk.len(),
                            Some(limit) if limit > allowance.read => {
                                break chunk.len().min(limit - allowance.read)
                            }
                            Some(_) => allowance = signal.wait(allowance).unwrap(),
                        }
                    }
                };
                let count = pipe.read(&mut chunk[..room]).expect("read the pipe");
                if count == 0 {
                    return data;
                }
                data.extend_from_slice(&chunk[..count]);
                let (lock, signal) = &*shared;
                lock.lock().unwrap().read += count;
                signal.notify_all();
            }
        });
        FifoGate {
            path: path.to_path_buf(),
            allowance,
            reader: Some(reader),
            witness: Some(open_once_read(path)),
        }
    }

    /// The pipe's path, for the appender's `fileName`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Lets the reader read `bytes` more, then stop again; returns once it has read them.
    pub fn pass(&self, bytes: usize) {
        let (lock, signal) = &*self.allowance;
        let mut allowance = lock.lock().unwrap();
        let target = allowance.read + bytes;
        allowance.limit = Some(target);
        signal.notify_all();
        while allowance.read < target {
            allowance = signal.wait(allowance).unwrap();
        }
    }

    /// Lets the reader read everything from now on.
    pub fn open(&self) {
        release(&self.allowance);
    }

    /// A handle that opens the gate from elsewhere (a status listener, for example).
    pub fn opener(&self) -> impl Fn() + Send + Sync + 'static {
        let allowance = Arc::clone(&self.allowance);
        move || release(&allowance)
    }

    /// Opens the gate and returns everything read once the writer has closed the pipe (the
    /// appender was stopped).
    pub fn finish(mut self) -> String {
        self.open();
        self.witness = None;
        let data = self
            .reader
            .take()
            .expect("finished once")
            .join()
            .expect("the reader thread");
        String::from_utf8(data).expect("UTF-8 lines")
    }
}

impl Drop for FifoGate {
    /// Opens the gate, so that a failing test cannot leave an appender stuck on the pipe (the
    /// exit hook's shutdown would wait for it for ever).
    fn drop(&mut self) {
        release(&self.allowance);
    }
}

/// Opens the pipe's writing end without waiting, once some reader has it open (a non-blocking
/// open fails with ENXIO until then); gives up after 10 s.
fn open_once_read(path: &Path) -> File {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
        {
            Ok(file) => return file,
            Err(error) if error.raw_os_error() == Some(libc::ENXIO) => {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the reader of {} never opened it",
                    path.display()
                );
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            Err(error) => panic!("open {} for writing: {error}", path.display()),
        }
    }
}

/// Lifts the reader's limit and wakes it: it reads everything from now on. Tolerates a
/// poisoned lock, as [`FifoGate`]'s `Drop` may run while a failing test unwinds.
fn release(allowance: &(Mutex<Allowance>, Condvar)) {
    let (lock, signal) = allowance;
    lock.lock().unwrap_or_else(|e| e.into_inner()).limit = None;
    signal.notify_all();
}
