//! Whether the process has a console, as log4j2's `noConsoleNoAnsi` asks it.
//!
//! log4j2 turns ANSI off under `noConsoleNoAnsi="true"` when `System.console()` is null, for
//! every layout whatever its appender writes to (a File appender's layout included). Java 17
//! gives a console exactly when standard input and standard output are both terminals; which
//! stream an appender writes to does not matter.

use std::io::IsTerminal;
use std::sync::OnceLock;

/// Java 17's `System.console() != null` for a process whose stdin and stdout are, or are not,
/// terminals.
pub(crate) fn has_console(stdin_is_terminal: bool, stdout_is_terminal: bool) -> bool {
    stdin_is_terminal && stdout_is_terminal
}

/// [`has_console`] for this process, decided once (as Java decides `System.console()` once).
pub(crate) fn process_has_console() -> bool {
    static CONSOLE: OnceLock<bool> = OnceLock::new();
    *CONSOLE.get_or_init(|| {
        has_console(
            std::io::stdin().is_terminal(),
            std::io::stdout().is_terminal(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_console_needs_both_stdin_and_stdout_on_a_terminal() {
        assert!(has_console(true, true));
        assert!(!has_console(true, false));
        assert!(!has_console(false, true));
        assert!(!has_console(false, false));
    }

    #[test]
    fn the_process_answer_follows_its_own_stdin_and_stdout() {
        let expected = has_console(
            std::io::stdin().is_terminal(),
            std::io::stdout().is_terminal(),
        );
        assert_eq!(process_has_console(), expected);
    }
}
