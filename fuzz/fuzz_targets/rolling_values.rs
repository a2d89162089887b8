//! The value syntaxes of rolling appenders: `filePattern` (parsed as the configuration does,
//! then compiled and rendered as the appender does at rollover), sizes, ages and the globs of
//! `IfFileName`.
//!
//! Input: `text NUL time-and-index bytes`; the first field is tried as each syntax.
#![no_main]

use l4rs_config::rolling::{glob_to_regex, parse_age, parse_size, FilePattern};
use l4rs_core::Level;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([value, numbers]) = l4rs_fuzz::text_fields::<2>(data) else {
        return;
    };
    l4rs_core::status::set_level(Level::OFF);
    let _ = parse_size(value);
    let _ = parse_age(value);
    if let Ok(regex) = glob_to_regex(value) {
        let _ = regex::RegexBuilder::new(&regex).size_limit(1 << 22).build();
    }
    let Ok(pattern) = FilePattern::parse(value) else {
        return;
    };
    let mut seed = [0u8; 21];
    for (slot, byte) in seed.iter_mut().zip(numbers.bytes()) {
        *slot = byte;
    }
    let time = i64::from_le_bytes(seed[0..8].try_into().unwrap());
    let index = i64::from_le_bytes(seed[8..16].try_into().unwrap());
    let interval = u32::from_le_bytes(seed[16..20].try_into().unwrap());
    let modulate = seed[20] & 1 == 1;
    for (time, index) in [(time, index), (1_351_866_842_781, 1)] {
        let (name, period) =
            l4rs_appenders::fuzzing::fuzz_file_pattern(&pattern, time, index, interval, modulate);
        let _ = name;
        if let Some((next, _named)) = period {
            assert!(next > time, "the next rollover {next} comes after {time}");
        }
    }
});
