//! The `tracing_http` example: axum's and the example's `tracing` events reach its RollingFile
//! as one JSON object a line, with fields, spans and location.

#[path = "../examples/tracing_http.rs"]
mod example;

#[test]
fn the_http_example_logs_json_lines_of_its_own_and_axums_events() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tracing-example");
    let _ = std::fs::remove_dir_all(&dir);
    let statuses = example::run(&dir.display().to_string());
    assert_eq!(
        statuses,
        [
            "HTTP/1.1 200 OK",
            "HTTP/1.1 200 OK",
            "HTTP/1.1 400 Bad Request"
        ]
    );
    let text = std::fs::read_to_string(dir.join("http.log")).expect("the example's log");
    let events: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let find = |message: &str| {
        events
            .iter()
            .find(|event| {
                event["message"]
                    .as_str()
                    .is_some_and(|m| m.starts_with(message))
            })
            .unwrap_or_else(|| panic!("no event '{message}' in {text}"))
    };
    let listening = find("listening");
    assert_eq!(listening["logger"], "shop");
    assert_eq!(listening["level"], "INFO");
    assert!(listening["fields"]
        .as_str()
        .unwrap()
        .starts_with("{addr=127.0.0.1:"));
    assert!(listening["source"]
        .as_str()
        .unwrap()
        .starts_with("tracing_example::example:"));
    assert_eq!(find("index served")["spans"], "[]");
    let lookup = find("looking up item 7");
    assert_eq!(lookup["level"], "DEBUG");
    assert_eq!(lookup["spans"], "[item]");
    assert_eq!(lookup["fields"], "{cache=miss, id=7}");
    assert!(lookup["thread"]
        .as_str()
        .unwrap()
        .starts_with("http-worker"));
    let rejection = find("rejecting request");
    assert_eq!(rejection["logger"], "axum::rejection");
    assert_eq!(rejection["level"], "TRACE");
    let fields = rejection["fields"].as_str().unwrap();
    assert!(fields.contains("status=400"), "{fields}");
    assert!(
        fields.contains("rejection_type=axum::extract::path::FailedToDeserializePathParams"),
        "{fields}"
    );
    // axum::serve logs each accepted connection at TRACE.
    let accepted = events
        .iter()
        .filter(|event| event["logger"] == "axum::serve")
        .filter(|event| event["message"].as_str().unwrap().ends_with(" accepted"))
        .count();
    assert_eq!(accepted, 3, "{text}");
    assert_eq!(events.len(), 7, "{text}");
}
