//! The RELP frame reader of `protocol="RELP"` (what a receiver sends back: responses and
//! hints), fed in pieces of every size the first byte picks, as responses arrive from the
//! socket in any split.
//!
//! Input: `piece-size byte, receiver bytes`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&piece, wire)) = data.split_first() else {
        return;
    };
    let whole = l4rs_appenders::fuzzing::fuzz_relp_frames(wire, wire.len());
    let split = l4rs_appenders::fuzzing::fuzz_relp_frames(wire, usize::from(piece));
    // A frame read whole or in pieces is the same frame.
    assert_eq!(whole, split);
});
