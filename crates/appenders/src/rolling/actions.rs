//! A rollover strategy's actions (`<Delete>`, `<PosixViewAttribute>`), built from their specs
//! when the manager starts and run in the configured order after each rollover, off the
//! logging threads.

use l4rs_config::model::{ActionSpec, RolloverStrategySpec};
use l4rs_core::status;

use super::delete::DeleteAction;
use super::posix_view::PosixViewAction;

/// One built action.
pub(crate) enum RolloverAction {
    /// `<Delete>`.
    Delete(DeleteAction),
    /// `<PosixViewAttribute>`.
    PosixView(PosixViewAction),
}

impl RolloverAction {
    /// Runs the action. A failure is reported as log4j2 reports a failed rollover action; the
    /// next action runs anyway (log4j2's `stopCustomActionsOnError` would stop them, which
    /// would leave a `<Delete>` after a failed permission change undone, and the disk filling).
    pub(crate) fn run(&self) {
        match self {
            RolloverAction::Delete(delete) => delete.run(),
            RolloverAction::PosixView(view) => {
                if let Err(error) = view.run() {
                    status::warn(format_args!(
                        "Exception reported by action 'class org.apache.logging.log4j.core.appender.rolling.RollingFileManager$AsyncAction' {error} (help: the PosixViewAttribute action on {} stopped there)",
                        view.base_path()
                    ));
                }
            }
        }
    }
}

/// The actions of `strategy`, built; one that cannot be built is reported (with the manager's
/// `key`) and left out, never run with fewer conditions than configured, which would act on
/// more files. `l4rs check` builds them too, so it reports what starting the appender does.
pub(crate) fn rollover_actions(key: &str, strategy: &RolloverStrategySpec) -> Vec<RolloverAction> {
    let (RolloverStrategySpec::Default { actions, .. }
    | RolloverStrategySpec::DirectWrite { actions, .. }) = strategy;
    actions
        .iter()
        .filter_map(|action| {
            let (kind, base_path, built) = match action {
                ActionSpec::Delete(delete) => (
                    "Delete",
                    &delete.base_path,
                    DeleteAction::new(delete).map(RolloverAction::Delete),
                ),
                ActionSpec::PosixViewAttribute(view) => (
                    "PosixViewAttribute",
                    &view.base_path,
                    PosixViewAction::new(view).map(RolloverAction::PosixView),
                ),
            };
            built
                .inspect_err(|reason| {
                    status::error(format_args!(
                        "RollingFileManager ({key}) the {kind} action on {base_path} is not run: {reason}"
                    ));
                })
                .ok()
        })
        .collect()
}
