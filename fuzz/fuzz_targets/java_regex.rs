//! The Java-regex translation (`RegexFilter`, `%replace`, `<Replace>`, `IfFileName`) of
//! l4rs-java-syntax: translate, compile the result, match it against a text and replace in it.
//!
//! Input: `java-regex NUL haystack`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some([java, haystack]) = l4rs_fuzz::text_fields::<2>(data) else {
        return;
    };
    let Ok(translated) = l4rs_java_syntax::regex::translate(java) else {
        return;
    };
    let Ok(regex) = regex::RegexBuilder::new(&translated)
        .size_limit(1 << 22)
        .build()
    else {
        return;
    };
    let _ = regex.is_match(haystack);
    let _ = regex.replace_all(haystack, "$0");
    if let Ok(replacement) = l4rs_java_syntax::regex::Replacement::new(java, "<$0>") {
        let mut out = String::new();
        replacement.apply(haystack, &mut out);
    }
});
