//! A named pipe as an appender that the test can stall: a File appender writing into it blocks
//! once the pipe's buffer (64 KiB on Linux) is full and nobody reads, which holds the thread
//! writing (an AsyncLogger or Async appender thread) exactly where the test wants it, with no
//! timing involved. Used by the async tests that need a stuck appender.

use std::io::Read as _;
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
}

impl FifoGate {
    /// Makes the pipe at `path` and starts its reader, closed (reading nothing). The reader
    /// opens the pipe at once, so the File appender's open (at configuration time) does not
    /// block for want of a reader.
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

/// Lifts the reader's limit and wakes it: it reads everything from now on. Tolerates a
/// poisoned lock, as [`FifoGate`]'s `Drop` may run while a failing test unwinds.
fn release(allowance: &(Mutex<Allowance>, Condvar)) {
    let (lock, signal) = allowance;
    lock.lock().unwrap_or_else(|e| e.into_inner()).limit = None;
    signal.notify_all();
}
