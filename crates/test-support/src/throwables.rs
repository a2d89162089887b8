//! Throwables as deep as the log4j2 appender benchmark's (`config-samples/log4j2-appender.xml`
//! logs one event in five with an error 101 frames deep), for the tests and micro-benchmarks
//! that must format or copy one as the benchmark does.

use l4rs_core::{StackFrame, Throwable};

/// A throwable captured `depth` calls deep, so that it has `depth + 1` frames of its own above
/// its caller's (the zero-allocation tests use 100, the benchmark's 101 frames). The frames are
/// real: [`Throwable::capture`] at the bottom of a real recursion.
#[inline(never)]
pub fn deep_throwable(depth: usize) -> Throwable {
    if depth == 0 {
        Throwable::capture(&std::io::Error::other("benchmark throwable"))
    } else {
        let throwable = deep_throwable(depth - 1);
        // Used after the call, so the recursion is neither inlined nor turned into a loop.
        std::hint::black_box(&throwable);
        throwable
    }
}

/// The benchmark's error as l4rs-bench captures and resolves it, written out: 100 recursive
/// frames and their caller, as Rust frames resolve (module path, function, file name, line).
/// The same on every run and every machine, unlike [`deep_throwable`].
pub fn benchmark_throwable() -> Throwable {
    let mut frames: Vec<StackFrame> = (0..100)
        .map(|depth| {
            StackFrame::rust(
                "l4rs_bench::workload",
                "descend",
                Some("workload.rs"),
                if depth == 0 { 77 } else { 79 },
            )
        })
        .collect();
    frames.push(StackFrame::rust(
        "l4rs_bench::workload",
        "build_fixture",
        Some("workload.rs"),
        62,
    ));
    Throwable::new("l4rs_bench::workload::DeepError")
        .with_message("failure raised one hundred calls down, for the benchmark")
        .with_frames(frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_are_as_deep_as_the_benchmark_asks() {
        assert_eq!(benchmark_throwable().frames().len(), 101);
        let captured = deep_throwable(100);
        let own = captured
            .frames()
            .iter()
            .filter(|frame| frame.method.contains("deep_throwable"))
            .count();
        assert_eq!(own, 101, "{:#?}", captured.frames());
    }
}
