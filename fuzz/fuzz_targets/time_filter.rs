//! TimeFilter (`start`, `end`, `timezone`): read the times of day as `LocalTime.parse` and the
//! zone as `ZoneId.of`, build the filter, and judge instants across the whole range: nothing
//! matches outside the range of time zones, and a filter that remembered a window from
//! earlier instants answers as a fresh one.
//!
//! Input: `start NUL end NUL zone`.
#![no_main]

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, Level, LogEvent, Message, Timestamp};
use l4rs_filter::TimeFilter;
use l4rs_java_syntax::{local_time, zone_id};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([start, end, zone]) = l4rs_fuzz::text_fields::<3>(data) else {
        return;
    };
    let start = local_time::parse_hh_mm_ss(start).ok();
    let end = local_time::parse_hh_mm_ss(end).ok();
    for second in [start, end].into_iter().flatten() {
        assert!(
            second < local_time::SECONDS_PER_DAY,
            "{second} is a time of day"
        );
    }
    let zone = match zone_id::parse(zone) {
        Ok(zone) => zone,
        Err(error) => {
            // The message is Java's, naming the exception's class.
            assert!(error.to_string().starts_with("java.time."), "{error}");
            return;
        }
    };
    let build = || {
        TimeFilter::new(
            start.unwrap_or(0),
            end,
            zone.clone(),
            FilterVerdicts::default(),
        )
    };
    let judge = |filter: &TimeFilter, millis: i64| {
        let mut event = LogEvent::new("", Level::INFO, Message::Text(""));
        event.timestamp = Timestamp::from_millis(millis);
        filter.filter(&event)
    };
    // Outside the range of time zones nothing matches.
    for millis in [i64::MAX, i64::MIN, i64::MIN + 1] {
        assert_eq!(
            judge(&build(), millis),
            FilterVerdicts::default().on_mismatch
        );
    }
    // A filter that has judged other instants (and remembered a window) answers as a fresh
    // one: the remembered window is a shortcut, never a state.
    let warm = build();
    let instants: [i64; 7] = [
        0,
        1_351_866_842_781,
        -1,
        253_402_300_799_999,
        -377_705_116_800_000,
        1_325_239_200_000,
        1_900_000_000_000,
    ];
    for (index, &millis) in instants.iter().enumerate() {
        for offset in [
            0,
            3_600_000,
            -3_600_000,
            43_200_000,
            86_400_000,
            -86_400_000,
        ] {
            let millis = millis.saturating_add(offset + index as i64);
            assert_eq!(judge(&warm, millis), judge(&build(), millis), "at {millis}");
        }
    }
});
