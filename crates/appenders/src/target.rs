//! Where a file appender's `fileName` leads, judged from the path alone.
//!
//! [`classify`] looks at the path with `stat`/`lstat` and `faccessat` only: it never opens,
//! creates or deletes anything. Building an appender calls it before touching the file (then
//! creates the missing parent it names and opens the file), and `l4rs check` calls it instead
//! of building, so the two report the same failures in the same words: log4j2's, as its
//! `FileManager` factories report them.
//!
//! log4j2 makes a file's missing parent directories from the *canonical* path (symbolic links
//! of the existing part resolved, `.` and `..` removed by name), and then opens the path as
//! written, which the kernel resolves component by component. The two differ when a `..` follows
//! a directory that does not exist: `${sys:catalina.home}/../logs/app.log`, with the property
//! unset, makes `logs` and then fails to open the file, because `${sys:catalina.home}` does not
//! exist for the kernel to go up from. [`classify`] predicts exactly that.

use std::ffi::CString;
use std::fs::Metadata;
use std::io;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::FileTypeExt as _;
use std::path::{Component, Path, PathBuf};

use crate::AppenderBuildError;

/// The kernel follows at most this many symbolic links in one path (Linux's `MAXSYMLINKS`);
/// following dangling links further fails as the kernel fails, with `ELOOP`.
const MAX_LINKS: usize = 40;

/// When building an appender opens its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OpenWhen {
    /// The file is opened while the appender is built.
    Now,
    /// The file is deleted (when it is there) and then opened: RandomAccessFile and
    /// MemoryMappedFile with `append="false"`.
    AfterDeleting,
    /// `createOnDemand`: only the parent directories are made now; the first write opens it.
    Deferred,
}

/// What opening a `fileName` for writing will meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A regular file that is there and may be written.
    RegularFile,
    /// Nothing is there: opening creates the file, once `missing_parent` (when set) has been
    /// made.
    NewFile {
        /// The parent directory to make first, with its missing ancestors.
        missing_parent: Option<PathBuf>,
    },
    /// A character device (`/dev/null`, a terminal): written as a file is.
    CharacterDevice,
    /// A FIFO (a named pipe, or `/dev/stdout` of a process whose output is a pipe). It is
    /// opened without waiting: with no reader, opening fails at once instead of hanging.
    Fifo,
    /// A block device.
    BlockDevice,
    /// `createOnDemand`: the parent directory is there or can be made; the file itself is
    /// judged when it is first written.
    Deferred {
        /// The parent directory to make now, with its missing ancestors.
        missing_parent: Option<PathBuf>,
    },
}

impl Target {
    /// The directory building the appender makes, if any.
    pub(crate) fn missing_parent(&self) -> Option<&Path> {
        match self {
            Target::NewFile { missing_parent } | Target::Deferred { missing_parent } => {
                missing_parent.as_deref()
            }
            _ => None,
        }
    }

    /// What `l4rs check` says about a target that opens but is not a plain file, as a WARN: the
    /// appender works, but maybe not as the configuration's author expects.
    pub(crate) fn warning(&self, manager: &str, file_name: &str) -> Option<String> {
        // `/dev/stdout` and the like are the checking process's own streams, not the ones the
        // service will have: what they are now says nothing.
        const OWN_STREAMS: [&str; 3] = ["/dev/std", "/dev/fd/", "/proc/self/fd/"];
        if OWN_STREAMS
            .iter()
            .any(|prefix| file_name.starts_with(prefix))
        {
            return None;
        }
        match self {
            Target::Fifo => Some(format!(
                "{manager} ({file_name}) {file_name} is a FIFO: it is written only while a reader has it open. l4rs opens it without waiting, so when no reader has it open as the configuration starts, the appender is not created (log4j2 would wait for a reader); start the reader first, or name a regular file"
            )),
            Target::BlockDevice => Some(format!(
                "{manager} ({file_name}) {file_name} is a block device: events overwrite or append to the device's raw contents; name a regular file unless that is meant"
            )),
            _ => None,
        }
    }
}

/// Judges `file_name` as building an appender of `manager` (log4j2's name for the manager:
/// `FileManager`, `RollingFileManager`, …) would find it, without side effects. An `Err` is the
/// error building the appender fails with.
pub(crate) fn classify(
    manager: &'static str,
    file_name: &str,
    opening: OpenWhen,
) -> Result<Target, AppenderBuildError> {
    let path = Path::new(file_name);
    let new_file = std::fs::symlink_metadata(path).is_err();
    Classifier { manager, file_name }
        .classify(path, opening, true, 0)
        .map_err(|error| in_managers_words(manager, file_name, new_file, error))
}

/// `error`, as the `manager` reports it: the rolling managers word their failures their own way
/// (checked with log4j2 2.19). `new_file`: the file was not there, so RollingFile was creating
/// it.
fn in_managers_words(
    manager: &'static str,
    file_name: &str,
    new_file: bool,
    error: AppenderBuildError,
) -> AppenderBuildError {
    match manager {
        "RollingRandomAccessFileManager" => AppenderBuildError::AccessRandomAccessFile {
            cause: Box::new(error),
        },
        "RollingFileManager" if new_file => AppenderBuildError::CreateFile {
            file_name: file_name.to_string(),
            cause: Box::new(error),
        },
        _ => error,
    }
}

/// Makes the directory `target` says is missing, as building the appender does.
pub(crate) fn make_missing_parent(
    manager: &'static str,
    file_name: &str,
    target: &Target,
) -> Result<(), AppenderBuildError> {
    let Some(directory) = target.missing_parent() else {
        return Ok(());
    };
    std::fs::create_dir_all(directory).map_err(|source| {
        let error = AppenderBuildError::CreateDirectory {
            manager,
            file_name: file_name.to_string(),
            directory: directory.to_path_buf(),
            source,
        };
        in_managers_words(manager, file_name, true, error)
    })
}

/// The failure to report when opening `file_name`, whose target was judged `target`, failed
/// with `source`.
pub(crate) fn open_error(
    manager: &'static str,
    file_name: &str,
    target: &Target,
    source: io::Error,
) -> AppenderBuildError {
    if *target == Target::Fifo && source.raw_os_error() == Some(libc::ENXIO) {
        return AppenderBuildError::FifoWithoutReader {
            manager,
            file_name: file_name.to_string(),
        };
    }
    let error = AppenderBuildError::Open {
        manager,
        file_name: file_name.to_string(),
        source,
    };
    in_managers_words(manager, file_name, false, error)
}

struct Classifier<'a> {
    manager: &'static str,
    file_name: &'a str,
}

impl Classifier<'_> {
    /// The error opening the file fails with, with the OS's `errno`.
    fn open_failure(&self, errno: i32) -> AppenderBuildError {
        AppenderBuildError::Open {
            manager: self.manager,
            file_name: self.file_name.to_string(),
            source: io::Error::from_raw_os_error(errno),
        }
    }

    /// `path` is `fileName`, or the target of a dangling link on the way to it (`links` followed
    /// so far). `make_parents`: log4j2 makes the missing parents of `fileName`, but not of a
    /// link's target.
    fn classify(
        &self,
        path: &Path,
        opening: OpenWhen,
        make_parents: bool,
        links: usize,
    ) -> Result<Target, AppenderBuildError> {
        if path.as_os_str().is_empty() {
            // Java opens "" as the kernel does: there is no such file.
            return Err(self.open_failure(libc::ENOENT));
        }
        if path.as_os_str().len() >= libc::PATH_MAX as usize {
            // The kernel refuses such a path before looking at it; so does judging it, at once,
            // rather than walking thousands of components first.
            return match opening {
                OpenWhen::Deferred => Ok(Target::Deferred {
                    missing_parent: None,
                }),
                _ => Err(self.open_failure(libc::ENAMETOOLONG)),
            };
        }
        if opening == OpenWhen::AfterDeleting {
            // Whatever can be deleted (a file, a FIFO, a link, even a dangling or looping one)
            // is gone before the file is opened; a directory cannot be and is judged as it is.
            let deleted = std::fs::symlink_metadata(path).is_ok_and(|metadata| !metadata.is_dir());
            if deleted {
                return self.new_file(path, make_parents, opening);
            }
        }
        match std::fs::metadata(path) {
            Ok(metadata) => match opening {
                OpenWhen::Deferred if !metadata.is_dir() => Ok(Target::Deferred {
                    missing_parent: None,
                }),
                _ => self.existing(path, &metadata),
            },
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                match std::fs::symlink_metadata(path) {
                    // A dangling link: opening creates its target, whose parent must be there.
                    Ok(link) if link.file_type().is_symlink() => {
                        if links >= MAX_LINKS {
                            return Err(self.open_failure(libc::ELOOP));
                        }
                        let target = std::fs::read_link(path)
                            .map_err(|error| self.open_failure(errno(&error)))?;
                        let target = match path.parent() {
                            Some(parent) if target.is_relative() => parent.join(target),
                            _ => target,
                        };
                        // log4j2 makes the link's own parent, which is there: the link is in it.
                        self.classify(&target, opening, false, links + 1)
                    }
                    _ => self.new_file(path, make_parents, opening),
                }
            }
            // A file where a directory is needed is judged with the parent below, as log4j2
            // meets it when making the parent directories first.
            Err(error) if error.raw_os_error() == Some(libc::ENOTDIR) => {
                self.new_file(path, make_parents, opening)
            }
            // ELOOP (a loop of links), EACCES (a directory on the way that may not be searched),
            // ENAMETOOLONG, …: opening fails the same way.
            Err(error) => match opening {
                OpenWhen::Deferred => Ok(Target::Deferred {
                    missing_parent: None,
                }),
                _ => Err(self.open_failure(errno(&error))),
            },
        }
    }

    fn existing(&self, path: &Path, metadata: &Metadata) -> Result<Target, AppenderBuildError> {
        let file_type = metadata.file_type();
        if file_type.is_dir() {
            return Err(self.open_failure(libc::EISDIR));
        }
        if file_type.is_socket() {
            // open(2) refuses sockets with ENXIO.
            return Err(self.open_failure(libc::ENXIO));
        }
        access(path, libc::W_OK).map_err(|error| self.open_failure(errno(&error)))?;
        if self.manager == crate::mmf_manager::MANAGER
            && (file_type.is_fifo() || file_type.is_char_device())
        {
            // mmap(2) refuses them; log4j2 then does not create the appender.
            return Err(AppenderBuildError::Map {
                manager: self.manager,
                file_name: self.file_name.to_string(),
                source: io::Error::from_raw_os_error(libc::ENODEV),
            });
        }
        Ok(if file_type.is_fifo() {
            Target::Fifo
        } else if file_type.is_char_device() {
            Target::CharacterDevice
        } else if file_type.is_block_device() {
            Target::BlockDevice
        } else {
            Target::RegularFile
        })
    }

    /// Nothing is at `path` (or it will be deleted first): the parent must be there or be made,
    /// and the path as written must lead into it.
    fn new_file(
        &self,
        path: &Path,
        make_parents: bool,
        opening: OpenWhen,
    ) -> Result<Target, AppenderBuildError> {
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let canonical = java_canonical(&absolute);
        let mut missing_parent = None;
        if let Some(parent) = canonical.parent() {
            match std::fs::metadata(parent) {
                Ok(metadata) if metadata.is_dir() => {}
                Ok(_) => {
                    return Err(AppenderBuildError::ParentNotDirectory {
                        manager: self.manager,
                        file_name: self.file_name.to_string(),
                        directory: parent.to_path_buf(),
                    })
                }
                Err(_) if make_parents => {
                    self.can_make(parent)?;
                    missing_parent = Some(parent.to_path_buf());
                }
                Err(error) => return Err(self.open_failure(errno(&error))),
            }
        }
        if opening == OpenWhen::Deferred {
            return Ok(Target::Deferred { missing_parent });
        }
        self.leads_into(&absolute, missing_parent.as_deref())?;
        Ok(Target::NewFile { missing_parent })
    }

    /// Whether `directory` can be made: its nearest existing ancestor must be a directory this
    /// process may write into.
    fn can_make(&self, directory: &Path) -> Result<(), AppenderBuildError> {
        let failure = |errno: i32| AppenderBuildError::CreateDirectory {
            manager: self.manager,
            file_name: self.file_name.to_string(),
            directory: directory.to_path_buf(),
            source: io::Error::from_raw_os_error(errno),
        };
        let mut ancestor = directory.parent();
        while let Some(candidate) = ancestor {
            match std::fs::metadata(candidate) {
                Ok(metadata) if metadata.is_dir() => {
                    return access(candidate, libc::W_OK | libc::X_OK)
                        .map_err(|error| failure(errno(&error)));
                }
                Ok(_) => return Err(failure(libc::ENOTDIR)),
                Err(_) => ancestor = candidate.parent(),
            }
        }
        Ok(())
    }

    /// Whether the kernel, resolving `absolute` as written, reaches its parent once
    /// `made` (the canonical parent, with its ancestors) exists, and may create the file there.
    fn leads_into(&self, absolute: &Path, made: Option<&Path>) -> Result<(), AppenderBuildError> {
        let Some(parent) = absolute.parent() else {
            return Ok(());
        };
        // Once a directory on the way is missing, nothing below it exists, and the canonical
        // form of each longer prefix is the canonical existing part with the rest applied by
        // name: kept here and extended one component at a time, so the path is resolved once
        // (asking the file system for every prefix's canonical form took cubic time).
        let mut canonical_of_missing: Option<PathBuf> = None;
        let mut prefix = PathBuf::new();
        for component in parent.components() {
            prefix.push(component.as_os_str());
            if let Some(canonical) = canonical_of_missing.as_mut() {
                push_by_name(canonical, &component);
            } else {
                match std::fs::metadata(&prefix) {
                    Ok(metadata) if metadata.is_dir() => continue,
                    Ok(_) => return Err(self.open_failure(libc::ENOTDIR)),
                    Err(error) if error.kind() == io::ErrorKind::NotFound => {
                        // The prefix one shorter exists: it was checked just before.
                        let existing = prefix.parent().unwrap_or(Path::new("/"));
                        let mut canonical = std::fs::canonicalize(existing)
                            .map_err(|error| self.open_failure(errno(&error)))?;
                        push_by_name(&mut canonical, &component);
                        canonical_of_missing = Some(canonical);
                    }
                    Err(error) => return Err(self.open_failure(errno(&error))),
                }
            }
            if let Some(canonical) = &canonical_of_missing {
                let will_exist = made.is_some_and(|made| made.starts_with(canonical));
                if !will_exist {
                    return Err(self.open_failure(libc::ENOENT));
                }
            }
        }
        if made.is_none() {
            access(parent, libc::W_OK | libc::X_OK)
                .map_err(|error| self.open_failure(errno(&error)))?;
        }
        Ok(())
    }
}

fn errno(error: &io::Error) -> i32 {
    error.raw_os_error().unwrap_or(libc::EIO)
}

/// Whether this process may access `path` with `mode` (`libc::W_OK` …): `faccessat(2)` with
/// `AT_EACCESS`, so with the effective user and group ids. open(2), mkdir(2) and rename(2),
/// which these checks predict, are judged by the effective ids; plain access(2) asks about the
/// real ids (it exists for set-user-ID programs acting for their caller), so a process
/// running with a different effective uid (setuid, or after seteuid) would be told a
/// directory is writable that it cannot write, or the reverse. Every writable-directory
/// check in this crate goes through here.
pub(crate) fn access(path: &Path, mode: libc::c_int) -> io::Result<()> {
    let path = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::from_raw_os_error(libc::EINVAL))?;
    // SAFETY: `path` is a valid NUL-terminated string for the duration of the call.
    let result = unsafe { libc::faccessat(libc::AT_FDCWD, path.as_ptr(), mode, libc::AT_EACCESS) };
    if result == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Java's `File.getCanonicalFile` for an absolute path: the longest prefix that exists with its
/// links resolved, then the rest with `.` and `..` removed by name.
pub(crate) fn java_canonical(absolute: &Path) -> PathBuf {
    let components: Vec<Component<'_>> = absolute.components().collect();
    let resolve =
        |split: usize| std::fs::canonicalize(components[..split].iter().collect::<PathBuf>());
    // A prefix resolves only if every shorter one does (resolving it resolves them on the
    // way), so the longest one that resolves is found by bisection: a few resolutions, where
    // trying every prefix from the longest down took quadratic time on a deep path.
    let (mut resolves, mut fails) = (0, components.len() + 1);
    let mut resolved = None;
    while fails - resolves > 1 {
        let middle = resolves + (fails - resolves) / 2;
        match resolve(middle) {
            Ok(path) => {
                resolves = middle;
                resolved = Some(path);
            }
            Err(_) => fails = middle,
        }
    }
    let (mut canonical, rest) = match resolved {
        Some(path) => (path, &components[resolves..]),
        None => (PathBuf::new(), &components[..]),
    };
    for component in rest {
        push_by_name(&mut canonical, component);
    }
    canonical
}

fn push_by_name(path: &mut PathBuf, component: &Component<'_>) {
    match component {
        Component::CurDir => {}
        Component::ParentDir => {
            // `/..` is `/`.
            if path.parent().is_some() {
                path.pop();
            }
        }
        other => path.push(other.as_os_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    fn judge(file_name: &str) -> Result<Target, String> {
        classify("FileManager", file_name, OpenWhen::Now).map_err(|e| e.to_string())
    }

    /// Makes `loop-a` and `loop-b` in `dir`, two links to each other (opening either fails
    /// with ELOOP), and returns the path of `loop-a`.
    fn link_loop(dir: &TempDir) -> String {
        let loop_a = dir.path().join("loop-a");
        std::os::unix::fs::symlink("loop-b", &loop_a).unwrap();
        std::os::unix::fs::symlink("loop-a", dir.path().join("loop-b")).unwrap();
        loop_a.to_string_lossy().into_owned()
    }

    /// Every entry under `dir`, to show that judging created nothing.
    fn entries(dir: &Path) -> Vec<PathBuf> {
        let mut found = Vec::new();
        let mut pending = vec![dir.to_path_buf()];
        while let Some(next) = pending.pop() {
            for entry in std::fs::read_dir(&next).unwrap() {
                let path = entry.unwrap().path();
                if std::fs::symlink_metadata(&path).unwrap().is_dir() {
                    pending.push(path.clone());
                }
                found.push(path);
            }
        }
        found.sort();
        found
    }

    #[test]
    fn plain_files_and_missing_parents() {
        let dir = TempDir::new("target-plain");
        let existing = dir.file("there.log");
        std::fs::write(&existing, "x").unwrap();
        assert_eq!(judge(&existing), Ok(Target::RegularFile));
        assert_eq!(
            judge(&dir.file("new.log")),
            Ok(Target::NewFile {
                missing_parent: None
            })
        );
        assert_eq!(
            judge(&dir.file("a/b/new.log")),
            Ok(Target::NewFile {
                missing_parent: Some(dir.path().join("a/b"))
            })
        );
        assert_eq!(entries(dir.path()), [dir.path().join("there.log")]);
    }

    #[test]
    fn impossible_targets_fail_as_opening_them_would() {
        let dir = TempDir::new("target-impossible");
        let loop_a = link_loop(&dir);
        assert_eq!(
            judge(&loop_a),
            Err(format!("FileManager ({loop_a}) java.io.FileNotFoundException: {loop_a} (Too many levels of symbolic links)"))
        );
        assert_eq!(
            judge(""),
            Err(
                "FileManager () java.io.FileNotFoundException:  (No such file or directory)".into()
            )
        );
        let directory = dir.path().to_string_lossy().into_owned();
        assert_eq!(
            judge(&directory),
            Err(format!(
                "FileManager ({directory}) java.io.FileNotFoundException: {directory} (Is a directory)"
            ))
        );
        let file = dir.file("plain");
        std::fs::write(&file, "").unwrap();
        let under_file = format!("{file}/x.log");
        assert_eq!(
            judge(&under_file),
            Err(format!("FileManager ({under_file}) java.io.IOException: File {file} exists and is not a directory. Unable to create directory."))
        );
        // The rolling managers' own words (log4j2 2.19, checked with the oracle).
        let rolling = |manager, file_name: &str| {
            classify(manager, file_name, OpenWhen::Now).map_err(|e| e.to_string())
        };
        assert_eq!(
            rolling("RollingFileManager", &under_file),
            Err(format!("Unable to create file {under_file} java.io.IOException: File {file} exists and is not a directory. Unable to create directory."))
        );
        assert_eq!(
            rolling("RollingFileManager", &directory),
            Err(format!(
                "RollingFileManager ({directory}) java.io.FileNotFoundException: {directory} (Is a directory)"
            ))
        );
        assert_eq!(
            rolling("RollingRandomAccessFileManager", &directory),
            Err(format!(
                "Cannot access RandomAccessFile java.io.FileNotFoundException: {directory} (Is a directory)"
            ))
        );
    }

    #[test]
    fn a_dot_dot_after_a_missing_directory_cannot_be_opened() {
        let dir = TempDir::new("target-dotdot");
        let file_name = dir.file("${sys:catalina.home}/../logs/app.log");
        assert_eq!(
            judge(&file_name),
            Err(format!(
                "FileManager ({file_name}) java.io.FileNotFoundException: {file_name} (No such file or directory)"
            ))
        );
        assert_eq!(
            classify("RollingFileManager", &file_name, OpenWhen::Now).map_err(|e| e.to_string()),
            Err(format!(
                "Unable to create file {file_name} java.io.IOException: No such file or directory"
            ))
        );
        // l4rs's help names the likely cause.
        let help = match classify("FileManager", &file_name, OpenWhen::Now) {
            Ok(target) => panic!("judged {target:?}"),
            Err(error) => error.with_help(),
        };
        assert!(
            help.ends_with("(help: fileName still holds an unresolved ${…}, a directory that does not exist, so the path cannot lead through it; define the property, give the lookup a default (${sys:name:-default}), or write the path out)"),
            "{help}"
        );
        // log4j2 makes `logs` (the canonical parent) but not `made`, so the kernel cannot go up
        // from `made` either; through a directory that is there, `..` is fine.
        let through_missing = dir.file("made/../logs/app.log");
        assert!(judge(&through_missing).is_err());
        std::fs::create_dir(dir.path().join("made")).unwrap();
        assert_eq!(
            judge(&through_missing),
            Ok(Target::NewFile {
                missing_parent: Some(dir.path().join("logs"))
            })
        );
        std::fs::remove_dir(dir.path().join("made")).unwrap();
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn special_files_are_told_apart() {
        let dir = TempDir::new("target-special");
        let fifo = dir.fifo("pipe");
        assert_eq!(judge(&fifo), Ok(Target::Fifo));
        assert_eq!(judge("/dev/null"), Ok(Target::CharacterDevice));
        // A memory-mapped file must be mappable.
        assert_eq!(
            classify(crate::mmf_manager::MANAGER, "/dev/null", OpenWhen::Now)
                .map_err(|e| e.to_string()),
            Err("MemoryMappedFileManager (/dev/null) java.io.IOException: No such device".into())
        );
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("sub/target.log", &dangling).unwrap();
        let dangling = dangling.to_string_lossy().into_owned();
        // The link's target is created by opening, but its missing parent is not made.
        assert_eq!(
            judge(&dangling),
            Err(format!(
                "FileManager ({dangling}) java.io.FileNotFoundException: {dangling} (No such file or directory)"
            ))
        );
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        assert_eq!(
            judge(&dangling),
            Ok(Target::NewFile {
                missing_parent: None
            })
        );
    }

    #[test]
    fn what_is_deleted_first_is_judged_as_a_new_file() {
        let dir = TempDir::new("target-deleted-first");
        let loop_a = link_loop(&dir);
        assert!(judge(&loop_a).is_err());
        assert_eq!(
            classify("RandomAccessFileManager", &loop_a, OpenWhen::AfterDeleting)
                .map_err(|e| e.to_string()),
            Ok(Target::NewFile {
                missing_parent: None
            })
        );
        let directory = dir.path().to_string_lossy().into_owned();
        assert!(classify(
            "RandomAccessFileManager",
            &directory,
            OpenWhen::AfterDeleting
        )
        .is_err());
    }

    #[test]
    fn deep_file_names_are_judged_in_bounded_time() {
        let dir = TempDir::new("target-deep");
        let started = std::time::Instant::now();
        // 3,000 components are longer than the kernel takes: refused at once.
        let too_long = dir.file(&format!("nodir/{}x.log", "a/".repeat(3_000)));
        let refused = judge(&too_long).expect_err("longer than PATH_MAX");
        assert!(refused.contains("File name too long"), "{refused}");
        // As many as fit: each missing parent is checked without resolving every prefix again
        // (which took half a minute at 2,000 components).
        let room = libc::PATH_MAX as usize - dir.path().as_os_str().len() - "/nodir/x.log".len();
        let deep = format!("nodir/{}", "a/".repeat(room / 2 - 1));
        let fits = dir.file(&format!("{deep}x.log"));
        assert!(fits.len() < libc::PATH_MAX as usize);
        assert_eq!(
            judge(&fits),
            Ok(Target::NewFile {
                missing_parent: Some(dir.path().join(deep.trim_end_matches('/')))
            })
        );
        // Climbing out of the missing directories lands where none will be made.
        let astray = dir.file(&format!("{deep}../../../../elsewhere/x.log"));
        assert!(judge(&astray).is_err());
        let elapsed = started.elapsed();
        assert!(elapsed < std::time::Duration::from_secs(10), "{elapsed:?}");
        assert!(entries(dir.path()).is_empty());
    }

    #[test]
    fn deferred_files_judge_only_the_parent() {
        let dir = TempDir::new("target-deferred");
        let judged = classify("FileManager", &dir.file("a/x.log"), OpenWhen::Deferred);
        assert_eq!(
            judged.map_err(|e| e.to_string()),
            Ok(Target::Deferred {
                missing_parent: Some(dir.path().join("a"))
            })
        );
        // A directory is refused even when the file is opened later, as opening it will fail.
        let directory = dir.path().to_string_lossy().into_owned();
        assert!(classify("FileManager", &directory, OpenWhen::Deferred).is_err());
    }

    #[test]
    fn a_fifo_without_reader_fails_at_once_and_one_with_a_reader_is_written() {
        use crate::test_support::{event, file_spec, LineLayout};
        use l4rs_core::Appender as _;
        use std::io::Read as _;
        use std::os::unix::fs::OpenOptionsExt as _;
        use std::sync::Arc;

        let dir = TempDir::new("target-fifo-open");
        let fifo = dir.fifo("pipe");
        let spec = file_spec(&fifo);
        let started = std::time::Instant::now();
        let refused = crate::FileAppender::new("F", &spec, Arc::new(LineLayout::default()));
        let message = match refused {
            Ok(_) => panic!("a FIFO without a reader was opened"),
            Err(error) => error.to_string(),
        };
        assert!(message.contains("(No such device or address)"), "{message}");
        assert!(message.contains("start the reader"), "{message}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));

        let mut reader = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap();
        let appender =
            crate::FileAppender::new("F", &spec, Arc::new(LineLayout::default())).unwrap();
        appender.append(&event("through the pipe")).unwrap();
        let mut received = [0u8; 64];
        let length = reader.read(&mut received).unwrap();
        assert_eq!(&received[..length], b"through the pipe\n");
        appender.stop();
    }
}
