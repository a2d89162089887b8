//! The thread that serves librdkafka's main queue: delivery reports, log lines and errors.
//!
//! rdkafka's own polling (`ThreadedProducer`) allocates a `Vec` and an `Arc` for every batch of
//! delivery reports, which is two allocations per record when sends are synchronous; this loop
//! walks the reports with `rd_kafka_event_message_next` and allocates nothing.

use std::ffi::CStr;
use std::os::raw::{c_char, c_int};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

use rdkafka::types::RDKafkaErrorCode;
use rdkafka_sys as rdsys;

use crate::delivery::Context;

/// How long one poll waits, which bounds how long stopping the thread takes.
const POLL_MS: c_int = 100;

/// The running poll thread; [`Poller::stop`] ends it.
pub(crate) struct Poller {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// The client's main queue, handed to the poll thread.
struct Queue(*mut rdsys::rd_kafka_queue_t);

// SAFETY: librdkafka's queues may be polled from any thread.
unsafe impl Send for Queue {}

impl Poller {
    /// Starts serving the main queue of `client`, reporting to `context`.
    ///
    /// # Safety
    /// `client` must stay alive until [`Poller::stop`] returned.
    pub(crate) unsafe fn start(
        client: *mut rdsys::rd_kafka_t,
        context: Arc<Context>,
    ) -> std::io::Result<Poller> {
        let stop = Arc::new(AtomicBool::new(false));
        // SAFETY: the caller keeps `client` alive; the reference is released by the thread.
        let queue = Queue(unsafe { rdsys::rd_kafka_queue_get_main(client) });
        let running = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name(format!("l4rs-kafka-{}", context.appender))
            .spawn(move || serve(queue, &context, &running))?;
        Ok(Poller {
            stop,
            thread: Some(thread),
        })
    }

    /// Ends the thread (within one poll) and waits for it.
    pub(crate) fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Poller {
    fn drop(&mut self) {
        self.stop();
    }
}

fn serve(queue: Queue, context: &Context, stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        // SAFETY: the queue reference is ours until destroyed below.
        let event = unsafe { rdsys::rd_kafka_queue_poll(queue.0, POLL_MS) };
        if event.is_null() {
            continue;
        }
        // SAFETY: `event` is a live event until destroyed at the end of this block.
        unsafe {
            match rdsys::rd_kafka_event_type(event) {
                rdsys::RD_KAFKA_EVENT_DR => loop {
                    let message = rdsys::rd_kafka_event_message_next(event);
                    if message.is_null() {
                        break;
                    }
                    let opaque = (*message)._private as usize;
                    let result = match (*message).err {
                        rdsys::rd_kafka_resp_err_t::RD_KAFKA_RESP_ERR_NO_ERROR => Ok(()),
                        code => Err(context.failure(RDKafkaErrorCode::from(code))),
                    };
                    context.report(opaque, result);
                },
                rdsys::RD_KAFKA_EVENT_LOG => {
                    let mut facility: *const c_char = std::ptr::null();
                    let mut text: *const c_char = std::ptr::null();
                    let mut level: c_int = 0;
                    if rdsys::rd_kafka_event_log(event, &mut facility, &mut text, &mut level) == 0 {
                        context.client_line(level, &lossy(facility), &lossy(text));
                    }
                }
                rdsys::RD_KAFKA_EVENT_ERROR => {
                    let code = RDKafkaErrorCode::from(rdsys::rd_kafka_event_error(event));
                    let reason = lossy(rdsys::rd_kafka_event_error_string(event));
                    context.client_error(&code.to_string(), &reason);
                }
                _ => {}
            }
            rdsys::rd_kafka_event_destroy(event);
        }
    }
    // SAFETY: the reference taken in `start`, released once.
    unsafe { rdsys::rd_kafka_queue_destroy(queue.0) };
}

/// A C string from librdkafka as text (empty for null).
///
/// # Safety
/// `text` is null or a NUL-terminated string that lives for the call.
unsafe fn lossy(text: *const c_char) -> String {
    if text.is_null() {
        String::new()
    } else {
        // SAFETY: as the caller promises.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }
}
