//! The compressed forms GelfLayout sends: Java's `GZIPOutputStream` and `DeflaterOutputStream`
//! at the default level, with the deflate state kept per thread so that compressing an event
//! allocates nothing in steady state.

use std::cell::RefCell;

use flate2::{Compress, Compression, Crc, FlushCompress, Status};

/// The container around the deflate stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// RFC 1952, with the header Java writes: no name, no time, OS `255` (unknown).
    Gzip,
    /// RFC 1950 (Java's `Deflater` default).
    Zlib,
}

/// Java's fixed GZIP header: magic, deflate, no flags, no modification time, no extra flags,
/// OS unknown.
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

thread_local! {
    /// Raw deflate (for GZIP) and zlib streams, reset before each use.
    static STREAMS: RefCell<(Option<Compress>, Option<Compress>)> = const { RefCell::new((None, None)) };
}

/// Appends `input` compressed as `format` to `out` (cleared first).
pub(crate) fn compress(format: Format, input: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let reused = STREAMS.try_with(|streams| {
        let Ok(mut streams) = streams.try_borrow_mut() else {
            return false;
        };
        let slot = match format {
            Format::Gzip => &mut streams.0,
            Format::Zlib => &mut streams.1,
        };
        let stream = slot
            .get_or_insert_with(|| Compress::new(Compression::default(), format == Format::Zlib));
        stream.reset();
        write(format, stream, input, out);
        true
    });
    if reused != Ok(true) {
        let mut stream = Compress::new(Compression::default(), format == Format::Zlib);
        write(format, &mut stream, input, out);
    }
}

fn write(format: Format, stream: &mut Compress, input: &[u8], out: &mut Vec<u8>) {
    if format == Format::Gzip {
        out.extend_from_slice(&GZIP_HEADER);
    }
    // Deflate's worst case is a few bytes per 16 KiB block over the input; start there and grow
    // only if a stream ever needs more.
    out.reserve(input.len() + input.len() / 64 + 64);
    let start_in = stream.total_in();
    loop {
        let consumed = (stream.total_in() - start_in) as usize;
        match stream.compress_vec(&input[consumed..], out, FlushCompress::Finish) {
            Ok(Status::StreamEnd) => break,
            Ok(_) => out.reserve(out.capacity().max(64)),
            // Cannot happen for an in-memory stream; keep what was written rather than panic.
            Err(_) => break,
        }
    }
    if format == Format::Gzip {
        let mut crc = Crc::new();
        crc.update(input);
        out.extend_from_slice(&crc.sum().to_le_bytes());
        // ISIZE is the input length modulo 2^32.
        out.extend_from_slice(&(input.len() as u32).to_le_bytes());
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Read;

    /// Decompresses a GZIP member.
    pub(crate) fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut out)
            .expect("valid gzip");
        out
    }

    #[test]
    fn both_formats_round_trip_and_reuse_the_stream() {
        let text = "{\"short_message\":\"é\"}".repeat(100);
        let mut out = Vec::new();
        for _ in 0..2 {
            compress(Format::Gzip, text.as_bytes(), &mut out);
            assert_eq!(&out[..10], &GZIP_HEADER);
            assert_eq!(gunzip(&out), text.as_bytes());
            compress(Format::Zlib, text.as_bytes(), &mut out);
            assert_eq!(out[0], 0x78, "a zlib header");
            let mut plain = Vec::new();
            flate2::read::ZlibDecoder::new(&out[..])
                .read_to_end(&mut plain)
                .expect("valid zlib");
            assert_eq!(plain, text.as_bytes());
        }
    }
}
