//! An appender that takes over a file another kind of appender of the replaced configuration
//! still writes (the appender on the file changed type across a reload): built only once that
//! configuration has stopped, so the two never have the file at once (see
//! `l4rs_appenders::held_by_another_kind` for what log4j2 does instead).

use std::sync::{Arc, OnceLock};

use l4rs_appenders::RollingContext;
use l4rs_config::model::AppenderSpec;
use l4rs_core::{status, AppendError, Appender, Layout, LogEvent};

/// The new appender, built at its first use or when [`HandedOver::open`] is called after the
/// switch, whichever comes first. Until then nothing of it exists: no file is opened.
pub(crate) struct HandedOver {
    name: String,
    /// The appender as configured, with `append` set: the file continues.
    spec: AppenderSpec,
    layout: Arc<dyn Layout>,
    rolling: RollingContext,
    requires_location: bool,
    /// The built appender; `None` when building it failed (reported then).
    built: OnceLock<Option<Arc<dyn Appender>>>,
}

impl HandedOver {
    /// The appender `spec` will be, with its `layout`, built later.
    pub(crate) fn new(
        spec: &AppenderSpec,
        layout: Arc<dyn Layout>,
        rolling: RollingContext,
    ) -> HandedOver {
        HandedOver {
            name: spec.name.clone(),
            spec: l4rs_appenders::continuing_spec(spec),
            requires_location: layout.requires_location(),
            layout,
            rolling,
            built: OnceLock::new(),
        }
    }

    /// Builds the appender, once: opens its file where the previous manager left it.
    pub(crate) fn open(&self) -> Option<&Arc<dyn Appender>> {
        self.built
            .get_or_init(|| {
                match l4rs_appenders::build_appender_with(
                    &self.spec,
                    Arc::clone(&self.layout),
                    &self.rolling,
                ) {
                    Ok(appender) => Some(appender),
                    Err(error) => {
                        status::error(error.with_help());
                        None
                    }
                }
            })
            .as_ref()
    }
}

impl Appender for HandedOver {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        match self.open() {
            Some(appender) => appender.append(event),
            None => Err(AppendError::NotStarted(self.name.clone())),
        }
    }

    fn flush(&self) -> Result<(), AppendError> {
        match self.built.get() {
            Some(Some(appender)) => appender.flush(),
            _ => Ok(()),
        }
    }

    fn stop(&self) {
        if let Some(Some(appender)) = self.built.get() {
            appender.stop();
        }
    }

    fn requires_location(&self) -> bool {
        self.requires_location
    }
}
