//! Helpers the rolling integration tests share (each test file is its own crate and uses
//! what it needs).
#![allow(dead_code)]

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use l4rs_config::model::AppenderKind;
use l4rs_core::{Layout, LogEvent};

/// `<message>\n`.
pub struct Lines;

impl Layout for Lines {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        event.message.write_to(out);
        out.push('\n');
    }
}

/// A fresh directory under the system's temporary directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "l4rs-rolling-t-{}-{}-{label}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    pub fn join(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The appender kind `appender_xml` binds to, through l4rs-config (no diagnostics allowed).
pub fn kind(appender_xml: &str) -> AppenderKind {
    let xml = format!(
        "<Configuration><Appenders>{appender_xml}</Appenders><Loggers><Root level='info'/></Loggers></Configuration>"
    );
    let config = l4rs_config::load_str(&xml, None).unwrap();
    assert!(config.diagnostics.is_empty(), "{:#?}", config.diagnostics);
    config.appenders[0].kind.clone()
}

/// Every file below `dir` (hidden ones too), recursively.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// A file's text, decompressed by its suffix.
pub fn contents(path: &Path) -> String {
    let file = std::fs::File::open(path).unwrap();
    let mut text = String::new();
    let name = path.to_string_lossy();
    if name.ends_with(".gz") {
        flate2::read::GzDecoder::new(file)
            .read_to_string(&mut text)
            .unwrap();
    } else if name.ends_with(".zst") {
        zstd::stream::read::Decoder::new(file)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
    } else {
        let mut file = file;
        file.read_to_string(&mut text).unwrap();
    }
    text
}

/// The lines of every file below `dir`, decompressed, sorted.
pub fn all_lines(dir: &Path) -> Vec<String> {
    let mut lines: Vec<String> = walk(dir)
        .iter()
        .flat_map(|path| {
            contents(path)
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    lines.sort();
    lines
}

/// Whether `path`'s name is a staging or partial file of an interrupted rollover.
pub fn is_leftover(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".l4rs-rolling")
}
