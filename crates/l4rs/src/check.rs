//! Checking a configuration without starting it: what `l4rs check` reports.
//!
//! [`check_configuration`] builds the configuration through the very code [`crate::init`]
//! builds it with (`Context::build`), in [`BuildMode::Check`]: every layout, filter, appender
//! reference and Async appender is built as starting would build it, but each file appender is
//! judged instead of opened (`l4rs_appenders::check_appender`: nothing is opened, created or
//! deleted) and no queue or thread is started. What building reports is collected per element,
//! with the element's position, so the two cannot disagree about what is wrong.

use std::cell::RefCell;

use l4rs_config::{Configuration, Position};
use l4rs_core::{status, AppendError, Appender, Level, LogEvent};

use crate::asynchronous::Gate;
use crate::context::Context;

/// One thing building a configuration reported, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// ERROR (starting the configuration would fail this element, or lose it) or WARN.
    pub level: Level,
    /// The element it is about, when it has a position.
    pub position: Option<Position>,
    /// The element, e.g. `appender "File"` or `logger "root"`; empty when the message names
    /// the element itself.
    pub subject: String,
    /// What was reported, as the status logger reports it when the configuration starts.
    pub message: String,
}

/// Builds `configuration` as [`crate::init`] would, without side effects (see the module
/// documentation), and returns every ERROR and WARN building it reported, in building order.
/// The file's own diagnostics (`configuration.diagnostics`) are not repeated here.
pub fn check_configuration(configuration: &Configuration) -> Vec<Finding> {
    let mode = BuildMode::Check(RefCell::default());
    mode.element(
        None,
        || "log4j2.contextSelector".to_string(),
        crate::context_selector::all_loggers_asynchronous,
    );
    let context = Context::build_with(configuration.clone(), &mode, &Gate::opened());
    drop(context);
    match mode {
        BuildMode::Check(findings) => findings.into_inner(),
        BuildMode::Start => Vec::new(),
    }
}

/// How `Context::build` treats the outside world.
pub(crate) enum BuildMode {
    /// Open files, start queues and threads: the configuration is put in force.
    Start,
    /// Judge files without opening them and start nothing; what each element reports is
    /// collected here.
    Check(RefCell<Vec<Finding>>),
}

impl BuildMode {
    /// True when files are to be judged rather than opened.
    pub(crate) fn checking(&self) -> bool {
        matches!(self, BuildMode::Check(_))
    }

    /// Runs `build`, the building of the element at `position`; when checking, what it reports
    /// is collected as that element's findings (and not printed).
    pub(crate) fn element<R>(
        &self,
        position: Option<Position>,
        subject: impl FnOnce() -> String,
        build: impl FnOnce() -> R,
    ) -> R {
        let BuildMode::Check(findings) = self else {
            return build();
        };
        let (result, records) = status::capture(build);
        let subject = subject();
        findings.borrow_mut().extend(
            records
                .into_iter()
                .filter(|record| record.level.is_at_least_as_severe_as(Level::WARN))
                .map(|record| Finding {
                    level: if record.level.is_at_least_as_severe_as(Level::ERROR) {
                        Level::ERROR
                    } else {
                        Level::WARN
                    },
                    position,
                    subject: subject.clone(),
                    message: record.message,
                }),
        );
        result
    }
}

/// Stands in, when checking, for an appender that starting would build: it has the appender's
/// name and says whether its layout prints the location (which the routing's location rules
/// depend on), and writes nothing.
pub(crate) struct CheckedAppender {
    pub(crate) name: String,
    pub(crate) requires_location: bool,
}

impl Appender for CheckedAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, _: &LogEvent<'_>) -> Result<(), AppendError> {
        Err(AppendError::NotStarted(self.name.clone()))
    }

    fn requires_location(&self) -> bool {
        self.requires_location
    }
}
