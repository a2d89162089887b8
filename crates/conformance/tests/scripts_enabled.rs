//! Scripts with `log4j2.Script.enableLanguages` set, against log4j2: both libraries read the
//! property from `LOG4J_SCRIPT_ENABLE_LANGUAGES`, which a scenario cannot carry, so this test
//! sets it for both replays of each scenario in `tests/scripts-enabled/` and compares their
//! status lines (l4rs's ` (help: …)` endings cut off) and every file they wrote. The oracle has
//! no script engine on its class path, which is what l4rs is: log4j2's script manager refuses
//! every script, and l4rs must refuse them in the same words. (Without the property, the
//! default, scenario 503 covers the script plugins in the main suite.)

mod common;

use std::path::Path;

use common::{files_under, replay_both, replay_into_with_env, require_oracle, status_lines};

/// The languages the scenarios enable, as a user would list them.
const LANGUAGES: &str = "groovy,javascript";

#[test]
fn script_plugins_are_refused_as_log4j2_refuses_them_without_an_engine() {
    if !require_oracle("the scripts-enabled comparison") {
        return;
    }
    let replay = |command: &Path, scenario: &Path, out: &Path, oracle: bool| {
        let _ = std::fs::remove_dir_all(out);
        let env = [("LOG4J_SCRIPT_ENABLE_LANGUAGES", LANGUAGES)];
        let stderr = replay_into_with_env(command, scenario, out, oracle, &env);
        Some((
            status_lines(&stderr, scenario, out, !oracle),
            files_under(out),
        ))
    };
    let replays = replay_both("scripts-enabled", "scripts-enabled", replay).expect("no server");
    assert!(!replays.is_empty(), "the scenarios are missing");
    for both in replays {
        let ((their_status, their_files), (our_status, our_files)) = (both.theirs, both.ours);
        assert!(
            their_status
                .iter()
                .any(|line| line.contains("No ScriptEngine found")),
            "{}: log4j2 did not read the property: {their_status:#?}",
            both.name
        );
        assert_eq!(our_status, their_status, "{}: status lines", both.name);
        assert_eq!(our_files, their_files, "{}: files", both.name);
    }
}
