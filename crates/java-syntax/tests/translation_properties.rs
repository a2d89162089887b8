//! Property tests of the Java-regex translation (docs/robustness.md): any text translates or
//! is rejected without panicking, a translation either compiles or is reported by the regex
//! crate, the replacement never panics, and a plain word translated for `matches()` matches
//! exactly itself.

use l4rs_java_syntax::regex::{translate, translate_whole, Replacement};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn translation_never_panics(
        java in "([-a-z.*+?()\\[\\]{}|^$&,:<>=!#0-9]|\\\\[a-zA-Z0-9QEpPk]|\\(\\?[imsxu-]{0,3}[:)]|\\\\p\\{[A-Za-z]{0,6}\\}|\\[\\[a-z\\]&&\\[\\^b\\]\\]){0,12}|.{0,16}",
        haystack in ".{0,16}",
    ) {
        if let Ok(translated) = translate(&java) {
            if let Ok(regex) = regex::RegexBuilder::new(&translated).size_limit(1 << 22).build() {
                let _ = regex.is_match(&haystack);
            }
        }
        if let Ok(replacement) = Replacement::new(&java, "<$0>") {
            let mut out = String::new();
            replacement.apply(&haystack, &mut out);
        }
    }

    #[test]
    fn a_plain_word_matches_only_itself(word in "[a-zA-Z0-9_ ]{0,16}", other in "[a-zA-Z0-9_ ]{0,16}") {
        let translated = translate_whole(&word).expect("a plain word translates");
        let regex = regex::Regex::new(&translated).expect("and compiles");
        prop_assert!(regex.is_match(&word));
        prop_assert_eq!(regex.is_match(&other), other == word);
    }
}
