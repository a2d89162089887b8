//! TimeFilter (`start`, `end`, `timezone`): read the times of day as `LocalTime.parse` and the
//! zone as `ZoneId.of`, build the filter, and judge instants across the whole range.
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
    let filter = TimeFilter::new(start.unwrap_or(0), end, zone, FilterVerdicts::default());
    for millis in [
        0,
        1_351_866_842_781,
        -1,
        i64::MAX,
        i64::MIN,
        253_402_300_799_999,
        -377_705_116_800_000,
    ] {
        let mut event = LogEvent::new("", Level::INFO, Message::Text(""));
        event.timestamp = Timestamp::from_millis(millis);
        // Twice: the second may take the remembered window.
        assert_eq!(filter.filter(&event), filter.filter(&event));
    }
});
