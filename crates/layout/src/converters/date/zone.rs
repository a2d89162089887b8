//! Time zones as Java's `TimeZone.getTimeZone` resolves them, with en_US display names.

use jiff::tz::{Offset, TimeZone};

/// A resolved zone and the names `z` / `zzzz` print for it.
#[derive(Clone, Debug)]
pub(crate) struct Zone {
    pub tz: TimeZone,
    names: Option<&'static ZoneNames>,
    /// Set for `GMT±hh:mm` custom zones, whose names are the id itself.
    custom_name: Option<Box<str>>,
}

/// Short and long names in standard and daylight time (Java's CLDR data for en_US).
#[derive(Debug)]
struct ZoneNames {
    short_standard: &'static str,
    short_daylight: &'static str,
    long_standard: &'static str,
    long_daylight: &'static str,
}

/// Java's old three-letter ids that the tz database does not have.
const SHORT_IDS: &[(&str, &str)] = &[
    ("ACT", "Australia/Darwin"),
    ("AET", "Australia/Sydney"),
    ("AGT", "America/Argentina/Buenos_Aires"),
    ("ART", "Africa/Cairo"),
    ("AST", "America/Anchorage"),
    ("BET", "America/Sao_Paulo"),
    ("BST", "Asia/Dhaka"),
    ("CAT", "Africa/Harare"),
    ("CNT", "America/St_Johns"),
    ("CST", "America/Chicago"),
    ("CTT", "Asia/Shanghai"),
    ("EAT", "Africa/Addis_Ababa"),
    ("ECT", "Europe/Paris"),
    ("IET", "America/Indiana/Indianapolis"),
    ("IST", "Asia/Kolkata"),
    ("JST", "Asia/Tokyo"),
    ("MIT", "Pacific/Apia"),
    ("NET", "Asia/Yerevan"),
    ("NST", "Pacific/Auckland"),
    ("PLT", "Asia/Karachi"),
    ("PNT", "America/Phoenix"),
    ("PRT", "America/Puerto_Rico"),
    ("PST", "America/Los_Angeles"),
    ("SST", "Pacific/Guadalcanal"),
    ("VST", "Asia/Ho_Chi_Minh"),
];

macro_rules! names {
    ($($ids:expr => $ss:expr, $sd:expr, $ls:expr, $ld:expr;)*) => {
        const NAMES: &[(&[&str], ZoneNames)] = &[
            $(($ids, ZoneNames { short_standard: $ss, short_daylight: $sd, long_standard: $ls, long_daylight: $ld }),)*
        ];
    };
}

names! {
    &["UTC", "Etc/UTC", "Etc/UCT", "UCT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu"]
        => "UTC", "UTC", "Coordinated Universal Time", "Coordinated Universal Time";
    &["GMT", "Etc/GMT", "Etc/GMT+0", "Etc/GMT-0", "Etc/GMT0", "GMT0", "GMT+0", "GMT-0", "Greenwich", "Etc/Greenwich"]
        => "GMT", "GMT", "Greenwich Mean Time", "Greenwich Mean Time";
    &["Europe/London", "GB", "GB-Eire", "Europe/Jersey", "Europe/Guernsey", "Europe/Isle_of_Man"]
        => "GMT", "BST", "Greenwich Mean Time", "British Summer Time";
    &["Europe/Dublin", "Eire"] => "GMT", "IST", "Greenwich Mean Time", "Irish Standard Time";
    &["Europe/Lisbon", "Portugal", "Atlantic/Canary", "Atlantic/Madeira", "Atlantic/Faroe", "WET"]
        => "WET", "WEST", "Western European Standard Time", "Western European Summer Time";
    &["CET", "MET", "Europe/Berlin", "Europe/Paris", "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam",
      "Europe/Brussels", "Europe/Vienna", "Europe/Zurich", "Europe/Stockholm", "Europe/Oslo",
      "Europe/Copenhagen", "Europe/Warsaw", "Europe/Prague", "Europe/Budapest", "Europe/Belgrade",
      "Europe/Zagreb", "Europe/Ljubljana", "Europe/Luxembourg", "Europe/Monaco", "Europe/Malta",
      "Europe/Andorra", "Europe/Tirane", "Europe/Sarajevo", "Europe/Skopje", "Europe/Bratislava",
      "Europe/Podgorica", "Europe/San_Marino", "Europe/Vatican", "Europe/Vaduz", "Europe/Gibraltar",
      "Europe/Busingen", "Africa/Ceuta", "Arctic/Longyearbyen", "Poland"]
        => "CET", "CEST", "Central European Standard Time", "Central European Summer Time";
    &["EET", "Europe/Athens", "Europe/Helsinki", "Europe/Kiev", "Europe/Kyiv", "Europe/Bucharest",
      "Europe/Sofia", "Europe/Riga", "Europe/Tallinn", "Europe/Vilnius", "Europe/Chisinau",
      "Europe/Mariehamn", "Africa/Cairo", "Africa/Tripoli", "Asia/Beirut", "Asia/Nicosia", "Egypt"]
        => "EET", "EEST", "Eastern European Standard Time", "Eastern European Summer Time";
    &["Europe/Moscow", "W-SU"] => "MSK", "MSK", "Moscow Standard Time", "Moscow Summer Time";
    &["Europe/Istanbul", "Turkey", "Asia/Istanbul"] => "TRT", "TRT", "Turkey Time", "Turkey Time";
    &["EST5EDT", "America/New_York", "America/Detroit", "America/Toronto", "America/Montreal",
      "America/Nassau", "America/Indiana/Indianapolis", "America/Indianapolis",
      "America/Kentucky/Louisville", "America/Louisville", "US/Eastern", "Canada/Eastern"]
        => "EST", "EDT", "Eastern Standard Time", "Eastern Daylight Time";
    &["EST", "America/Panama", "America/Jamaica", "America/Cancun"]
        => "EST", "EDT", "Eastern Standard Time", "Eastern Daylight Time";
    &["CST6CDT", "America/Chicago", "America/Winnipeg", "America/Mexico_City", "America/Menominee",
      "US/Central", "Canada/Central"]
        => "CST", "CDT", "Central Standard Time", "Central Daylight Time";
    &["MST7MDT", "America/Denver", "America/Edmonton", "America/Boise", "US/Mountain", "Canada/Mountain"]
        => "MST", "MDT", "Mountain Standard Time", "Mountain Daylight Time";
    &["MST", "America/Phoenix", "US/Arizona"] => "MST", "MDT", "Mountain Standard Time", "Mountain Daylight Time";
    &["PST8PDT", "America/Los_Angeles", "America/Vancouver", "America/Tijuana", "US/Pacific", "Canada/Pacific"]
        => "PST", "PDT", "Pacific Standard Time", "Pacific Daylight Time";
    &["America/Anchorage", "US/Alaska"] => "AKST", "AKDT", "Alaska Standard Time", "Alaska Daylight Time";
    &["HST", "Pacific/Honolulu", "US/Hawaii"]
        => "HST", "HDT", "Hawaii-Aleutian Standard Time", "Hawaii-Aleutian Daylight Time";
    &["America/Halifax", "Atlantic/Bermuda", "Canada/Atlantic", "America/Puerto_Rico"]
        => "AST", "ADT", "Atlantic Standard Time", "Atlantic Daylight Time";
    &["America/St_Johns", "Canada/Newfoundland"]
        => "NST", "NDT", "Newfoundland Standard Time", "Newfoundland Daylight Time";
    &["America/Sao_Paulo", "Brazil/East"] => "BRT", "BRST", "Brasilia Standard Time", "Brasilia Summer Time";
    &["America/Argentina/Buenos_Aires", "America/Buenos_Aires"]
        => "ART", "ARST", "Argentina Standard Time", "Argentina Summer Time";
    &["Asia/Tokyo", "Japan"] => "JST", "JDT", "Japan Standard Time", "Japan Daylight Time";
    &["Asia/Seoul", "ROK"] => "KST", "KDT", "Korean Standard Time", "Korean Daylight Time";
    &["Asia/Shanghai", "Asia/Chongqing", "Asia/Harbin", "PRC", "Asia/Taipei", "ROC", "Asia/Macau"]
        => "CST", "CDT", "China Standard Time", "China Daylight Time";
    &["Asia/Hong_Kong", "Hongkong"] => "HKT", "HKST", "Hong Kong Standard Time", "Hong Kong Summer Time";
    &["Asia/Singapore", "Singapore"] => "SGT", "SGT", "Singapore Standard Time", "Singapore Standard Time";
    &["Asia/Kolkata", "Asia/Calcutta"] => "IST", "IST", "India Standard Time", "India Standard Time";
    &["Asia/Kathmandu", "Asia/Katmandu"] => "NPT", "NPT", "Nepal Time", "Nepal Time";
    &["Asia/Dubai", "Asia/Muscat"] => "GST", "GST", "Gulf Standard Time", "Gulf Standard Time";
    &["Asia/Karachi"] => "PKT", "PKST", "Pakistan Standard Time", "Pakistan Summer Time";
    &["Asia/Jakarta"] => "WIB", "WIB", "Western Indonesia Time", "Western Indonesia Time";
    &["Asia/Bangkok", "Asia/Ho_Chi_Minh", "Asia/Saigon", "Asia/Phnom_Penh", "Asia/Vientiane"]
        => "ICT", "ICT", "Indochina Time", "Indochina Time";
    &["Asia/Jerusalem", "Asia/Tel_Aviv", "Israel"] => "IST", "IDT", "Israel Standard Time", "Israel Daylight Time";
    &["Australia/Sydney", "Australia/Melbourne", "Australia/Hobart", "Australia/Canberra",
      "Australia/ACT", "Australia/NSW", "Australia/Victoria", "Australia/Brisbane", "Australia/Queensland"]
        => "AEST", "AEDT", "Australian Eastern Standard Time", "Australian Eastern Daylight Time";
    &["Australia/Lord_Howe", "Australia/LHI"]
        => "LHST", "LHDT", "Lord Howe Standard Time", "Lord Howe Daylight Time";
    &["Australia/Adelaide", "Australia/Darwin", "Australia/South", "Australia/North"]
        => "ACST", "ACDT", "Australian Central Standard Time", "Australian Central Daylight Time";
    &["Australia/Perth", "Australia/West"]
        => "AWST", "AWDT", "Australian Western Standard Time", "Australian Western Daylight Time";
    &["Pacific/Auckland", "NZ"] => "NZST", "NZDT", "New Zealand Standard Time", "New Zealand Daylight Time";
    &["Africa/Johannesburg"] => "SAST", "SAST", "South Africa Standard Time", "South Africa Standard Time";
    &["Africa/Lagos", "Africa/Kinshasa", "Africa/Luanda"] => "WAT", "WAT", "West Africa Standard Time", "West Africa Standard Time";
    &["Africa/Nairobi", "Africa/Addis_Ababa", "Africa/Dar_es_Salaam", "Africa/Kampala"]
        => "EAT", "EAT", "East Africa Time", "East Africa Time";
}

fn names_for(id: &str) -> Option<&'static ZoneNames> {
    NAMES
        .iter()
        .find(|(ids, _)| ids.contains(&id))
        .map(|(_, names)| names)
}

impl Zone {
    /// The process's local zone (honours `TZ`), as the JVM default zone.
    pub(super) fn local() -> Zone {
        let tz = TimeZone::system();
        let names = tz.iana_name().and_then(names_for);
        Zone {
            tz,
            names,
            custom_name: None,
        }
    }

    /// GMT, the zone Java falls back to for an id it does not know.
    pub(super) fn gmt() -> Zone {
        Zone {
            tz: TimeZone::UTC,
            names: names_for("GMT"),
            custom_name: None,
        }
    }

    /// Resolves an id as `TimeZone.getTimeZone` does: a tz database id (case-sensitive), an
    /// old three-letter id, a custom `GMT±h[h][[:]mm]` id, else GMT.
    pub(super) fn from_id(id: &str) -> Zone {
        let canonical = SHORT_IDS
            .iter()
            .find(|(short, _)| *short == id)
            .map_or(id, |(_, long)| long);
        if let Ok(tz) = TimeZone::get(canonical) {
            if canonical != id || tz.iana_name() == Some(id) {
                return Zone {
                    names: names_for(canonical),
                    tz,
                    custom_name: None,
                };
            }
        }
        match parse_custom_gmt(id) {
            Some(0) => Zone::gmt(),
            Some(seconds) => {
                let offset = Offset::from_seconds(seconds).unwrap_or(Offset::UTC);
                let mut name = String::from("GMT");
                push_offset_name(&mut name, seconds);
                Zone {
                    tz: TimeZone::fixed(offset),
                    names: None,
                    custom_name: Some(name.into_boxed_str()),
                }
            }
            None => Zone::gmt(),
        }
    }

    /// Appends the `z` (short) or `zzzz` (long) name at an instant with the given offset.
    pub(super) fn push_name(
        &self,
        long: bool,
        daylight: bool,
        abbreviation: &str,
        offset_seconds: i32,
        out: &mut String,
    ) {
        if let Some(name) = &self.custom_name {
            out.push_str(name);
            return;
        }
        match (self.names, long, daylight) {
            (Some(n), false, false) => out.push_str(n.short_standard),
            (Some(n), false, true) => out.push_str(n.short_daylight),
            (Some(n), true, false) => out.push_str(n.long_standard),
            (Some(n), true, true) => out.push_str(n.long_daylight),
            (None, false, _) if abbreviation.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                out.push_str(abbreviation)
            }
            (None, _, _) => {
                out.push_str("GMT");
                push_offset_name(out, offset_seconds);
            }
        }
    }
}

/// `+hh:mm` as in Java's custom zone names.
fn push_offset_name(out: &mut String, seconds: i32) {
    out.push(if seconds < 0 { '-' } else { '+' });
    let minutes = seconds.unsigned_abs() / 60;
    super::super::thread::push_padded(out, (minutes / 60) as i64, 2);
    out.push(':');
    super::super::thread::push_padded(out, (minutes % 60) as i64, 2);
}

/// Java's `parseCustomTimeZone`: `GMT` then a sign, then `h`, `hh`, `hmm`, `hhmm` or
/// `h[h]:mm`, hours at most 23 and minutes at most 59. Returns the offset in seconds.
fn parse_custom_gmt(id: &str) -> Option<i32> {
    let rest = id.strip_prefix("GMT")?;
    let mut chars = rest.chars();
    let negative = match chars.next()? {
        '+' => false,
        '-' => true,
        _ => return None,
    };
    let body = chars.as_str();
    if body.is_empty() {
        return None;
    }
    let (hours, minutes) = match body.split_once(':') {
        Some((h, m)) => {
            if h.is_empty()
                || h.len() > 2
                || m.len() != 2
                || !h.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit())
            {
                return None;
            }
            (h.parse::<i32>().ok()?, m.parse::<i32>().ok()?)
        }
        None => {
            if !body.bytes().all(|b| b.is_ascii_digit()) || body.len() > 4 {
                return None;
            }
            let number = body.parse::<i32>().ok()?;
            if body.len() <= 2 {
                (number, 0)
            } else {
                (number / 100, number % 100)
            }
        }
    };
    if hours > 23 || minutes > 59 {
        return None;
    }
    let seconds = (hours * 60 + minutes) * 60;
    Some(if negative { -seconds } else { seconds })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_gmt_ids() {
        assert_eq!(parse_custom_gmt("GMT+2"), Some(7200));
        assert_eq!(parse_custom_gmt("GMT-03:30"), Some(-12600));
        assert_eq!(parse_custom_gmt("GMT+0800"), Some(28800));
        assert_eq!(parse_custom_gmt("GMT+2:30"), Some(9000));
        assert_eq!(parse_custom_gmt("GMT+24"), None);
        assert_eq!(parse_custom_gmt("gmt+2"), None);
        assert_eq!(parse_custom_gmt("UTC+2"), None);
    }

    #[test]
    fn unknown_and_miscased_ids_fall_back_to_gmt() {
        for id in ["Bogus/Zone", "Z", "europe/berlin", "UTC+2"] {
            let zone = Zone::from_id(id);
            let mut name = String::new();
            zone.push_name(false, false, "", 0, &mut name);
            assert_eq!(name, "GMT", "{id}");
        }
        let berlin = Zone::from_id("Europe/Berlin");
        assert_eq!(berlin.tz.iana_name(), Some("Europe/Berlin"));
        let pst = Zone::from_id("PST");
        assert_eq!(pst.tz.iana_name(), Some("America/Los_Angeles"));
    }
}
