//! Whether the process has a console, as log4j2's `noConsoleNoAnsi` asks it.
//!
//! log4j2 turns ANSI off under `noConsoleNoAnsi="true"` when `System.console()` is null, for
//! every layout whatever its appender writes to (a File appender's layout included). Java 17
//! gives a console exactly when standard input and standard output are both terminals; which
//! stream an appender writes to does not matter.

use std::io::IsTerminal;
use std::sync::OnceLock;

/// Java 17's `System.console() != null` for this process (stdin and stdout both terminals),
/// decided once, as Java decides `System.console()` once.
pub(crate) fn process_has_console() -> bool {
    static CONSOLE: OnceLock<bool> = OnceLock::new();
    *CONSOLE.get_or_init(|| std::io::stdin().is_terminal() && std::io::stdout().is_terminal())
}
