//! Property tests of the configuration-time value parsers (docs/robustness.md): cron
//! schedules, sizes, ages, `filePattern` and `IfFileName` globs never panic on any text, and
//! round-trip where they have a written form. The fuzz targets under `fuzz/` run the same entry
//! points for much longer; these keep the property in every CI run.

use l4rs_config::rolling::{
    glob_to_regex, parse_age, parse_size, CronExpression, FilePattern, FilePatternSegment,
};
use proptest::prelude::*;

/// Few cases: the whole property set runs in CI in debug builds.
fn config() -> ProptestConfig {
    ProptestConfig::with_cases(256)
}

/// A cron field built from the pieces Quartz reads.
fn cron_field() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("*".to_string()),
            Just("?".to_string()),
            Just("L".to_string()),
            Just("W".to_string()),
            Just("MON".to_string()),
            Just("jan".to_string()),
            (0u32..70).prop_map(|n| n.to_string()),
            (0u32..70, 0u32..70).prop_map(|(a, b)| format!("{a}-{b}")),
            (0u32..70, 0u32..70).prop_map(|(a, b)| format!("{a}/{b}")),
            (1u32..8, 0u32..7).prop_map(|(a, b)| format!("{a}#{b}")),
            (1u32..8).prop_map(|a| format!("{a}L")),
            "[-*/,#?LW0-9A-Za-z]{0,4}",
        ],
        1..3,
    )
    .prop_map(|parts| parts.join(","))
}

fn cron_text() -> impl Strategy<Value = String> {
    prop::collection::vec(cron_field(), 5..8).prop_map(|fields| fields.join(" "))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn cron_never_panics_on_any_text(text in ".{0,40}") {
        let _ = CronExpression::parse(&text);
    }

    #[test]
    fn cron_round_trips_and_fires_later(text in cron_text()) {
        if let Ok(expression) = CronExpression::parse(&text) {
            let again = CronExpression::parse(expression.as_str());
            prop_assert_eq!(again.as_ref(), Ok(&expression));
            let after = 1_351_866_842_781;
            if let Some(next) = expression.next_after(after, &jiff::tz::TimeZone::UTC) {
                prop_assert!(next > after);
            }
        }
    }

    #[test]
    fn valid_cron_parses_and_round_trips(
        second in 0u32..60, minute in 0u32..60, hour in 0u32..24, day in 1u32..29,
        month in 1u32..13, step in 1u32..30, week_day in 1u32..8, by_week in any::<bool>(),
    ) {
        let (day_of_month, day_of_week) = if by_week {
            ("?".to_string(), format!("{week_day}"))
        } else {
            (format!("{day}"), "?".to_string())
        };
        let text = format!("{second} {minute}/{step} {hour} {day_of_month} {month} {day_of_week}");
        let expression = CronExpression::parse(&text).expect("a valid schedule parses");
        prop_assert_eq!(CronExpression::parse(expression.as_str()), Ok(expression.clone()));
        let after = 1_351_866_842_781;
        let next = expression.next_after(after, &jiff::tz::TimeZone::UTC);
        prop_assert!(next.is_some_and(|next| next > after), "{text} fires after {after}: {next:?}");
    }

    #[test]
    fn size_never_panics(text in "[0-9.,]{0,12} ?[KMGTkmgtBb]{0,2}|.{0,16}") {
        let _ = parse_size(&text);
    }

    #[test]
    fn size_reads_back_whole_units(value in 0u64..1_000_000, unit in 0usize..5, suffix in any::<bool>()) {
        let letters = ["", "K", "M", "G", "T"];
        let written = format!("{value} {}{}", letters[unit], if suffix { "B" } else { "" });
        prop_assert_eq!(parse_size(&written), Ok(value << (10 * unit)));
    }

    #[test]
    fn age_never_panics(text in "[PpTt0-9DdHhMmSs]{0,12}|.{0,16}") {
        let _ = parse_age(&text);
    }

    #[test]
    fn age_reads_back_what_it_is_written_as(
        days in 0u64..10_000, hours in 0u64..24, minutes in 0u64..60, seconds in 0u64..60,
    ) {
        let total = ((days * 24 + hours) * 60 + minutes) * 60_000 + seconds * 1000;
        prop_assert_eq!(parse_age(&format!("P{days}DT{hours}H{minutes}M{seconds}S")), Ok(total));
        prop_assert_eq!(parse_age(&format!("{days}d{hours}h{minutes}m{seconds}s")), Ok(total));
    }

    #[test]
    fn file_pattern_never_panics(
        text in "([-a-z./%{}0-9iIdD$]|%d\\{[a-zA-Z:' -]{0,8}\\}|%0?[0-9]{0,3}i|\\{[A-Za-z/+0-9]{0,6}\\}){0,8}|.{0,24}",
    ) {
        if let Ok(pattern) = FilePattern::parse(&text) {
            prop_assert_eq!(&pattern.text, &text);
            let _ = (pattern.frequency(), pattern.compression_suffix(), pattern.has_index());
        }
    }

    #[test]
    fn file_pattern_without_percent_is_one_literal(text in "[^%]{1,24}") {
        let pattern = FilePattern::parse(&text).expect("no conversion, nothing to reject");
        prop_assert_eq!(pattern.segments, vec![FilePatternSegment::Literal(text.clone())]);
    }

    #[test]
    fn glob_never_panics_and_compiles(text in "[-a-z*?/\\[\\]{},!^\\\\.]{0,16}|.{0,16}") {
        if let Ok(regex) = glob_to_regex(&text) {
            prop_assert!(regex::Regex::new(&regex).is_ok(), "{text:?} gave {regex:?}");
        }
    }
}
