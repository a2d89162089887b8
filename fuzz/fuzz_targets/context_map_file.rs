//! MutableThreadContextMapFilter's JSON file of key/value pairs
//! (`l4rs_config::context_map_file::parse`): any bytes are read without a panic; pairs, when
//! there are some, have a key and at least one value each, and reading the same bytes again
//! gives the same pairs and warnings.
//!
//! Input: the file's bytes.
#![no_main]

use l4rs_config::context_map_file::{parse, ContextMapFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut warnings = Vec::new();
    let first = parse(data, &mut |warning| warnings.push(warning));
    if let ContextMapFile::Pairs(pairs) = &first {
        assert!(!pairs.is_empty());
        for (_, values) in pairs {
            assert!(!values.is_empty());
        }
    }
    let mut again = Vec::new();
    assert_eq!(parse(data, &mut |warning| again.push(warning)), first);
    assert_eq!(again, warnings);
});
