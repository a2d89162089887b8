//! log4j2's bundled templates, embedded so that `classpath:` URIs resolve without a class path
//! (the files and their origin are in `templates/`, see `templates/README.md`).

/// `(classpath resource name, template text)` of every bundled template.
const BUNDLED: [(&str, &str); 6] = [
    ("EcsLayout.json", include_str!("templates/EcsLayout.json")),
    ("GcpLayout.json", include_str!("templates/GcpLayout.json")),
    ("GelfLayout.json", include_str!("templates/GelfLayout.json")),
    ("JsonLayout.json", include_str!("templates/JsonLayout.json")),
    (
        "LogstashJsonEventLayoutV1.json",
        include_str!("templates/LogstashJsonEventLayoutV1.json"),
    ),
    (
        "StackTraceElementLayout.json",
        include_str!("templates/StackTraceElementLayout.json"),
    ),
];

/// The bundled template named `resource` (a leading `/` is allowed, as on a class path).
pub(crate) fn bundled(resource: &str) -> Option<&'static str> {
    let resource = resource.strip_prefix('/').unwrap_or(resource);
    BUNDLED
        .iter()
        .find(|(name, _)| *name == resource)
        .map(|(_, text)| *text)
}

/// The names of the bundled templates, for messages.
pub(crate) fn names() -> String {
    let names: Vec<&str> = BUNDLED.iter().map(|(name, _)| *name).collect();
    names.join(", ")
}

/// Reads the template at `uri`: `classpath:NAME` for a bundled template, `file:PATH` (or
/// `file://PATH`) for a file.
pub(crate) fn read_uri(uri: &str) -> Result<String, String> {
    if let Some(resource) = uri.strip_prefix("classpath:") {
        return bundled(resource).map(str::to_string).ok_or_else(|| {
            format!(
                "could not locate classpath resource (uri={uri}); l4rs bundles {}",
                names()
            )
        });
    }
    if let Some(path) = uri.strip_prefix("file:") {
        // `file:///etc/t.json` and `file:/etc/t.json` both name /etc/t.json.
        let path = path.strip_prefix("//").unwrap_or(path);
        return std::fs::read_to_string(path)
            .map_err(|error| format!("failed reading URI (uri={uri}): {error}"));
    }
    Err(format!(
        "unknown URI scheme (uri={uri}); use classpath:NAME for a bundled template or file:PATH"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_template_is_json() {
        for (name, text) in BUNDLED {
            assert!(
                super::super::reader::read(text).is_ok(),
                "{name} does not parse"
            );
        }
        assert!(bundled("/EcsLayout.json").is_some());
        assert!(read_uri("classpath:Nope.json")
            .unwrap_err()
            .contains("EcsLayout.json"));
        assert!(read_uri("http://x").is_err());
    }
}
