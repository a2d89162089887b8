//! A one-line progress bar on stderr, drawn without allocating (it is redrawn inside measured
//! windows, whose allocations are counted). Off the terminal it prints one line per step.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;

/// Width of the bar in characters.
const WIDTH: usize = 30;

struct State {
    total_seconds: f64,
    done_seconds: f64,
    step_seconds: f64,
    label: String,
}

/// Progress through a run whose steps have known durations.
pub struct Progress {
    mode: Mode,
    state: Mutex<State>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Bar,
    Lines,
    Hidden,
}

impl Progress {
    /// A bar on a terminal, step lines otherwise, for a run expected to take `total_seconds`.
    pub fn new(total_seconds: f64) -> Progress {
        let mode = if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Lines
        };
        Progress::with_mode(mode, total_seconds)
    }

    /// Shows nothing (tests, child processes).
    pub fn hidden() -> Progress {
        Progress::with_mode(Mode::Hidden, 1.0)
    }

    fn with_mode(mode: Mode, total_seconds: f64) -> Progress {
        Progress {
            mode,
            state: Mutex::new(State {
                total_seconds: total_seconds.max(1e-9),
                done_seconds: 0.0,
                step_seconds: 0.0,
                label: String::new(),
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts a step expected to take `seconds`, completing the previous one.
    pub fn step(&self, label: &str, seconds: f64) {
        {
            let mut state = self.state();
            state.done_seconds += state.step_seconds;
            state.step_seconds = seconds;
            state.label.clear();
            state.label.push_str(label);
        }
        match self.mode {
            Mode::Lines => eprintln!("l4rs-bench: {label}"),
            Mode::Bar => self.set_fraction(0.0),
            Mode::Hidden => {}
        }
    }

    /// Redraws the bar with the current step `fraction` done.
    pub fn set_fraction(&self, fraction: f64) {
        if self.mode != Mode::Bar {
            return;
        }
        let state = self.state();
        let done = (state.done_seconds + state.step_seconds * fraction.clamp(0.0, 1.0))
            / state.total_seconds;
        let mut line = [b' '; 200];
        let used = render(&mut line, done, &state.label);
        let mut stderr = std::io::stderr().lock();
        let _ = stderr.write_all(&line[..used]);
        let _ = stderr.flush();
    }

    /// Clears the bar so the report starts on a clean line.
    pub fn finish(&self) {
        if self.mode == Mode::Bar {
            let mut stderr = std::io::stderr().lock();
            let _ = stderr.write_all(b"\r\x1b[2K");
            let _ = stderr.flush();
        }
    }
}

/// Writes `\r[####----]  42% label` into `out` (clearing the rest of the line) and returns the
/// number of bytes used.
fn render(out: &mut [u8], done: f64, label: &str) -> usize {
    let done = done.clamp(0.0, 1.0);
    let filled = (done * WIDTH as f64).round() as usize;
    let mut cursor = std::io::Cursor::new(&mut *out);
    let _ = cursor.write_all(b"\r\x1b[2K[");
    for i in 0..WIDTH {
        let _ = cursor.write_all(if i < filled { b"#" } else { b"-" });
    }
    let _ = write!(cursor, "] {:>3.0}% ", done * 100.0);
    // Cut the label at a character boundary if the line is full.
    let room = out_len(&cursor).saturating_sub(cursor.position() as usize);
    let mut end = label.len().min(room);
    while !label.is_char_boundary(end) {
        end -= 1;
    }
    let _ = cursor.write_all(&label.as_bytes()[..end]);
    cursor.position() as usize
}

fn out_len(cursor: &std::io::Cursor<&mut [u8]>) -> usize {
    cursor.get_ref().len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_bar_with_percentage_and_label() {
        let mut out = [0u8; 200];
        let used = render(&mut out, 0.5, "File: measuring");
        let text = std::str::from_utf8(&out[..used]).unwrap();
        assert!(text.starts_with("\r\x1b[2K[###############---------------]"));
        assert!(text.ends_with(" 50% File: measuring"), "{text:?}");
    }

    #[test]
    fn long_labels_are_cut_at_a_character_boundary() {
        let mut out = [0u8; 50];
        let used = render(&mut out, 1.0, &"é".repeat(40));
        assert!(std::str::from_utf8(&out[..used]).is_ok());
        assert!(used <= 50);
    }

    #[test]
    fn rendering_does_not_allocate() {
        let mut out = [0u8; 200];
        let before = crate::alloc::this_thread();
        render(&mut out, 0.25, "label");
        assert_eq!(crate::alloc::this_thread().since(before).count, 0);
    }
}
