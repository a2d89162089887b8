//! XmlLayout and YamlLayout: the bytes equal what the live log4j2 oracle wrote for the
//! conformance scenarios' files (their stored `expected/` copies, so this runs without Java;
//! crates/conformance/tests/scenarios/491-495), each piece encoded on its own as log4j2 encodes it,
//! and formatting allocates nothing once warm.

mod common;

use common::{
    assert_warm_formatting_allocates_nothing, scenario_dir, scenario_events, scenario_files,
    written, OwnedEvent,
};
use l4rs_config::model::{JsonLayoutSpec, LayoutSpec};
use l4rs_core::Layout;
use l4rs_layout::{LayoutContext, XmlLayout, YamlLayout};
use l4rs_test_support::allocations::{self, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

fn build(spec: &LayoutSpec) -> Option<Box<dyn Layout>> {
    match spec {
        LayoutSpec::Xml(spec) => Some(Box::new(XmlLayout::new(spec, LayoutContext::default()))),
        LayoutSpec::Yaml(spec) => Some(Box::new(YamlLayout::new(spec, LayoutContext::default()))),
        _ => None,
    }
}

#[test]
fn files_equal_what_log4j2_wrote() {
    let (mut checked, mut stored) = (0, 0);
    for scenario in [
        "491-xml-layout-compact",
        "492-xml-layout-exceptions",
        "494-yaml-layout-options",
        "495-yaml-layout-exceptions",
    ] {
        let dir = scenario_dir(scenario);
        let events = scenario_events(scenario);
        stored += std::fs::read_dir(dir.join("expected/files"))
            .unwrap()
            .count();
        for file in scenario_files(&dir) {
            let Some(layout) = file.layout.as_ref().and_then(build) else {
                continue;
            };
            let events: &[OwnedEvent] = if file.gets_events { &events } else { &[] };
            let expected = std::fs::read(dir.join("expected/files").join(&file.file)).unwrap();
            assert_eq!(
                String::from_utf8_lossy(&written(layout.as_ref(), events)),
                String::from_utf8_lossy(&expected),
                "{scenario}/{}",
                file.file
            );
            checked += 1;
        }
    }
    assert_eq!(checked, stored, "every file the oracle wrote is checked");
}

#[test]
fn formatting_allocates_nothing_once_warm() {
    let probe = allocations::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert!(probe >= 1, "the counting allocator must see allocations");
    let events: Vec<OwnedEvent> = [
        "490-xml-layout-pretty",
        "492-xml-layout-exceptions",
        "493-yaml-layout",
    ]
    .iter()
    .flat_map(|name| scenario_events(name))
    .collect();
    let rich = JsonLayoutSpec {
        properties: true,
        location_info: true,
        additional_fields: vec![("app".into(), "orders".into())],
        ..JsonLayoutSpec::default()
    };
    let strings = JsonLayoutSpec {
        compact: true,
        complete: true,
        properties: true,
        stacktrace_as_string: true,
        include_time_millis: true,
        ..JsonLayoutSpec::default()
    };
    let layouts: Vec<(&str, Box<dyn Layout>)> = vec![
        (
            "xml",
            Box::new(XmlLayout::new(&rich, LayoutContext::default())),
        ),
        (
            "xml strings",
            Box::new(XmlLayout::new(&strings, LayoutContext::default())),
        ),
        (
            "yaml",
            Box::new(YamlLayout::new(&rich, LayoutContext::default())),
        ),
        (
            "yaml strings",
            Box::new(YamlLayout::new(&strings, LayoutContext::default())),
        ),
    ];
    for (name, layout) in &layouts {
        assert_warm_formatting_allocates_nothing(layout.as_ref(), &events, name);
    }
}
