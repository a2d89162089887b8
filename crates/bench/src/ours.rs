//! l4rs's rows: a configuration, one logger per row, the workload through the facade.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use l4rs::config::model::{AppenderKind, RollingSpec};
use l4rs::config::rolling::{FilePattern, FilePatternSegment};
use l4rs::config::routing::LoggerTree;
use l4rs::config::Configuration;
use l4rs::Logger;

use crate::workload::{fixture, Workload};

/// Where one logger's events end up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    /// Appenders on the logger's path (its own references, then its ancestors' while additive).
    pub appenders: Vec<String>,
    /// The files those appenders write (relative paths are relative to the working folder).
    pub files: Vec<PathBuf>,
    /// Globs of the files the rolling appenders on the route roll into (or, with no
    /// `fileName`, write straight to), derived from their `filePattern` by
    /// [`pattern_glob`]; with a compressed pattern also the glob without its suffix, which
    /// names an archive whose compression did not happen.
    pub rolled: Vec<String>,
    /// True when some event of the logger goes through a queue: an `<AsyncLogger>` (or
    /// `<AsyncRoot>`) on the path, or an `<Async>` appender on the route.
    pub asynchronous: bool,
}

/// The appenders and files `logger` reaches in `configuration`, following additivity and
/// the references of `<Async>` appenders (whose queues feed other appenders).
pub fn route(configuration: &Configuration, logger: &str) -> Route {
    let tree = LoggerTree::new(&configuration.loggers);
    let mut route = Route::default();
    let mut index = Some(tree.owner_of(logger));
    while let Some(current) = index {
        let node = tree.node(current);
        if node.spec.asynchronous && !node.spec.appender_refs.is_empty() {
            route.asynchronous = true;
        }
        for reference in &node.spec.appender_refs {
            add_appender(configuration, &reference.appender, &mut route);
        }
        index = if node.spec.additivity {
            tree.parent(current)
        } else {
            None
        };
    }
    route
}

/// Adds `name`, its file, and (for an `<Async>` appender) what it feeds; each appender once,
/// which also stops a reference cycle.
fn add_appender(configuration: &Configuration, name: &str, route: &mut Route) {
    if route.appenders.iter().any(|a| a == name) {
        return;
    }
    route.appenders.push(name.to_string());
    let Some(spec) = configuration.appender(name) else {
        return;
    };
    if let Some(file) = spec.kind.file_name() {
        let file = PathBuf::from(file);
        if !route.files.contains(&file) {
            route.files.push(file);
        }
    }
    if let Some(rolling) = rolling_spec(&spec.kind) {
        let glob = pattern_glob(&rolling.file_pattern);
        let mut globs = vec![glob.clone()];
        if let Some(suffix) = rolling.file_pattern.compression_suffix() {
            globs.push(glob[..glob.len() - suffix.len()].to_string());
        }
        for glob in globs {
            if !route.rolled.contains(&glob) {
                route.rolled.push(glob);
            }
        }
    }
    if let AppenderKind::Async(queue) = &spec.kind {
        route.asynchronous = true;
        for reference in &queue.appender_refs {
            add_appender(configuration, &reference.appender, route);
        }
        if let Some(error_ref) = &queue.error_ref {
            add_appender(configuration, error_ref, route);
        }
    }
}

/// Why a logger cannot be benchmarked as configured: an appender on its route was not built
/// (e.g. not implemented yet), so its events would go nowhere and the figure would mean nothing.
pub fn missing_appenders(route: &Route, active: &[String]) -> Vec<String> {
    route
        .appenders
        .iter()
        .filter(|name| !active.contains(name))
        .cloned()
        .collect()
}

/// The rolling attributes of a rolling appender.
fn rolling_spec(kind: &AppenderKind) -> Option<&RollingSpec> {
    match kind {
        AppenderKind::RollingFile(spec) => Some(&spec.rolling),
        AppenderKind::RollingRandomAccessFile(spec) => Some(&spec.rolling),
        AppenderKind::RollingMemoryMappedFile(spec) => Some(&spec.rolling),
        _ => None,
    }
}

/// A glob matching every file `pattern` can name: each `%d{…}` and `%i` becomes `*`, and so
/// does each `${…}` lookup left for rollover time (written `$${…}`); runs of `*` collapse.
/// Only `*` and `?` are wildcards for [`glob_files`].
pub fn pattern_glob(pattern: &FilePattern) -> String {
    let mut glob = String::new();
    let star = |glob: &mut String| {
        if !glob.ends_with('*') {
            glob.push('*');
        }
    };
    for segment in &pattern.segments {
        match segment {
            FilePatternSegment::Literal(text) => {
                let mut rest = text.as_str();
                while let Some(at) = rest.find("${") {
                    glob.push_str(&rest[..at]);
                    star(&mut glob);
                    rest = match rest[at..].find('}') {
                        Some(close) => &rest[at + close + 1..],
                        None => "",
                    };
                }
                glob.push_str(rest);
            }
            FilePatternSegment::Date { .. } | FilePatternSegment::Index(_) => star(&mut glob),
        }
    }
    glob
}

/// True when `name` matches `glob`, where `*` is any run of characters and `?` any one.
pub fn glob_match(glob: &str, name: &str) -> bool {
    let glob: Vec<char> = glob.chars().collect();
    let name: Vec<char> = name.chars().collect();
    // Iterative matching with backtracking to the last `*`.
    let (mut g, mut n) = (0, 0);
    let mut back: Option<(usize, usize)> = None;
    while n < name.len() {
        if g < glob.len() && (glob[g] == '?' || glob[g] == name[n]) {
            g += 1;
            n += 1;
        } else if g < glob.len() && glob[g] == '*' {
            back = Some((g, n));
            g += 1;
        } else if let Some((star_at, matched)) = back {
            g = star_at + 1;
            n = matched + 1;
            back = Some((star_at, matched + 1));
        } else {
            return false;
        }
    }
    glob[g..].iter().all(|c| *c == '*')
}

/// The existing files (not folders) `glob` matches; wildcards may be in any component.
pub fn glob_files(glob: &str) -> Vec<PathBuf> {
    let path = Path::new(glob);
    let mut current = vec![PathBuf::new()];
    for component in path.components() {
        let text = component.as_os_str().to_string_lossy();
        if !text.contains(['*', '?']) {
            for p in &mut current {
                p.push(component);
            }
            continue;
        }
        let mut next = Vec::new();
        for folder in &current {
            let listed = if folder.as_os_str().is_empty() {
                Path::new(".")
            } else {
                folder.as_path()
            };
            let Ok(entries) = std::fs::read_dir(listed) else {
                continue;
            };
            for entry in entries.flatten() {
                if glob_match(&text, &entry.file_name().to_string_lossy()) {
                    next.push(folder.join(entry.file_name()));
                }
            }
        }
        current = next;
    }
    current.retain(|p| p.is_file());
    current.sort();
    current
}

/// What a route's appenders hold on disk: each file once (the current files and every
/// rolled one), with its content size.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Each file and its content size: the uncompressed size of a `.gz`, `.zip` or `.zst`
    /// archive; `None` for an archive that cannot be read (e.g. another compression).
    pub files: BTreeMap<PathBuf, Option<u64>>,
}

impl Written {
    /// The files of `route` as they are now: call it with the appenders stopped (after
    /// `l4rs::shutdown()`, which also joins the rolling worker), or before they start.
    pub fn snapshot(route: &Route) -> Written {
        let mut files: BTreeSet<PathBuf> = route.files.iter().cloned().collect();
        for glob in &route.rolled {
            files.extend(glob_files(glob));
        }
        Written {
            files: files
                .into_iter()
                .filter_map(|f| {
                    let meta = std::fs::metadata(&f).ok()?;
                    let size = content_size(&f, meta.len());
                    Some((f, size))
                })
                .collect(),
        }
    }

    /// Bytes added since `before`, or why they are unknown: an archive that cannot be read,
    /// or a file of `before` that is gone (a retention policy deleted bytes of the run or of
    /// earlier ones, so the difference would be wrong).
    pub fn added_since(&self, before: &Written) -> Result<u64, String> {
        if let Some(gone) = before.files.keys().find(|f| !self.files.contains_key(*f)) {
            return Err(format!(
                "{} was deleted during the run (retention), so the bytes written are unknown",
                gone.display()
            ));
        }
        let total = |w: &Written| -> Result<u64, String> {
            w.files.iter().try_fold(0u64, |sum, (f, size)| {
                size.map(|s| sum + s)
                    .ok_or_else(|| format!("cannot read the uncompressed size of {}", f.display()))
            })
        };
        Ok(total(self)?.saturating_sub(total(before)?))
    }
}

/// Watches the folders of a rolling route during a row for files deleted or replaced by a
/// rename: a retention policy (`max`, `maxFiles`, `<Delete>`) that removes a file written
/// during the row takes its bytes out of the count, and a snapshot after the row cannot see a
/// file that came and went. Events queue in the kernel (inotify, Linux), read once the row is
/// over.
pub struct DeletionWatch {
    #[cfg(target_os = "linux")]
    fd: std::os::fd::OwnedFd,
    /// The watched folders, by watch descriptor.
    folders: Vec<(i32, PathBuf)>,
    /// The files in those folders when the watch started; the events replayed on it show
    /// which rename replaced an existing file.
    present: BTreeSet<PathBuf>,
}

/// How a file's bytes left during a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// Deleted (`unlink`).
    Deleted,
    /// Replaced by a rename onto its name.
    Replaced,
}

impl DeletionWatch {
    /// Starts watching the folders `route` writes and rolls into (those without wildcards);
    /// `None` when the route does not roll or the watch cannot be set (then retention during
    /// the row goes unseen, except for files that existed before it).
    pub fn start(route: &Route) -> Option<DeletionWatch> {
        if route.rolled.is_empty() {
            return None;
        }
        let mut folders: Vec<PathBuf> = route
            .files
            .iter()
            .cloned()
            .chain(route.rolled.iter().map(PathBuf::from))
            .filter_map(|p| {
                let parent = p.parent()?.to_path_buf();
                let parent = if parent.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    parent
                };
                (!parent.to_string_lossy().contains(['*', '?'])).then_some(parent)
            })
            .collect();
        folders.sort();
        folders.dedup();
        Self::watch(folders)
    }

    #[cfg(target_os = "linux")]
    fn watch(folders: Vec<PathBuf>) -> Option<DeletionWatch> {
        use std::os::fd::FromRawFd;
        use std::os::unix::ffi::OsStrExt;
        // SAFETY: plain system calls; the descriptor is owned below.
        let raw = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        if raw < 0 {
            return None;
        }
        // SAFETY: `raw` is a fresh descriptor nothing else owns.
        let fd = unsafe { std::os::fd::OwnedFd::from_raw_fd(raw) };
        let mut watched = Vec::new();
        for folder in folders {
            let path = std::ffi::CString::new(folder.as_os_str().as_bytes()).ok()?;
            // SAFETY: a valid descriptor and NUL-terminated path.
            let mask = libc::IN_CREATE | libc::IN_DELETE | libc::IN_MOVED_FROM | libc::IN_MOVED_TO;
            let wd = unsafe { libc::inotify_add_watch(raw, path.as_ptr(), mask) };
            if wd < 0 {
                return None;
            }
            watched.push((wd, folder));
        }
        // Listed after the watches are set, so no file slips between the two.
        let present = watched
            .iter()
            .filter_map(|(_, folder)| std::fs::read_dir(folder).ok())
            .flat_map(|entries| entries.flatten().map(|e| e.path()))
            .collect();
        Some(DeletionWatch {
            fd,
            folders: watched,
            present,
        })
    }

    #[cfg(not(target_os = "linux"))]
    fn watch(_folders: Vec<PathBuf>) -> Option<DeletionWatch> {
        None
    }

    /// The files deleted or replaced since [`DeletionWatch::start`], or an error when the
    /// kernel's queue overflowed (some events unseen).
    #[cfg(target_os = "linux")]
    pub fn removed(&mut self) -> Result<Vec<(PathBuf, Removal)>, String> {
        use std::os::fd::AsRawFd;
        use std::os::unix::ffi::OsStrExt;
        let mut deleted = Vec::new();
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            // SAFETY: reads into a buffer of the given length.
            let n = unsafe {
                libc::read(
                    self.fd.as_raw_fd(),
                    buffer.as_mut_ptr().cast(),
                    buffer.len(),
                )
            };
            if n <= 0 {
                break;
            }
            let mut at = 0usize;
            let header = std::mem::size_of::<libc::inotify_event>();
            while at + header <= n as usize {
                // SAFETY: the kernel wrote a whole event here; read unaligned.
                let event: libc::inotify_event =
                    unsafe { std::ptr::read_unaligned(buffer[at..].as_ptr().cast()) };
                let name_bytes = &buffer[at + header..at + header + event.len as usize];
                at += header + event.len as usize;
                if event.mask & libc::IN_Q_OVERFLOW != 0 {
                    return Err("too many file events to follow during the run".to_string());
                }
                let name_end = name_bytes
                    .iter()
                    .position(|b| *b == 0)
                    .unwrap_or(name_bytes.len());
                let name = std::ffi::OsStr::from_bytes(&name_bytes[..name_end]);
                if let Some((_, folder)) = self.folders.iter().find(|(wd, _)| *wd == event.wd) {
                    let path = folder.join(name);
                    if event.mask & libc::IN_DELETE != 0 {
                        self.present.remove(&path);
                        deleted.push((path, Removal::Deleted));
                    } else if event.mask & libc::IN_MOVED_FROM != 0 {
                        self.present.remove(&path);
                    } else if event.mask & libc::IN_MOVED_TO != 0 {
                        if !self.present.insert(path.clone()) {
                            deleted.push((path, Removal::Replaced));
                        }
                    } else {
                        self.present.insert(path);
                    }
                }
            }
        }
        Ok(deleted)
    }

    /// See the Linux version.
    #[cfg(not(target_os = "linux"))]
    pub fn removed(&mut self) -> Result<Vec<(PathBuf, Removal)>, String> {
        Ok(Vec::new())
    }

    /// Checks the row's deletions against `route` and the files `after` it: an error names a
    /// file of the route (current or rolled) that was deleted and is not there any more in
    /// compressed form (the uncompressed copy of an archive is deleted once compressed).
    pub fn check(mut self, route: &Route, after: &Written) -> Result<(), String> {
        for (file, how) in self.removed()? {
            if lost(route, after, &file, how) {
                return Err(format!(
                    "{} was {} during the run (retention), so the bytes written are unknown",
                    file.display(),
                    match how {
                        Removal::Deleted => "deleted",
                        Removal::Replaced => "replaced by a rename",
                    }
                ));
            }
        }
        Ok(())
    }
}

/// True when the removed `file` belongs to `route` and its bytes are not in `after`: a
/// replaced file's are gone; a deleted one's are gone unless it is there again or in
/// compressed form (the uncompressed copy of an archive is deleted once compressed).
pub fn lost(route: &Route, after: &Written, file: &Path, how: Removal) -> bool {
    let name = file.to_string_lossy();
    let normalize = |p: &str| p.strip_prefix("./").unwrap_or(p).to_string();
    let name = normalize(&name);
    let ours = route
        .files
        .iter()
        .any(|f| normalize(&f.to_string_lossy()) == name)
        || route
            .rolled
            .iter()
            .any(|g| glob_match(&normalize(g), &name));
    if !ours {
        return false;
    }
    if how == Removal::Replaced {
        return true;
    }
    if after.files.contains_key(file) {
        return false;
    }
    let compressed = COMPRESSION_SUFFIXES.iter().any(|suffix| {
        after
            .files
            .contains_key(&PathBuf::from(format!("{}{suffix}", file.display())))
    });
    !compressed
}

/// The compressions log4j2 chooses by a `filePattern`'s extension.
const COMPRESSION_SUFFIXES: &[&str] =
    &[".gz", ".zip", ".bz2", ".deflate", ".pack200", ".xz", ".zst"];

/// The content size of `file` (`len` bytes on disk): decompressed for `.gz` (every member),
/// `.zst` (every frame) and `.zip` (every entry, from the central directory); `None` when
/// such an archive cannot be read or for other compressions.
pub fn content_size(file: &Path, len: u64) -> Option<u64> {
    use std::fs::File;
    use std::io::BufReader;
    let name = file.file_name()?.to_string_lossy().to_ascii_lowercase();
    let open = || File::open(file).ok().map(BufReader::new);
    if name.ends_with(".gz") {
        let mut decoder = flate2::bufread::MultiGzDecoder::new(open()?);
        std::io::copy(&mut decoder, &mut std::io::sink()).ok()
    } else if name.ends_with(".zst") {
        let mut decoder = zstd::stream::read::Decoder::with_buffer(open()?).ok()?;
        std::io::copy(&mut decoder, &mut std::io::sink()).ok()
    } else if name.ends_with(".zip") {
        let mut archive = zip::ZipArchive::new(open()?).ok()?;
        (0..archive.len()).try_fold(0u64, |sum, i| Some(sum + archive.by_index(i).ok()?.size()))
    } else if COMPRESSION_SUFFIXES.iter().any(|s| name.ends_with(s)) {
        None
    } else {
        Some(len)
    }
}

/// Puts `config` in force afresh: stops the current configuration first, so every file is
/// closed (and the deleted ones are really re-created), then loads it again.
pub fn restart(config: &Path) -> Result<(), String> {
    l4rs::shutdown();
    l4rs::init_with_file(config).map_err(|e| e.to_string())
}

/// Puts `xml` in force from a file in the temporary folder `l4rs-<name>-<pid>`, then removes it.
pub fn init_with_xml(name: &str, xml: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("l4rs-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let config = dir.join("log4j2.xml");
    let loaded = std::fs::write(&config, xml)
        .map_err(|e| format!("{}: {e}", config.display()))
        .and_then(|()| l4rs::init_with_file(&config).map_err(|e| e.to_string()));
    let _ = std::fs::remove_dir_all(&dir);
    loaded
}

/// The configuration of the disabled-call benches: one logger at DEBUG (`bench.enabled`) and
/// root at ERROR, so a call below DEBUG is off everywhere and one to another logger below ERROR.
pub const ONE_LOGGER_AT_DEBUG: &str = r#"<Configuration><Loggers><Logger name="bench.enabled" level="debug"/><Root level="error"/></Loggers></Configuration>"#;

/// The workload through an l4rs logger.
pub struct L4rsWorkload {
    logger: Logger,
}

impl L4rsWorkload {
    /// The workload on the logger `name` of the configuration in force.
    pub fn new(name: &str) -> L4rsWorkload {
        // Build (and resolve) the throwable before any window starts.
        let _ = fixture();
        L4rsWorkload {
            logger: l4rs::get_logger(name),
        }
    }
}

impl Workload for L4rsWorkload {
    #[inline(never)]
    fn plain(&self) {
        l4rs::debug!(self.logger, crate::bench_message!());
    }

    #[inline(never)]
    fn with_error(&self) {
        l4rs::debug!(
            self.logger,
            error = &fixture().throwable,
            crate::bench_message!()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_follow_async_appenders_and_mark_queues() {
        let xml = r#"<Configuration status="off"><Appenders>
              <File name="A" fileName="out/a.log"/><File name="E" fileName="out/e.log"/>
              <Async name="Q" errorRef="E"><AppenderRef ref="A"/></Async>
              </Appenders>
            <Loggers>
              <Logger name="queued" level="debug" additivity="false"><AppenderRef ref="Q"/></Logger>
              <AsyncLogger name="fast" level="debug" additivity="false"><AppenderRef ref="A"/></AsyncLogger>
              <AsyncLogger name="bare" level="debug"/>
              <Root level="info"><AppenderRef ref="A"/></Root>
            </Loggers></Configuration>"#;
        let configuration = l4rs::config::load_str(xml, None).unwrap();
        let queued = route(&configuration, "queued");
        assert_eq!(queued.appenders, ["Q", "A", "E"]);
        assert_eq!(
            queued.files,
            [PathBuf::from("out/a.log"), PathBuf::from("out/e.log")]
        );
        assert!(queued.asynchronous);
        assert!(route(&configuration, "fast").asynchronous);
        // An AsyncLogger without appenders routes synchronously (to Root here).
        assert!(!route(&configuration, "bare").asynchronous);
    }

    #[test]
    fn routes_follow_references_and_additivity() {
        let xml = r#"<Configuration status="off"><Appenders>
              <File name="A" fileName="out/a.log"/><RandomAccessFile name="B" fileName="out/b.log"/>
              <Console name="C"/></Appenders>
            <Loggers>
              <Logger name="app" level="debug"><AppenderRef ref="A"/><AppenderRef ref="B"/></Logger>
              <Logger name="quiet" level="debug" additivity="false"><AppenderRef ref="A"/></Logger>
              <Root level="info"><AppenderRef ref="C"/><AppenderRef ref="A"/></Root>
            </Loggers></Configuration>"#;
        let configuration = l4rs::config::load_str(xml, None).unwrap();
        let app = route(&configuration, "app::db");
        assert_eq!(app.appenders, ["A", "B", "C"]);
        assert_eq!(
            app.files,
            [PathBuf::from("out/a.log"), PathBuf::from("out/b.log")]
        );
        let quiet = route(&configuration, "quiet");
        assert_eq!(quiet.appenders, ["A"]);
        let active = vec!["A".to_string(), "C".to_string()];
        assert_eq!(missing_appenders(&app, &active), ["B"]);
        assert!(missing_appenders(&quiet, &active).is_empty());
    }

    fn glob_of(pattern: &str) -> String {
        pattern_glob(&FilePattern::parse(pattern).unwrap())
    }

    #[test]
    fn file_patterns_become_globs() {
        assert_eq!(
            glob_of("logs/app-%d{yyyy-MM-dd}-%i.log.gz"),
            "logs/app-*-*.log.gz"
        );
        assert_eq!(glob_of("logs/raf.%i.log.zst"), "logs/raf.*.log.zst");
        assert_eq!(
            glob_of("logs/%d{yyyy-MM}/app-%d{dd}-%03i.log"),
            "logs/*/app-*-*.log"
        );
        // Adjacent conversions collapse; `$${…}` lookups left for rollover time are wildcards.
        assert_eq!(glob_of("x/%d{HH}%i-${ctx:id}.log"), "x/*-*.log");
        assert_eq!(glob_of("x/100%%-%i.log"), "x/100%-*.log");
        assert_eq!(glob_of("x/plain.log"), "x/plain.log");
    }

    #[test]
    fn globs_match_names() {
        assert!(glob_match("app-*-*.log.gz", "app-2026-11-30-1.log.gz"));
        assert!(glob_match("app-*-*.log.gz", "app---.log.gz"));
        assert!(!glob_match("app-*-*.log.gz", "app-2026-11-30-1.log"));
        assert!(!glob_match("app-*-*.log", "app.log"));
        assert!(!glob_match("raf.*.log", "raf.log"));
        assert!(glob_match("raf.?.log", "raf.7.log"));
        assert!(!glob_match("raf.?.log", "raf.17.log"));
        assert!(glob_match("*", ""));
        assert!(glob_match("a*b*c", "aXbYbZc"));
        assert!(!glob_match("a*b*c", "aXbYbZ"));
    }

    #[test]
    fn rolling_routes_list_their_patterns_and_archives_count_uncompressed() {
        use std::io::Write as _;
        let dir = std::env::temp_dir().join(format!("l4rs-bench-rolled-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("2026-11")).unwrap();
        let d = dir.display();
        let xml = format!(
            r#"<Configuration status="off"><Appenders>
              <RollingFile name="R" fileName="{d}/app.log" filePattern="{d}/app-%d{{yyyy-MM-dd}}-%i.log.gz">
                <SizeBasedTriggeringPolicy size="1 MB"/></RollingFile>
              <RollingRandomAccessFile name="Z" fileName="{d}/raf.log" filePattern="{d}/raf.%i.log.zst">
                <SizeBasedTriggeringPolicy size="1 MB"/></RollingRandomAccessFile>
              <RollingMemoryMappedFile name="M" filePattern="{d}/%d{{yyyy-MM}}/mmf-%i.log.zip">
                <SizeBasedTriggeringPolicy size="1 MB"/></RollingMemoryMappedFile>
              </Appenders>
            <Loggers><Root level="debug"><AppenderRef ref="R"/><AppenderRef ref="Z"/><AppenderRef ref="M"/></Root></Loggers></Configuration>"#
        );
        let configuration = l4rs::config::load_str(&xml, None).unwrap();
        let route = route(&configuration, "any");
        assert_eq!(route.files, [dir.join("app.log"), dir.join("raf.log")]);
        assert_eq!(
            route.rolled,
            [
                format!("{d}/app-*-*.log.gz"),
                format!("{d}/app-*-*.log"),
                format!("{d}/raf.*.log.zst"),
                format!("{d}/raf.*.log"),
                format!("{d}/*/mmf-*.log.zip"),
                format!("{d}/*/mmf-*.log"),
            ]
        );
        let empty = Written::snapshot(&route);
        assert!(empty.files.is_empty());

        let text = |n: usize| "an event line\n".repeat(n).into_bytes();
        std::fs::write(dir.join("app.log"), text(10)).unwrap();
        let mut gz = flate2::write::GzEncoder::new(
            std::fs::File::create(dir.join("app-2026-11-30-1.log.gz")).unwrap(),
            flate2::Compression::default(),
        );
        gz.write_all(&text(1000)).unwrap();
        gz.finish().unwrap();
        // An archive whose compression did not happen counts as it is.
        std::fs::write(dir.join("app-2026-11-30-2.log"), text(5)).unwrap();
        std::fs::write(
            dir.join("raf.1.log.zst"),
            zstd::encode_all(&text(2000)[..], 3).unwrap(),
        )
        .unwrap();
        let mut zip =
            zip::ZipWriter::new(std::fs::File::create(dir.join("2026-11/mmf-1.log.zip")).unwrap());
        zip.start_file("mmf-1.log", zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(&text(300)).unwrap();
        zip.finish().unwrap();
        std::fs::write(dir.join("2026-11/mmf-2.log"), text(7)).unwrap();
        // Not produced by any pattern.
        std::fs::write(dir.join("other.log"), text(99)).unwrap();

        let line = text(1).len() as u64;
        let now = Written::snapshot(&route);
        assert_eq!(now.files.len(), 6, "{now:?}");
        assert_eq!(
            now.added_since(&empty),
            Ok((10 + 1000 + 5 + 2000 + 300 + 7) * line)
        );
        assert_eq!(now.added_since(&now), Ok(0));

        // A retention policy deleted a file: the difference would be wrong, so it is unknown.
        std::fs::remove_file(dir.join("app-2026-11-30-2.log")).unwrap();
        let after = Written::snapshot(&route);
        assert!(after.added_since(&now).unwrap_err().contains("deleted"));
        // An archive that cannot be read is unknown too.
        std::fs::write(dir.join("raf.2.log.zst"), b"not zstd").unwrap();
        let broken = Written::snapshot(&route);
        assert!(broken
            .added_since(&empty)
            .unwrap_err()
            .contains("raf.2.log.zst"));
        assert_eq!(content_size(Path::new("x.log.bz2"), 5), None);
        assert_eq!(content_size(Path::new("x.log"), 5), Some(5));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn the_watch_sees_retention_but_not_compression() {
        let dir = std::env::temp_dir().join(format!("l4rs-bench-watch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let d = dir.display();
        let route = Route {
            appenders: vec!["R".into()],
            files: vec![dir.join("app.log")],
            rolled: vec![format!("{d}/app-*.log.gz"), format!("{d}/app-*.log")],
            asynchronous: false,
        };
        let write = |name: &str| std::fs::write(dir.join(name), b"line\n").unwrap();
        // Compression: the uncompressed archive is deleted once its .gz is written.
        write("app.log");
        let watch = DeletionWatch::start(&route).unwrap();
        std::fs::rename(dir.join("app.log"), dir.join("app-1.log")).unwrap();
        write("app-1.log.gz");
        std::fs::remove_file(dir.join("app-1.log")).unwrap();
        write("app.log");
        // Another program's file in the same folder may come and go.
        write("other.log");
        std::fs::remove_file(dir.join("other.log")).unwrap();
        assert_eq!(watch.check(&route, &Written::snapshot(&route)), Ok(()));

        // Retention deleting an archive, and a rename replacing one, lose bytes.
        let watch = DeletionWatch::start(&route).unwrap();
        std::fs::remove_file(dir.join("app-1.log.gz")).unwrap();
        let error = watch.check(&route, &Written::snapshot(&route)).unwrap_err();
        assert!(error.contains("app-1.log.gz was deleted"), "{error}");
        write("app-1.log.gz");
        write("app-2.log.gz");
        let watch = DeletionWatch::start(&route).unwrap();
        std::fs::rename(dir.join("app-2.log.gz"), dir.join("app-1.log.gz")).unwrap();
        let error = watch.check(&route, &Written::snapshot(&route)).unwrap_err();
        assert!(error.contains("replaced by a rename"), "{error}");
        // A route that does not roll needs no watch.
        assert!(DeletionWatch::start(&Route::default()).is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
