//! Compressing a rolled file, the codec chosen by the archive name's suffix.

use std::fs::File;
use std::io::{self, BufReader, BufWriter};
use std::path::Path;

use super::rename;

/// The suffixes l4rs compresses to. log4j2 also knows `.xz` and `.pack200`; files rolled to
/// those are left uncompressed (with a status WARN when the appender is built).
pub(crate) const SUPPORTED: &[&str] = &[".gz", ".zip", ".zst", ".deflate", ".bz2"];

/// Compresses `source` into `target` with `level` (-1: the codec's default) and deletes
/// `source`. On failure the partial archive is removed and `source` kept. An existing `target`
/// is replaced only with `replace`; otherwise nothing is written and the error says it
/// exists.
///
/// The archive is written under a hidden partial name ([`partial_path`]) and synced. Then the
/// source is deleted, and only then the partial renamed to `target`: deleting the source is
/// the commit point. A process killed before it leaves the source whole and a partial that the
/// next start deletes; killed after it, only the finished partial, which the next start
/// renames into place ([`super::recover::settle_partial_archives`]). A source and its archive
/// never both exist, so no event is archived twice, and no truncated archive ever has its
/// final name.
pub(crate) fn compress(
    source: &Path,
    target: &Path,
    suffix: &str,
    level: i32,
    replace: bool,
) -> io::Result<()> {
    if !replace && std::fs::symlink_metadata(target).is_ok() {
        return Err(rename::exists(target));
    }
    let partial = partial_path(target);
    // A partial of this name is an earlier process's (same id) complete archive, not ours to
    // truncate or delete: the source then stays uncompressed.
    let output = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&partial)
        .map_err(|error| io::Error::new(error.kind(), format!("{}: {error}", partial.display())))?;
    keep_access(source, &output);
    let committed = write_compressed(source, output, target, suffix, level)
        .and_then(|()| std::fs::remove_file(source));
    if let Err(error) = committed {
        let _ = std::fs::remove_file(&partial);
        return Err(error);
    }
    // Should this fail, the archive stays in the partial, which the next start puts in place.
    rename::rename(&partial, target, replace).map_err(|error| {
        io::Error::new(
            error.kind(),
            format!("{error}; the archive stays in {}", partial.display()),
        )
    })
}

/// Gives the archive the mode, owner and group of the file it compresses, so that an archive of
/// a log kept private (`filePermissions="rw-------"`) is as private: log4j2 gives a compressed
/// archive the appender's `filePermissions`, `fileOwner` and `fileGroup`, which the file has.
/// What the process may not change (another owner, without the right) stays as created.
fn keep_access(source: &Path, output: &File) {
    use std::os::unix::fs::MetadataExt as _;
    let Ok(wanted) = std::fs::metadata(source) else {
        return;
    };
    let _ = output.set_permissions(wanted.permissions());
    let Ok(created) = output.metadata() else {
        return;
    };
    if (created.uid(), created.gid()) != (wanted.uid(), wanted.gid())
        && std::os::unix::fs::fchown(output, Some(wanted.uid()), Some(wanted.gid())).is_err()
    {
        let _ = std::os::unix::fs::fchown(output, None, Some(wanted.gid()));
    }
}

/// The end of a partial archive's name: `.<archive>.<pid>-<PARTIAL_SUFFIX>`.
pub(crate) const PARTIAL_SUFFIX: &str = "compressing.l4rs-rolling";

/// Where `target` is written while it is compressed: a hidden name beside it that no pattern
/// matches and no `<Delete>` touches, carrying this process's id.
pub(crate) fn partial_path(target: &Path) -> std::path::PathBuf {
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.{}-{PARTIAL_SUFFIX}", std::process::id()))
}

/// Writes `source` compressed into `output`; `target` (the final name) names the zip
/// entry.
fn write_compressed(
    source: &Path,
    output: File,
    target: &Path,
    suffix: &str,
    level: i32,
) -> io::Result<()> {
    let mut input = BufReader::new(File::open(source)?);
    let output = BufWriter::new(output);
    let flate_level = if (0..=9).contains(&level) {
        flate2::Compression::new(level as u32)
    } else {
        flate2::Compression::default()
    };
    match suffix {
        ".gz" => encode(
            &mut input,
            flate2::write::GzEncoder::new(output, flate_level),
            |encoder| encoder.finish(),
        ),
        ".deflate" => encode(
            &mut input,
            flate2::write::ZlibEncoder::new(output, flate_level),
            |encoder| encoder.finish(),
        ),
        // log4j2 (Commons Compress) ignores compressionLevel for bzip2 and uses its default,
        // the largest block size (900 KB, level 9); so does l4rs.
        ".bz2" => encode(
            &mut input,
            bzip2::write::BzEncoder::new(output, bzip2::Compression::best()),
            |encoder| encoder.finish(),
        ),
        // zstd's levels go to 22; log4j2's 0–9 scale maps onto its fast end, 0 and -1 mean
        // zstd's default.
        ".zst" => encode(
            &mut input,
            zstd::stream::write::Encoder::new(output, level.max(0))?,
            |encoder| encoder.finish(),
        ),
        ".zip" => {
            let mut zip = zip::ZipWriter::new(output);
            // The entry is named after the rolled file, as log4j2 names it.
            let entry = source
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            let entry = target
                .file_name()
                .and_then(|name| name.to_str())
                .and_then(|name| name.strip_suffix(".zip"))
                .map_or(entry, str::to_string);
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated)
                .compression_level((0..=9).contains(&level).then_some(i64::from(level)))
                .large_file(true);
            zip.start_file(entry, options).map_err(io::Error::other)?;
            io::copy(&mut input, &mut zip)?;
            sync(zip.finish().map_err(io::Error::other)?)
        }
        other => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("no {other} compression in l4rs"),
        )),
    }
}

/// Streams `input` through `encoder`, ends the stream with `finish` and syncs the archive:
/// what every streaming codec does alike.
fn encode<E: io::Write>(
    input: &mut impl io::Read,
    mut encoder: E,
    finish: impl FnOnce(E) -> io::Result<BufWriter<File>>,
) -> io::Result<()> {
    io::copy(input, &mut encoder)?;
    sync(finish(encoder)?)
}

/// Writes out the buffer and syncs the archive, so it is whole on the disk before its source
/// is deleted.
fn sync(output: BufWriter<File>) -> io::Result<()> {
    output.into_inner().map_err(|e| e.into_error())?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;

    #[test]
    fn each_codec_round_trips_and_removes_the_source() {
        let dir = crate::test_support::TempDir::new("compress");
        let text: Vec<u8> = (0..50_000)
            .flat_map(|n: u32| format!("line {n}\n").into_bytes())
            .collect();
        for suffix in SUPPORTED {
            let source = dir.path().join("app.1.log");
            let target = dir.path().join(format!("app.1.log{suffix}"));
            std::fs::write(&source, &text).unwrap();
            compress(&source, &target, suffix, -1, false).unwrap();
            assert!(!source.exists());
            let file = File::open(&target).unwrap();
            let mut back = Vec::new();
            match *suffix {
                ".gz" => flate2::read::GzDecoder::new(file)
                    .read_to_end(&mut back)
                    .unwrap(),
                ".deflate" => flate2::read::ZlibDecoder::new(file)
                    .read_to_end(&mut back)
                    .unwrap(),
                ".zst" => zstd::stream::read::Decoder::new(file)
                    .unwrap()
                    .read_to_end(&mut back)
                    .unwrap(),
                ".bz2" => bzip2::read::BzDecoder::new(file)
                    .read_to_end(&mut back)
                    .unwrap(),
                _ => {
                    let mut archive = zip::ZipArchive::new(file).unwrap();
                    let mut entry = archive.by_index(0).unwrap();
                    assert_eq!(entry.name(), "app.1.log");
                    entry.read_to_end(&mut back).unwrap()
                }
            };
            assert_eq!(back, text, "{suffix}");
        }
    }

    #[test]
    fn the_archive_keeps_the_files_mode() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = l4rs_test_support::TempDir::new("compress-mode");
        let source = dir.path().join("app-1.log");
        std::fs::write(&source, "private\n").unwrap();
        std::fs::set_permissions(&source, std::fs::Permissions::from_mode(0o600)).unwrap();
        let target = dir.path().join("app-1.log.gz");
        compress(&source, &target, ".gz", -1, false).unwrap();
        let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn an_existing_archive_is_replaced_only_when_asked() {
        let dir = crate::test_support::TempDir::new("compress-existing");
        let source = dir.path().join("app-1.log");
        let target = dir.path().join("app-1.log.gz");
        std::fs::write(&source, b"new").unwrap();
        std::fs::write(&target, b"old archive").unwrap();
        let error = compress(&source, &target, ".gz", 6, false).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists, "{error}");
        assert_eq!(std::fs::read(&source).unwrap(), b"new");
        assert_eq!(std::fs::read(&target).unwrap(), b"old archive");
        assert!(!partial_path(&target).exists());
        compress(&source, &target, ".gz", 6, true).unwrap();
        assert!(!source.exists());
        let mut back = String::new();
        flate2::read::GzDecoder::new(File::open(&target).unwrap())
            .read_to_string(&mut back)
            .unwrap();
        assert_eq!(back, "new");
    }

    #[test]
    fn a_partial_archive_already_there_is_neither_truncated_nor_deleted() {
        let dir = crate::test_support::TempDir::new("compress-partial-taken");
        let source = dir.path().join("app-1.log");
        let target = dir.path().join("app-1.log.gz");
        std::fs::write(&source, b"new").unwrap();
        // A complete archive an earlier process with this id left under the partial name.
        std::fs::write(partial_path(&target), b"earlier archive").unwrap();
        let error = compress(&source, &target, ".gz", 6, true).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists, "{error}");
        assert_eq!(
            std::fs::read(partial_path(&target)).unwrap(),
            b"earlier archive"
        );
        assert_eq!(std::fs::read(&source).unwrap(), b"new");
        assert!(!target.exists());
    }

    #[test]
    fn a_failure_keeps_the_source() {
        let dir = crate::test_support::TempDir::new("compress-fail");
        let source = dir.path().join("app.log");
        std::fs::write(&source, b"data").unwrap();
        let target = dir.path().join("missing-dir/app.log.gz");
        assert!(compress(&source, &target, ".gz", 6, false).is_err());
        assert_eq!(std::fs::read(&source).unwrap(), b"data");
    }
}
