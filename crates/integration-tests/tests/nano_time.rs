//! `%N`/`%nano` through the facade: a configuration whose layout prints it stamps every event
//! with a monotonic nanosecond reading taken at the call (log4j2's `SystemNanoClock`).

use l4rs::core::time::monotonic_nanos;

#[test]
fn a_layout_with_nano_gives_each_call_a_monotonic_reading() {
    let dir = l4rs_tests::init_file_logger("nano-time", ("Nano", "%N %m%n"), ("nano", "info"));
    let logger = l4rs::get_logger("nano");
    let before = monotonic_nanos();
    l4rs::info!(logger, "first");
    l4rs::info!(logger, "second");
    let after = monotonic_nanos();
    l4rs::flush();
    let lines = l4rs_tests::read_lines(&dir.join("nano.log"));
    let readings: Vec<i64> = lines
        .iter()
        .zip(["first", "second"])
        .map(|(line, message)| {
            let (nanos, text) = line.split_once(' ').expect("`%N %m` line");
            assert_eq!(text, message, "{lines:?}");
            nanos.parse().expect("%N prints an integer")
        })
        .collect();
    assert_eq!(readings.len(), 2, "{lines:?}");
    assert!(readings[0] != 0, "{lines:?}");
    assert!(
        before <= readings[0] && readings[0] < readings[1] && readings[1] <= after,
        "readings {readings:?} outside [{before}, {after}]"
    );
}
