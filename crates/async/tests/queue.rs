//! Behaviour of the asynchronous queue under load, when full, when failing and when stopping.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use l4rs_async::{
    AsyncQueue, Enqueued, EventHandler, QueueFullPolicy, QueueOptions, StopOutcome, WaitStrategy,
};
use l4rs_core::{Level, LogEvent, Message, StackFrame, ThreadInfo, Throwable, ThrowableRef};
use l4rs_test_support::allocations::{self, CountingAllocator};
use l4rs_test_support::FormattingThreadLayout;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

/// A gate the handler waits at until the test opens it.
#[derive(Default)]
struct Gate {
    open: Mutex<bool>,
    signal: Condvar,
}

impl Gate {
    fn wait(&self) {
        let mut open = self.open.lock().unwrap();
        while !*open {
            open = self.signal.wait(open).unwrap();
        }
    }

    fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.signal.notify_all();
    }
}

/// Records (message, end_of_batch) of every event it sees, after passing the gate.
#[derive(Default)]
struct Recorder {
    gate: Option<Arc<Gate>>,
    seen: Mutex<Vec<(String, bool)>>,
    started: AtomicUsize,
}

impl EventHandler for Recorder {
    fn handle(&self, event: &LogEvent<'_>, _tag: u64) {
        self.started.fetch_add(1, Ordering::SeqCst);
        if let Some(gate) = &self.gate {
            gate.wait();
        }
        self.seen
            .lock()
            .unwrap()
            .push((event.message.to_string(), event.end_of_batch));
    }
}

/// A recorder that holds every event at a gate until the test opens it.
fn gated_recorder() -> (Arc<Gate>, Arc<Recorder>) {
    let gate = Arc::new(Gate::default());
    let recorder = Arc::new(Recorder {
        gate: Some(gate.clone()),
        ..Recorder::default()
    });
    (gate, recorder)
}

impl Recorder {
    fn messages(&self) -> Vec<String> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|(m, _)| m.clone())
            .collect()
    }
}

fn options(capacity: usize, blocking: bool, policy: QueueFullPolicy) -> QueueOptions {
    QueueOptions {
        name: "test".to_string(),
        thread_name: "test-dispatcher".to_string(),
        capacity,
        blocking,
        policy,
        wait_strategy: WaitStrategy::default(),
    }
}

fn send(queue: &AsyncQueue, level: Level, text: &str) -> Enqueued {
    queue.enqueue(&LogEvent::new("t", level, Message::Text(text)), 0, false)
}

/// Fills a gated queue with `capacity` events: the first is being handled (stuck at the gate,
/// still holding its slot) and the rest wait.
fn fill(queue: &AsyncQueue, recorder: &Recorder, capacity: usize) {
    assert_eq!(send(queue, Level::INFO, "first"), Enqueued::Queued);
    let deadline = Instant::now() + Duration::from_secs(10);
    while recorder.started.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "handler never started");
        std::thread::yield_now();
    }
    for index in 1..capacity {
        assert_eq!(
            send(queue, Level::INFO, &format!("fill {index}")),
            Enqueued::Queued
        );
    }
}

/// A queue of `capacity` slots on a gated recorder, filled as [`fill`] does.
fn full_gated_queue(
    capacity: usize,
    blocking: bool,
    policy: QueueFullPolicy,
) -> (Arc<Gate>, Arc<Recorder>, Arc<AsyncQueue>) {
    let (gate, recorder) = gated_recorder();
    let queue =
        Arc::new(AsyncQueue::start(options(capacity, blocking, policy), recorder.clone()).unwrap());
    fill(&queue, &recorder, capacity);
    (gate, recorder, queue)
}

/// `QueueFullPolicy::Discard` with the threshold INFO.
fn discard_info() -> QueueFullPolicy {
    QueueFullPolicy::Discard {
        threshold: Level::INFO,
    }
}

/// Sends `text` at `level` from a new thread, which may have to wait for room.
fn send_from_thread(
    queue: &Arc<AsyncQueue>,
    level: Level,
    text: &'static str,
) -> std::thread::JoinHandle<Enqueued> {
    let queue = Arc::clone(queue);
    std::thread::spawn(move || send(&queue, level, text))
}

/// Records, for every event, the text it arrived with from `layout` (rendered ahead).
struct RenderedRecorder {
    layout: Arc<dyn l4rs_core::Layout>,
    seen: Mutex<Vec<Option<String>>>,
}

impl EventHandler for RenderedRecorder {
    fn handle(&self, event: &LogEvent<'_>, _tag: u64) {
        let text = event
            .rendered
            .and_then(|rendered| rendered.text_for(&self.layout));
        self.seen.lock().unwrap().push(text.map(str::to_string));
    }
}

#[test]
fn an_event_rendered_ahead_is_formatted_on_the_calling_thread_without_allocating() {
    const WARM_UP: usize = 200;
    const STEADY: usize = 1000;
    let layout: Arc<dyn l4rs_core::Layout> = Arc::new(FormattingThreadLayout);
    let recorder = Arc::new(RenderedRecorder {
        layout: Arc::clone(&layout),
        seen: Mutex::new(Vec::new()),
    });
    let queue = Arc::new(
        AsyncQueue::start(options(64, true, QueueFullPolicy::Block), recorder.clone()).unwrap(),
    );
    let caller = {
        let (queue, layout) = (Arc::clone(&queue), Arc::clone(&layout));
        std::thread::Builder::new()
            .name("caller".to_string())
            .spawn(move || {
                let event = LogEvent::new("t", Level::INFO, Message::Text("line"));
                let render = Some(&layout);
                for _ in 0..WARM_UP {
                    let queued = queue.enqueue_rendered(&event, 0, false, render);
                    assert_eq!(queued, Enqueued::Queued);
                }
                assert!(queue.drain(Some(Duration::from_secs(10))));
                let allocated = allocations::allocations_during(|| {
                    for _ in 0..STEADY {
                        let queued = queue.enqueue_rendered(&event, 0, false, render);
                        assert_eq!(queued, Enqueued::Queued);
                    }
                });
                assert_eq!(queue.enqueue(&event, 0, false), Enqueued::Queued);
                allocated
            })
            .unwrap()
    };
    assert_eq!(
        caller.join().unwrap(),
        0,
        "rendering ahead allocates nothing"
    );
    assert!(queue.drain(Some(Duration::from_secs(10))));
    queue.stop(Some(Duration::from_secs(10)));
    let seen = recorder.seen.lock().unwrap();
    assert_eq!(seen.len(), WARM_UP + STEADY + 1);
    assert!(
        seen[..WARM_UP + STEADY]
            .iter()
            .all(|text| text.as_deref() == Some("caller|line\n")),
        "formatted on the caller's thread: {:?}",
        &seen[..3]
    );
    assert_eq!(
        seen[WARM_UP + STEADY],
        None,
        "a plain enqueue renders nothing"
    );
    assert_eq!(queue.stats().rendered_ahead, (WARM_UP + STEADY) as u64);
}

#[test]
fn no_loss_and_per_thread_order_under_64_producers() {
    const THREADS: usize = 64;
    const PER_THREAD: usize = 2_000;
    let recorder = Arc::new(Recorder::default());
    let queue = Arc::new(
        AsyncQueue::start(options(256, true, QueueFullPolicy::Block), recorder.clone()).unwrap(),
    );
    let producers: Vec<_> = (0..THREADS)
        .map(|thread| {
            let queue = Arc::clone(&queue);
            std::thread::spawn(move || {
                for index in 0..PER_THREAD {
                    let text = format!("{thread} {index}");
                    let mut event = LogEvent::new("t", Level::INFO, Message::Text(&text));
                    event.thread = ThreadInfo {
                        name: "producer",
                        id: thread as u64,
                        priority: 5,
                    };
                    assert_eq!(queue.enqueue(&event, 0, false), Enqueued::Queued);
                }
            })
        })
        .collect();
    for producer in producers {
        producer.join().unwrap();
    }
    assert_eq!(
        queue.stop(None),
        StopOutcome {
            drained: true,
            abandoned: 0
        }
    );
    let messages = recorder.messages();
    assert_eq!(
        messages.len(),
        THREADS * PER_THREAD,
        "every event arrives once"
    );
    let mut next = vec![0usize; THREADS];
    for message in &messages {
        let (thread, index) = message.split_once(' ').unwrap();
        let (thread, index): (usize, usize) = (thread.parse().unwrap(), index.parse().unwrap());
        assert_eq!(index, next[thread], "thread {thread} out of order");
        next[thread] += 1;
    }
    let stats = queue.stats();
    assert_eq!(stats.enqueued, (THREADS * PER_THREAD) as u64);
    assert_eq!(stats.dropped(), 0);
    assert!(
        recorder.seen.lock().unwrap().last().unwrap().1,
        "the last event ends a batch"
    );
}

#[test]
fn the_message_is_captured_before_enqueue_returns() {
    let (gate, recorder) = gated_recorder();
    let queue =
        AsyncQueue::start(options(8, true, QueueFullPolicy::Block), recorder.clone()).unwrap();
    let mut value = String::from("original");
    let result = queue.enqueue(
        &LogEvent::new("t", Level::INFO, Message::Args(format_args!("v={value}"))),
        0,
        false,
    );
    assert_eq!(result, Enqueued::Queued);
    value.replace_range(.., "mutated");
    gate.open();
    queue.stop(None);
    assert_eq!(recorder.messages(), ["v=original"]);
    assert_eq!(value, "mutated");
}

#[test]
fn a_blocking_queue_waits_for_a_slow_appender_and_loses_nothing() {
    let (gate, recorder, queue) = full_gated_queue(4, true, QueueFullPolicy::Block);
    let blocked = send_from_thread(&queue, Level::INFO, "blocked");
    std::thread::sleep(Duration::from_millis(100));
    assert!(
        !blocked.is_finished(),
        "a full blocking queue makes the producer wait"
    );
    gate.open();
    assert_eq!(blocked.join().unwrap(), Enqueued::Queued);
    queue.stop(None);
    let messages = recorder.messages();
    assert_eq!(messages.len(), 5);
    assert_eq!(messages.last().unwrap(), "blocked");
}

#[test]
fn the_discarding_policy_drops_at_or_below_the_threshold_only() {
    let (gate, recorder, queue) = full_gated_queue(4, true, discard_info());
    let before = l4rs_async::dropped_events();
    assert_eq!(send(&queue, Level::INFO, "info"), Enqueued::Discarded);
    assert_eq!(send(&queue, Level::DEBUG, "debug"), Enqueued::Discarded);
    let warn = send_from_thread(&queue, Level::WARN, "warn waits");
    std::thread::sleep(Duration::from_millis(100));
    assert!(!warn.is_finished(), "events above the threshold wait");
    gate.open();
    assert_eq!(warn.join().unwrap(), Enqueued::Queued);
    queue.stop(None);
    assert_eq!(queue.stats().discarded, 2);
    assert!(l4rs_async::dropped_events() >= before + 2);
    let messages = recorder.messages();
    assert!(messages.contains(&"warn waits".to_string()));
    assert!(!messages.contains(&"info".to_string()));
}

#[test]
fn a_non_blocking_queue_hands_back_what_does_not_fit() {
    let (gate, recorder, queue) = full_gated_queue(2, false, QueueFullPolicy::Block);
    assert_eq!(send(&queue, Level::ERROR, "refused"), Enqueued::Full);
    assert_eq!(queue.stats().rejected, 1);
    gate.open();
    queue.stop(None);
    assert_eq!(recorder.messages().len(), 2);
}

#[test]
fn a_panicking_appender_loses_its_event_not_the_queue() {
    let recorder = Arc::new(Recorder::default());
    let inner = recorder.clone();
    let handler = move |event: &LogEvent<'_>, tag: u64| {
        if event.message.as_str() == Some("boom") {
            panic!("appender failure");
        }
        inner.handle(event, tag);
    };
    let queue =
        AsyncQueue::start(options(8, true, QueueFullPolicy::Block), Arc::new(handler)).unwrap();
    for text in ["before", "boom", "after"] {
        assert_eq!(send(&queue, Level::INFO, text), Enqueued::Queued);
    }
    queue.stop(None);
    assert_eq!(recorder.messages(), ["before", "after"]);
    assert_eq!(queue.stats().panicked, 1);
}

#[test]
fn panics_are_reported_four_times_then_rate_limited() {
    let capture = l4rs_core::status::GlobalCapture::start();
    let handler = |_: &LogEvent<'_>, _: u64| panic!("appender failure");
    let mut options = options(16, true, QueueFullPolicy::Block);
    options.name = "panicking-six".to_string();
    let queue = AsyncQueue::start(options, Arc::new(handler)).unwrap();
    for _ in 0..6 {
        assert_eq!(send(&queue, Level::INFO, "boom"), Enqueued::Queued);
    }
    queue.stop(None);
    assert_eq!(queue.stats().panicked, 6);
    let reports = capture
        .records()
        .into_iter()
        .filter(|r| {
            r.message
                .starts_with("panicking-six: writing an event panicked")
        })
        .count();
    assert_eq!(reports, 4);
}

#[test]
fn stopping_a_full_queue_drains_it_and_later_events_are_refused() {
    let (gate, recorder, queue) = full_gated_queue(16, true, QueueFullPolicy::Block);
    let opener = {
        let gate = gate.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            gate.open();
        })
    };
    let outcome = queue.stop(None);
    opener.join().unwrap();
    assert_eq!(
        outcome,
        StopOutcome {
            drained: true,
            abandoned: 0
        }
    );
    assert_eq!(recorder.messages().len(), 16);
    assert_eq!(send(&queue, Level::ERROR, "late"), Enqueued::Closed);
}

#[test]
fn a_shutdown_timeout_abandons_what_is_left() {
    let dropped_before = l4rs_async::dropped_events();
    let (gate, recorder, queue) = full_gated_queue(8, true, QueueFullPolicy::Block);
    let started = Instant::now();
    let outcome = queue.stop(Some(Duration::from_millis(100)));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(!outcome.drained);
    assert_eq!(
        outcome.abandoned, 7,
        "the seven behind the stuck event; the one in progress is not given up"
    );
    assert_eq!(queue.stats().abandoned, 7, "counted at once");
    // Process-wide: other tests in this binary may add to it meanwhile, never take away.
    assert!(l4rs_async::dropped_events() - dropped_before >= 7);
    gate.open();
    // The thread finishes the event in progress, then ends without starting another.
    assert_eq!(
        queue.stop(None).abandoned,
        0,
        "stopping again gives up nothing more"
    );
    assert_eq!(recorder.messages(), ["first"]);
    assert_eq!(queue.stats().abandoned, 7);
}

#[test]
fn a_timed_out_stop_still_reports_the_discard_total() {
    let (gate, _, queue) = full_gated_queue(2, true, discard_info());
    // Every message below is reported on this thread (the offer, the abandoning and the
    // totals all run on the caller), so a thread-local capture sees them and nothing from the
    // other tests, which use the same queue name in parallel.
    let (outcome, records) = l4rs_core::status::capture(|| {
        assert_eq!(send(&queue, Level::INFO, "dropped"), Enqueued::Discarded);
        assert_eq!(send(&queue, Level::DEBUG, "dropped"), Enqueued::Discarded);
        queue.stop(Some(Duration::from_millis(50)))
    });
    gate.open();
    assert!(!outcome.drained);
    let messages: Vec<String> = records.iter().map(|r| r.message.clone()).collect();
    assert!(
        messages.contains(&"Async queue is full, discarding event with level INFO. This message will only appear once; future events from INFO are silently discarded until queue capacity becomes available.".to_string()),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m
                .starts_with("test: shutdown timed out after 50 ms with 1 event(s) still queued")),
        "{messages:?}"
    );
    assert!(
        messages
            .contains(&"test: 2 event(s) were discarded because the queue was full".to_string()),
        "{messages:?}"
    );
    assert_eq!(
        messages
            .iter()
            .filter(|m| m.starts_with("Async queue is full"))
            .count(),
        1,
        "the discard warning comes once"
    );
}

#[test]
fn events_after_the_stop_are_counted_as_dropped() {
    let (gate, recorder, queue) = full_gated_queue(2, true, QueueFullPolicy::Block);
    // A producer offering to the full queue while it stops (waiting for room, or arriving
    // after the close) gets `Closed`, not silence.
    let waiting = send_from_thread(&queue, Level::ERROR, "waiting");
    let stopper = {
        let queue = Arc::clone(&queue);
        std::thread::spawn(move || queue.stop(None))
    };
    assert_eq!(waiting.join().unwrap(), Enqueued::Closed);
    gate.open();
    assert!(stopper.join().unwrap().drained);
    let before = l4rs_async::dropped_events();
    assert_eq!(send(&queue, Level::ERROR, "late"), Enqueued::Closed);
    let stats = queue.stats();
    assert_eq!(stats.after_stop, 2);
    assert_eq!(stats.dropped(), 2);
    assert!(l4rs_async::dropped_events() > before);
    assert_eq!(recorder.messages(), ["first", "fill 1"]);
}

/// Starts a two-slot queue with `policy` whose handler, on the event `trigger`, sends `nested`
/// into that same queue at each of `levels` (from the queue's own thread); sends `trigger`,
/// waits for the queue to run dry, stops it and returns what those nested sends returned.
fn nested_sends(policy: QueueFullPolicy, levels: Vec<Level>) -> Vec<Enqueued> {
    let results = Arc::new(Mutex::new(Vec::new()));
    let slot: Arc<Mutex<Option<Arc<AsyncQueue>>>> = Arc::new(Mutex::new(None));
    let handler = {
        let slot = slot.clone();
        let results = results.clone();
        move |event: &LogEvent<'_>, _tag: u64| {
            if event.message.as_str() == Some("trigger") {
                let queue = slot.lock().unwrap().clone().unwrap();
                let mut results = results.lock().unwrap();
                for level in &levels {
                    results.push(send(&queue, *level, "nested"));
                }
            }
        }
    };
    let queue = Arc::new(AsyncQueue::start(options(2, true, policy), Arc::new(handler)).unwrap());
    *slot.lock().unwrap() = Some(queue.clone());
    assert_eq!(send(&queue, Level::INFO, "trigger"), Enqueued::Queued);
    assert!(queue.drain(Some(Duration::from_secs(10))));
    let results = results.lock().unwrap().clone();
    slot.lock().unwrap().take();
    queue.stop(None);
    results
}

#[test]
fn the_discarding_policy_applies_before_the_background_thread_check() {
    // log4j2's DiscardingAsyncQueueFullPolicy discards at or below its threshold even on its
    // own thread; only more severe events take the default policy's synchronous route.
    assert_eq!(
        nested_sends(
            discard_info(),
            vec![Level::INFO, Level::INFO, Level::INFO, Level::ERROR]
        ),
        [
            Enqueued::Queued,
            Enqueued::Discarded,
            Enqueued::Discarded,
            Enqueued::RunHere
        ]
    );
}

/// Two queues whose handlers each log into the other, both two slots deep: a thread waiting on
/// the other queue while the other waits on its queue would deadlock. Any l4rs background
/// thread is handed the event instead of waiting (log4j2's `instanceof Log4jThread`).
#[test]
fn background_threads_never_wait_on_another_full_queue() {
    type Slot = Arc<Mutex<Option<Arc<AsyncQueue>>>>;
    let outcomes: Arc<Mutex<Vec<Enqueued>>> = Arc::default();
    let handled = Arc::new(AtomicUsize::new(0));
    let make_handler = |other: Slot| {
        let outcomes = outcomes.clone();
        let handled = handled.clone();
        move |event: &LogEvent<'_>, _tag: u64| {
            handled.fetch_add(1, Ordering::SeqCst);
            if event.message.as_str() == Some("ping") {
                let other = other.lock().unwrap().clone().unwrap();
                for _ in 0..3 {
                    let outcome = send(&other, Level::INFO, "pong");
                    outcomes.lock().unwrap().push(outcome);
                }
            }
        }
    };
    let (slot_a, slot_b): (Slot, Slot) = (Arc::default(), Arc::default());
    let a = Arc::new(
        AsyncQueue::start(
            options(2, true, QueueFullPolicy::Block),
            Arc::new(make_handler(slot_b.clone())),
        )
        .unwrap(),
    );
    let b = Arc::new(
        AsyncQueue::start(
            options(2, true, QueueFullPolicy::Block),
            Arc::new(make_handler(slot_a.clone())),
        )
        .unwrap(),
    );
    *slot_a.lock().unwrap() = Some(a.clone());
    *slot_b.lock().unwrap() = Some(b.clone());
    for _ in 0..50 {
        assert_eq!(send(&a, Level::INFO, "ping"), Enqueued::Queued);
        assert_eq!(send(&b, Level::INFO, "ping"), Enqueued::Queued);
    }
    // Both drain only if neither background thread ever waited for the other's room (a
    // deadlock fails here after the timeout instead of hanging the test).
    assert!(a.drain(Some(Duration::from_secs(10))));
    assert!(b.drain(Some(Duration::from_secs(10))));
    let outcomes = outcomes.lock().unwrap().clone();
    assert_eq!(outcomes.len(), 300);
    assert!(
        !outcomes.contains(&Enqueued::Closed),
        "every pong was sent before either queue stopped: {outcomes:?}"
    );
    a.stop(None);
    b.stop(None);
    assert!(
        outcomes.contains(&Enqueued::RunHere),
        "two-slot queues fill up: {outcomes:?}"
    );
    slot_a.lock().unwrap().take();
    slot_b.lock().unwrap().take();
}

#[test]
fn the_dispatcher_never_waits_for_its_own_full_queue() {
    // Logging from inside the appender until the queue is full.
    assert_eq!(
        nested_sends(QueueFullPolicy::Block, vec![Level::INFO; 4]),
        [
            Enqueued::Queued,
            Enqueued::RunHere,
            Enqueued::RunHere,
            Enqueued::RunHere
        ]
    );
}

#[test]
fn batches_end_when_the_queue_runs_dry() {
    let (gate, recorder) = gated_recorder();
    let queue =
        AsyncQueue::start(options(8, true, QueueFullPolicy::Block), recorder.clone()).unwrap();
    fill(&queue, &recorder, 5);
    gate.open();
    assert!(queue.drain(Some(Duration::from_secs(10))));
    let flags: Vec<bool> = recorder
        .seen
        .lock()
        .unwrap()
        .iter()
        .map(|(_, end)| *end)
        .collect();
    // The first event was alone when it was taken; the other four were queued together.
    assert_eq!(flags, [true, false, false, false, true]);
    queue.stop(None);
}

#[test]
fn a_stop_from_the_background_thread_still_reports_what_was_lost() {
    type Slot = Arc<Mutex<Option<Arc<AsyncQueue>>>>;
    let slot: Slot = Arc::default();
    let reported: Arc<Mutex<Option<Vec<String>>>> = Arc::default();
    let handler = {
        let (slot, reported) = (slot.clone(), reported.clone());
        move |event: &LogEvent<'_>, _tag: u64| {
            if event.message.as_str() == Some("stop") {
                let queue = slot.lock().unwrap().clone().unwrap();
                // An appender stopping its own context, on the queue's own thread.
                let (outcome, records) =
                    l4rs_core::status::capture(|| queue.stop(Some(Duration::from_secs(1))));
                assert!(!outcome.drained);
                *reported.lock().unwrap() = Some(records.into_iter().map(|r| r.message).collect());
            }
        }
    };
    let queue = Arc::new(
        AsyncQueue::start(options(4, false, QueueFullPolicy::Block), Arc::new(handler)).unwrap(),
    );
    *slot.lock().unwrap() = Some(queue.clone());
    for _ in 0..3 {
        queue.record_rejected_lost();
    }
    assert_eq!(send(&queue, Level::INFO, "stop"), Enqueued::Queued);
    let deadline = Instant::now() + Duration::from_secs(10);
    while reported.lock().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the handler never stopped the queue"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let messages = reported.lock().unwrap().take().unwrap();
    assert_eq!(
        messages,
        ["test: 3 event(s) were dropped because the queue was full"],
        "{messages:?}"
    );
    slot.lock().unwrap().take();
}

#[test]
fn an_impossible_capacity_is_an_error_not_an_abort() {
    let (_gate, recorder) = gated_recorder();
    let error = AsyncQueue::start(
        options(usize::MAX / 2, true, QueueFullPolicy::Block),
        recorder,
    )
    .unwrap_err();
    let text = error.to_string();
    assert!(text.contains("Unable to allocate"), "{text}");
    assert!(text.contains("test"), "{text}");
}

/// Counts the events it handles; while `hold` is set, waits at `gate` first.
#[derive(Default)]
struct HeldOnRequest {
    hold: std::sync::atomic::AtomicBool,
    gate: Gate,
    handled: AtomicUsize,
}

impl EventHandler for HeldOnRequest {
    fn handle(&self, _event: &LogEvent<'_>, _tag: u64) {
        if self.hold.load(Ordering::SeqCst) {
            self.gate.wait();
        }
        self.handled.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn a_ring_full_of_errors_costs_the_producer_no_allocation() {
    // More errors in flight at once than the queue's spare conversion buffers (64), as in a
    // full ring with an error every fifth event: a prepared throwable is shared with its slot,
    // so none of them needs buffers of its own.
    const SLOTS: usize = 1024;
    let handler = Arc::new(HeldOnRequest::default());
    let queue = AsyncQueue::start(
        options(SLOTS, true, QueueFullPolicy::Block),
        handler.clone(),
    )
    .unwrap();
    let throwable = Throwable::new("x.Boom")
        .with_message("bad")
        .with_frames(vec![StackFrame::java("a.B", "c", Some("B.java"), 3); 100]);
    let error = LogEvent {
        throwable: Some(ThrowableRef::Throwable(&throwable)),
        ..LogEvent::new("t", Level::ERROR, Message::Text("failed"))
    };
    // Every slot's buffers grown: two laps of plain events.
    for _ in 0..2 * SLOTS {
        assert_eq!(send(&queue, Level::INFO, "warm-up"), Enqueued::Queued);
    }
    assert!(queue.drain(Some(Duration::from_secs(30))));
    handler.hold.store(true, Ordering::SeqCst);
    assert_eq!(send(&queue, Level::INFO, "held"), Enqueued::Queued);
    let errors = SLOTS - 2;
    let allocations = allocations::allocations_during(|| {
        for _ in 0..errors {
            assert_eq!(queue.enqueue(&error, 0, false), Enqueued::Queued);
        }
    });
    handler.gate.open();
    assert!(queue.drain(Some(Duration::from_secs(30))));
    assert_eq!(
        handler.handled.load(Ordering::SeqCst),
        2 * SLOTS + 1 + errors
    );
    assert_eq!(allocations, 0, "{errors} errors queued behind a held event");
}
