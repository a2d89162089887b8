//! The workspace's `rust-version` is what the build really needs.
//!
//! Two halves check it (docs/architecture.md, "Conventions"): clippy's `incompatible_msrv`
//! (part of `cargo clippy --workspace -D warnings`) refuses standard-library items newer than
//! the `rust-version` each crate inherits, and this test refuses a locked dependency that
//! declares a newer `rust-version` than the workspace (cargo would refuse to build it with the
//! declared toolchain), and a crate that does not inherit the workspace's value (clippy would
//! then check it against nothing).

use std::process::Command;

use serde_json::Value;

/// `1.82` or `1.82.0` as comparable numbers.
fn version(text: &str) -> (u64, u64, u64) {
    let mut parts = text.split('.').map(|part| part.parse::<u64>().unwrap_or(0));
    let mut next = || parts.next().unwrap_or(0);
    (next(), next(), next())
}

/// `cargo metadata` of the workspace, resolved from Cargo.lock as the build resolves it.
fn metadata() -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(l4rs_tests::workspace_root())
        .output()
        .expect("run cargo metadata");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

#[test]
fn every_crate_inherits_the_rust_version_and_no_locked_dependency_needs_a_newer_one() {
    // This package inherits the workspace's value like every other member (checked below).
    let declared = env!("CARGO_PKG_RUST_VERSION");
    assert!(
        !declared.is_empty(),
        "the workspace declares no rust-version"
    );
    let metadata = metadata();
    let members: Vec<&str> = metadata["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let resolved: Vec<&str> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("resolve.nodes")
        .iter()
        .filter_map(|node| node["id"].as_str())
        .collect();
    let packages = metadata["packages"].as_array().expect("packages");
    let mut members_seen = 0;
    let mut too_new = Vec::new();
    let mut newest_dependency = (0, 0, 0);
    for package in packages {
        let id = package["id"].as_str().unwrap_or_default();
        let name = package["name"].as_str().unwrap_or_default();
        let rust_version = package["rust_version"].as_str();
        if members.contains(&id) {
            members_seen += 1;
            assert_eq!(
                rust_version,
                Some(declared),
                "{name} must inherit the workspace's rust-version (rust-version.workspace = true)"
            );
        } else if resolved.contains(&id) {
            if let Some(needed) = rust_version {
                newest_dependency = newest_dependency.max(version(needed));
                if version(needed) > version(declared) {
                    too_new.push(format!(
                        "{name} {} needs {needed}",
                        package["version"].as_str().unwrap_or_default()
                    ));
                }
            }
        }
    }
    assert_eq!(members_seen, members.len(), "every member is listed");
    assert!(
        too_new.is_empty(),
        "the workspace declares rust-version {declared}, but Cargo.lock holds: {}; raise \
         rust-version in Cargo.toml or lock older versions (cargo update -p NAME --precise V)",
        too_new.join(", ")
    );
    println!(
        "rust-version {declared}: {} members inherit it; the newest locked dependency needs {}.{}.{}",
        members.len(),
        newest_dependency.0,
        newest_dependency.1,
        newest_dependency.2
    );
}
