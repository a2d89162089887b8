//! The queue's background thread under each wait strategy: every strategy hands over events
//! that arrive after an idle spell, the spinning ones keep a CPU busy while idle and the
//! sleeping ones do not.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use l4rs_async::{AsyncQueue, Enqueued, QueueFullPolicy, QueueOptions, WaitStrategy};
use l4rs_core::{Level, LogEvent, Message};
use l4rs_test_support::threads::thread_cpu_time;

/// How long each queue sits idle in the CPU comparison.
const IDLE: Duration = Duration::from_millis(400);
/// Far more than a stop takes, far less than a lost wake-up of a parked thread would.
const STOP_LIMIT: Duration = Duration::from_secs(5);

/// A queue with `strategy` whose background thread is named `thread_name` (at most 15 bytes,
/// as Linux keeps it) and counts what it handles.
fn counting_queue(strategy: WaitStrategy, thread_name: &str) -> (AsyncQueue, Arc<AtomicUsize>) {
    let handled = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&handled);
    let queue = AsyncQueue::start(
        QueueOptions {
            name: format!("{strategy}"),
            thread_name: thread_name.to_string(),
            // Room for a whole burst (below), so that producers never wait for the thread.
            capacity: 256,
            blocking: true,
            policy: QueueFullPolicy::Block,
            wait_strategy: strategy,
        },
        Arc::new(move |_: &LogEvent<'_>, _: u64| {
            counter.fetch_add(1, Ordering::SeqCst);
        }),
    )
    .expect("queue starts");
    (queue, handled)
}

fn send(queue: &AsyncQueue) {
    let event = LogEvent::new("t", Level::INFO, Message::Text("event"));
    assert_eq!(queue.enqueue(&event, 0, false), Enqueued::Queued);
}

fn every_strategy() -> [WaitStrategy; 5] {
    [
        WaitStrategy::Timeout(Duration::from_millis(10)),
        WaitStrategy::Block,
        WaitStrategy::Sleep {
            retries: 200,
            sleep: Duration::from_nanos(100),
        },
        WaitStrategy::Yield,
        WaitStrategy::BusySpin,
    ]
}

#[test]
fn every_strategy_hands_over_events_that_come_after_an_idle_spell() {
    for (index, strategy) in every_strategy().into_iter().enumerate() {
        let (queue, handled) = counting_queue(strategy, &format!("wait-handover-{index}"));
        assert_eq!(queue.stats().wait_strategy, strategy);
        send(&queue);
        assert!(queue.drain(Some(Duration::from_secs(10))), "{strategy}");
        // Long enough for every strategy to reach its last step (a sleep, for most).
        std::thread::sleep(Duration::from_millis(50));
        send(&queue);
        send(&queue);
        assert!(queue.drain(Some(Duration::from_secs(10))), "{strategy}");
        assert_eq!(handled.load(Ordering::SeqCst), 3, "{strategy}");
        assert!(
            queue.stop(Some(Duration::from_secs(10))).drained,
            "{strategy}"
        );
    }
}

#[test]
fn a_busy_spinning_queue_keeps_a_cpu_busy_while_idle_and_a_blocking_one_sleeps() {
    let (spinning, _) = counting_queue(WaitStrategy::BusySpin, "wait-busyspin");
    let (blocking, _) = counting_queue(WaitStrategy::Block, "wait-block");
    // A new thread takes its name once it runs.
    let cpu_time_of = |name| {
        for _ in 0..500 {
            if let Some(used) = thread_cpu_time(name) {
                return used;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("no thread {name} after 5 s");
    };
    let (spin_before, block_before) = (cpu_time_of("wait-busyspin"), cpu_time_of("wait-block"));
    std::thread::sleep(IDLE);
    let spin_used = cpu_time_of("wait-busyspin") - spin_before;
    let block_used = cpu_time_of("wait-block") - block_before;
    let started = Instant::now();
    let stopped = blocking.stop(Some(Duration::from_secs(10)));
    let stopping = started.elapsed();
    spinning.stop(Some(Duration::from_secs(10)));
    assert!(
        stopped.drained && stopping < STOP_LIMIT,
        "{stopped:?} in {stopping:?}"
    );
    // Asleep with nothing queued, the blocking thread gets almost nothing; the spinning one
    // gets a good part of a core, however busy the machine (a ratio, not a share of a core).
    assert!(
        block_used <= IDLE / 40,
        "BLOCK used {block_used:?} of {IDLE:?}"
    );
    assert!(
        spin_used > block_used.max(Duration::from_millis(1)) * 20,
        "BUSYSPIN used {spin_used:?}, BLOCK {block_used:?} of {IDLE:?}"
    );
}

/// Producers log in bursts with pauses long enough for the thread to reach its last step
/// (a park without a timeout, for `Block`), so that every burst's first event must wake it.
/// A lost wake-up would leave a burst unhandled: each burst is drained within a bound.
#[test]
fn bursts_after_idle_spells_are_all_handed_over_under_every_strategy() {
    const THREADS: usize = 4;
    const BURSTS: usize = 20;
    const PER_BURST: usize = 25;
    for (index, strategy) in every_strategy().into_iter().enumerate() {
        let (queue, handled) = counting_queue(strategy, &format!("wait-bursts-{index}"));
        let queue = Arc::new(queue);
        for burst in 0..BURSTS {
            let producers: Vec<_> = (0..THREADS)
                .map(|_| {
                    let queue = Arc::clone(&queue);
                    std::thread::spawn(move || {
                        for _ in 0..PER_BURST {
                            send(&queue);
                        }
                    })
                })
                .collect();
            for producer in producers {
                producer.join().expect("a producer");
            }
            let started = Instant::now();
            assert!(
                queue.drain(Some(STOP_LIMIT)),
                "{strategy}: burst {burst} not handed over"
            );
            assert!(started.elapsed() < STOP_LIMIT, "{strategy}: burst {burst}");
            assert_eq!(
                handled.load(Ordering::SeqCst),
                (burst + 1) * THREADS * PER_BURST,
                "{strategy}"
            );
            // Past the spins and yields of every strategy: the next burst finds it parked.
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(queue.stop(Some(STOP_LIMIT)).drained, "{strategy}");
    }
}
