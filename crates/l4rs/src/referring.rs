//! The appenders that write through other appenders (`<Async>`, `<Failover>`, `<Rewrite>`,
//! `<Routing>`): built once the appenders they name exist, so that one may refer to another
//! declared anywhere in the file.

use std::collections::HashMap;
use std::sync::Arc;

use l4rs_async::{AsyncAppender, AsyncSettings};
use l4rs_config::model::{AppenderKind, AppenderSpec};
use l4rs_config::Configuration;
use l4rs_core::{status, Interpolator};

use crate::appender_control::AppenderControl;
use crate::asynchronous::{build_async_appender, Gate};
use crate::check::BuildMode;
use crate::context::appender_subject;

/// True for the kinds [`build_referring_appenders`] builds.
pub(crate) fn refers_to_appenders(kind: &AppenderKind) -> bool {
    matches!(
        kind,
        AppenderKind::Async(_)
            | AppenderKind::Failover(_)
            | AppenderKind::Rewrite(_)
            | AppenderKind::Routing(_)
    )
}

/// The appender names `kind` refers to.
fn references(kind: &AppenderKind) -> Vec<&str> {
    match kind {
        AppenderKind::Async(spec) => spec
            .appender_refs
            .iter()
            .map(|reference| reference.appender.as_str())
            .chain(spec.error_ref.as_deref())
            .collect(),
        AppenderKind::Failover(spec) => crate::failover::referenced(spec).collect(),
        AppenderKind::Rewrite(spec) => crate::rewrite::referenced(spec).collect(),
        AppenderKind::Routing(spec) => spec.referenced().collect(),
        _ => Vec::new(),
    }
}

/// Builds the appenders that refer to others: repeatedly, those whose references are all built
/// (or absent), so that an Async appender may feed a Failover one and the reverse. Those left
/// form a cycle and are not created. Returns the Async appenders' queues. `configuration` is
/// what Routing appenders build their routes' appenders with (given when there is one).
#[allow(clippy::too_many_arguments)]
pub(crate) fn build_referring_appenders(
    specs: &[&AppenderSpec],
    settings: &AsyncSettings,
    by_name: &mut HashMap<String, Arc<AppenderControl>>,
    appenders: &mut Vec<Arc<AppenderControl>>,
    mode: &BuildMode,
    gate: &Arc<Gate>,
    interpolator: &Arc<dyn Interpolator>,
    configuration: Option<&Arc<Configuration>>,
) -> Vec<Arc<AsyncAppender>> {
    let mut pending: Vec<&AppenderSpec> = specs.to_vec();
    let mut built = Vec::new();
    loop {
        let waits_for_pending = |spec: &AppenderSpec| {
            references(&spec.kind)
                .into_iter()
                .any(|name| pending.iter().any(|other| other.name == name))
        };
        let (ready, waiting): (Vec<_>, Vec<_>) = pending
            .iter()
            .copied()
            .partition(|spec| !waits_for_pending(spec));
        if ready.is_empty() {
            break;
        }
        for spec in ready {
            let built_one = mode.element(
                spec.position,
                || appender_subject(spec),
                || {
                    build_one(
                        spec,
                        settings,
                        by_name,
                        mode,
                        gate,
                        interpolator,
                        configuration,
                    )
                },
            );
            if let Some((control, queue)) = built_one {
                by_name.insert(spec.name.clone(), Arc::clone(&control));
                appenders.push(control);
                built.extend(queue);
            }
        }
        pending = waiting;
    }
    for spec in pending {
        mode.element(spec.position, || appender_subject(spec), || {
            let kind = match spec.kind {
                AppenderKind::Async(_) => "Async",
                AppenderKind::Rewrite(_) => "Rewrite",
                AppenderKind::Routing(_) => "Routing",
                _ => "Failover",
            };
            status::error(format_args!(
                "{kind}Appender {} refers to itself through other appenders; the appender is not created",
                spec.name
            ))
        });
    }
    built
}

fn build_one(
    spec: &AppenderSpec,
    settings: &AsyncSettings,
    by_name: &HashMap<String, Arc<AppenderControl>>,
    mode: &BuildMode,
    gate: &Arc<Gate>,
    interpolator: &Arc<dyn Interpolator>,
    configuration: Option<&Arc<Configuration>>,
) -> Option<(Arc<AppenderControl>, Option<Arc<AsyncAppender>>)> {
    match &spec.kind {
        AppenderKind::Async(async_spec) => {
            build_async_appender(spec, async_spec, settings, by_name, mode, gate)
        }
        // Nothing outside is touched, so checking builds the real thing (Rewrite too).
        AppenderKind::Failover(failover) => {
            crate::failover::build_failover_appender(spec, failover, by_name)
                .map(|control| (Arc::new(control), None))
        }
        AppenderKind::Rewrite(rewrite) => Some((
            Arc::new(crate::rewrite::build_rewrite_appender(
                spec,
                rewrite,
                by_name,
                interpolator,
            )),
            None,
        )),
        AppenderKind::Routing(routing) => Some((
            Arc::new(crate::routing::build_routing_appender(
                spec,
                routing,
                by_name,
                configuration?,
                mode,
            )),
            None,
        )),
        _ => None,
    }
}
