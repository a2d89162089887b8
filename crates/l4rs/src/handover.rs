//! An appender that takes over a file another kind of appender of the replaced configuration
//! still writes (the appender on the file changed type across a reload): built only once that
//! configuration has stopped, so the two never have the file at once (see
//! `l4rs_appenders::held_by_another_kind` for what log4j2 does instead).

use std::sync::{Arc, OnceLock};

use l4rs_appenders::RollingContext;
use l4rs_config::model::AppenderSpec;
use l4rs_core::{status, AppendError, Appender, Layout, LogEvent};

/// The new appender, built only by [`HandedOver::open`], which the reconfiguration calls once
/// the replaced configuration has stopped (`Context::complete_handovers`). Until then nothing
/// of it exists: no file is opened, and an event that reaches it (a call that waited past the
/// caller gate's 30 s bound, or a call nested in another that does not wait) fails as a
/// non-started appender's, reported, instead of opening the file beside the old manager.
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
        match self.built.get() {
            Some(Some(appender)) => appender.append(event),
            _ => Err(AppendError::NotStarted(self.name.clone())),
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

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_config::model::PatternLayoutSpec;
    use l4rs_core::{Level, Message};

    #[test]
    fn an_event_before_the_hand_over_opens_nothing() {
        let dir = std::env::temp_dir().join(format!("l4rs-handover-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        let path = dir.join("taken-over.log");
        let _ = std::fs::remove_file(&path);
        let xml = format!(
            r#"<Configuration><Appenders><File name="F" fileName="{}"/></Appenders><Loggers><Root level="off"/></Loggers></Configuration>"#,
            path.display()
        );
        let spec = l4rs_config::load_str(&xml, None)
            .expect("parses")
            .appenders
            .remove(0);
        let pattern = PatternLayoutSpec {
            pattern: "%m%n".into(),
            ..PatternLayoutSpec::default()
        };
        let layout = Arc::new(l4rs_layout::PatternLayout::new(
            &pattern,
            Default::default(),
        ));
        let handover = HandedOver::new(&spec, layout, RollingContext::default());
        let event = LogEvent::new("a", Level::INFO, Message::Text("early"));
        // A call that went past the gate before the old configuration stopped.
        assert!(matches!(
            handover.append(&event),
            Err(AppendError::NotStarted(name)) if name == "F"
        ));
        assert!(!path.exists(), "the file was opened before the hand-over");
        handover.open().expect("built");
        let event = LogEvent::new("a", Level::INFO, Message::Text("after"));
        handover.append(&event).expect("appends once handed over");
        handover.stop();
        assert_eq!(std::fs::read_to_string(&path).expect("written"), "after\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
