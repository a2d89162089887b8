//! The workload of the log4j2 appender benchmark (`config-samples/log4j2-appender.xml`): one operation logs, at DEBUG, a fixed 100-character message; one
//! operation in five also passes an error whose stack is 100 calls deep, rendered in full on
//! every event.

use std::backtrace::Backtrace;
use std::fmt;
use std::sync::OnceLock;

use l4rs::Throwable;

/// The fixed message, as a macro so log macros can take it as their format string (a literal
/// costs no argument formatting, like log4j2's `logger.debug(String)`).
#[macro_export]
macro_rules! bench_message {
    () => {
        "l4rs benchmark event: a fixed one-hundred-character message, logged at DEBUG level by every thread.."
    };
}

/// The fixed message of every event: exactly 100 characters.
pub const MESSAGE: &str = bench_message!();

/// Share of operations that also pass the error (the benchmark's 0.2).
pub const ERROR_PROBABILITY: f64 = 0.2;

/// Depth of the recursion the error is captured in; with its caller that makes the benchmark's
/// 101 frames.
pub const RECURSION_DEPTH: usize = 100;

/// The error passed with one event in five.
#[derive(Debug)]
pub struct DeepError;

impl fmt::Display for DeepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("failure raised one hundred calls down, for the benchmark")
    }
}

impl std::error::Error for DeepError {}

/// The error of the workload in the forms each library takes it, all captured at the bottom of
/// one real recursion and resolved once.
pub struct ErrorFixture {
    /// The error itself.
    pub error: DeepError,
    /// l4rs's throwable: the top 101 frames (the 100 recursive calls and their caller).
    pub throwable: Throwable,
    /// The same stack as std prints it, for peers whose idiom is `{error}\n{backtrace}`;
    /// already resolved, so printing it costs no symbol look-ups.
    pub backtrace: Backtrace,
}

/// The fixture, built on first use.
pub fn fixture() -> &'static ErrorFixture {
    static FIXTURE: OnceLock<ErrorFixture> = OnceLock::new();
    FIXTURE.get_or_init(build_fixture)
}

#[inline(never)]
fn build_fixture() -> ErrorFixture {
    let (captured, backtrace) = descend(std::hint::black_box(RECURSION_DEPTH));
    // Resolve std's backtrace now (symbolication is lazy and cached), so no event pays for it.
    let _ = backtrace.to_string();
    ErrorFixture {
        error: DeepError,
        throwable: Throwable::from_error(&DeepError)
            .with_frames(benchmark_frames(captured.frames())),
        backtrace,
    }
}

/// One level of the recursion. `inline(never)` and the use of the result after the call keep
/// every level a real frame (no inlining, no tail call turned into a loop).
#[inline(never)]
fn descend(depth: usize) -> (Throwable, Backtrace) {
    if depth <= 1 {
        return (Throwable::capture(&DeepError), Backtrace::force_capture());
    }
    let captured = descend(std::hint::black_box(depth - 1));
    std::hint::black_box(&captured);
    captured
}

/// Keeps the recursion's frames and the one frame that called it, dropping the runtime frames
/// below (`main`, `lang_start`, …), so the throwable has the benchmark's 101 frames.
fn benchmark_frames(frames: &[l4rs::StackFrame]) -> Vec<l4rs::StackFrame> {
    let in_recursion = |frame: &l4rs::StackFrame| frame.method.starts_with("descend");
    let first = frames.iter().position(in_recursion).unwrap_or(0);
    let last = frames.iter().rposition(in_recursion).unwrap_or(first);
    let end = (last + 2).min(frames.len());
    frames[first..end].to_vec()
}

/// Number of frames of the recursion in the fixture's throwable (100 when nothing was inlined).
pub fn recursion_frames(throwable: &Throwable) -> usize {
    throwable
        .frames()
        .iter()
        .filter(|frame| frame.method.starts_with("descend"))
        .count()
}

/// A small, fast, per-thread random source (xorshift64*) deciding which operations pass the
/// error; seeded per thread so threads do not log in lockstep.
pub struct Coin {
    state: u64,
}

impl Coin {
    /// A coin seeded from `seed` (any value; zero is remapped).
    pub fn new(seed: u64) -> Coin {
        Coin {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        }
    }

    /// True with probability [`ERROR_PROBABILITY`].
    #[inline]
    pub fn error_this_time(&mut self) -> bool {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        let value = self.state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        // Top 53 bits as a uniform float in [0, 1).
        ((value >> 11) as f64 / (1u64 << 53) as f64) < ERROR_PROBABILITY
    }
}

/// What the workload calls on a logging library; implemented once per library.
pub trait Workload: Sync {
    /// `debug(MESSAGE)`.
    fn plain(&self);
    /// `debug(MESSAGE, error)`, with the error's full stack.
    fn with_error(&self);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_is_100_characters() {
        assert_eq!(MESSAGE.chars().count(), 100);
    }

    #[test]
    fn the_throwable_has_the_recursion_and_its_caller() {
        let fixture = fixture();
        assert_eq!(recursion_frames(&fixture.throwable), RECURSION_DEPTH);
        assert_eq!(fixture.throwable.frames().len(), RECURSION_DEPTH + 1);
        assert!(fixture.throwable.class_name().ends_with("DeepError"));
        assert!(fixture.backtrace.to_string().contains("descend"));
    }

    #[test]
    fn about_one_operation_in_five_passes_the_error() {
        let mut coin = Coin::new(42);
        let hits = (0..100_000).filter(|_| coin.error_this_time()).count();
        assert!((19_000..21_000).contains(&hits), "{hits}");
    }
}
