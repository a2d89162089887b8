//! Filters allocate nothing per event once warm: counted with a per-thread allocation counter
//! (in its own test binary, since it replaces the global allocator).

use l4rs_config::model::{FilterSpec, FilterVerdicts};
use l4rs_core::{FilterResult, Level, LogEvent, Marker, Message};
use l4rs_filter::build_filter;
use l4rs_test_support::allocations::{self, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

#[test]
fn the_counter_sees_allocations() {
    assert!(allocations::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) > 0);
}

#[test]
fn steady_state_filtering_allocates_nothing() {
    let defaults = FilterVerdicts::default();
    let seconds_today = jiff::Timestamp::now().as_second().rem_euclid(86_400);
    let far_from_now = u32::try_from((seconds_today + 43_200) % 86_399).expect("in a day");
    let filter = build_filter(&FilterSpec::Composite(vec![
        FilterSpec::Threshold {
            level: Level::TRACE,
            verdicts: defaults,
        },
        FilterSpec::LevelRange {
            min_level: Level::FATAL,
            max_level: Level::TRACE,
            verdicts: defaults,
        },
        FilterSpec::Regex {
            regex: r"request \d+ took .*".into(),
            use_raw_msg: false,
            verdicts: defaults,
        },
        FilterSpec::StringMatch {
            text: "took".into(),
            verdicts: defaults,
        },
        FilterSpec::Marker {
            marker: "NO_ALLOC_PARENT".into(),
            verdicts: defaults,
        },
        FilterSpec::Burst {
            level: Level::INFO,
            rate: 1e9,
            max_burst: 64,
            verdicts: defaults,
        },
        FilterSpec::DynamicThreshold {
            key: "user".into(),
            levels: vec![("alice".into(), Level::DEBUG)],
            default_threshold: Level::ERROR,
            verdicts: FilterVerdicts {
                on_match: FilterResult::Neutral,
                on_mismatch: FilterResult::Deny,
            },
        },
        FilterSpec::ThreadContextMap {
            pairs: vec![("user".into(), vec!["bob".into(), "alice".into()])],
            any: false,
            verdicts: defaults,
        },
        FilterSpec::Time {
            start_second: 0,
            end_second: None,
            zone: Some(jiff::tz::TimeZone::get("Europe/Paris").expect("a known zone")),
            verdicts: defaults,
        },
        // A one-second window twelve hours from now: every event takes the slow path.
        FilterSpec::Time {
            start_second: far_from_now,
            end_second: Some(far_from_now + 1),
            zone: Some(jiff::tz::TimeZone::UTC),
            verdicts: FilterVerdicts {
                on_match: FilterResult::Neutral,
                on_mismatch: FilterResult::Neutral,
            },
        },
        FilterSpec::Time {
            start_second: 0,
            end_second: Some(0),
            zone: None,
            verdicts: FilterVerdicts {
                on_match: FilterResult::Neutral,
                on_mismatch: FilterResult::Deny,
            },
        },
    ]));
    let mut context = l4rs_core::ContextMap::new();
    context.insert("user", "alice");
    let child = Marker::get("NO_ALLOC_CHILD");
    child.add_parent(Marker::get("NO_ALLOC_PARENT"));
    let run = |count: usize| {
        for i in 0..count {
            let args = format_args!("request {i} took {} ms", i % 97);
            let mut event = LogEvent::new("alloc", Level::INFO, Message::Args(args));
            event.marker = Some(&child);
            event.context_map = &context;
            assert_eq!(filter.filter(&event), FilterResult::Neutral);
        }
    };
    run(100);
    assert_eq!(allocations::allocations_during(|| run(1000)), 0);
}
