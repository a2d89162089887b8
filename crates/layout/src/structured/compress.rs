//! The compressed forms GelfLayout sends: Java's `GZIPOutputStream` and `DeflaterOutputStream`
//! at the default level. They are made with zlib itself, whose output the JDK's (which is zlib)
//! matches byte for byte, and the deflate state is kept per thread so that compressing an
//! event allocates nothing in steady state.

use std::cell::RefCell;
use std::ffi::{c_int, c_uint, c_void};

use libz_sys as zlib;

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

/// One zlib deflate stream with Java's `Deflater` settings: the default level, a 32 KiB
/// window (raw for GZIP, which Java writes around a `nowrap` deflater), memory level 8.
struct Deflater {
    /// Boxed: zlib keeps a pointer back to the stream in its state.
    stream: Box<zlib::z_stream>,
}

extern "C" fn allocate(_opaque: *mut c_void, items: c_uint, size: c_uint) -> *mut c_void {
    // SAFETY: calloc accepts any sizes and returns null on failure, which zlib handles.
    unsafe { libc::calloc(items as usize, size as usize) }
}

extern "C" fn free(_opaque: *mut c_void, address: *mut c_void) {
    // SAFETY: zlib frees only what `allocate` returned.
    unsafe { libc::free(address) }
}

impl Deflater {
    fn new(format: Format) -> Option<Deflater> {
        let mut stream = Box::new(zlib::z_stream {
            next_in: std::ptr::null_mut(),
            avail_in: 0,
            total_in: 0,
            next_out: std::ptr::null_mut(),
            avail_out: 0,
            total_out: 0,
            msg: std::ptr::null_mut(),
            state: std::ptr::null_mut(),
            zalloc: allocate,
            zfree: free,
            opaque: std::ptr::null_mut(),
            data_type: 0,
            adler: 0,
            reserved: 0,
        });
        let window_bits = match format {
            Format::Gzip => -15,
            Format::Zlib => 15,
        };
        // SAFETY: the stream is initialised as zlib requires (allocators set, no input yet)
        // and the version and size are this zlib's.
        let result = unsafe {
            zlib::deflateInit2_(
                &mut *stream,
                zlib::Z_DEFAULT_COMPRESSION,
                zlib::Z_DEFLATED,
                window_bits,
                8,
                zlib::Z_DEFAULT_STRATEGY,
                zlib::zlibVersion(),
                std::mem::size_of::<zlib::z_stream>() as c_int,
            )
        };
        (result == zlib::Z_OK).then_some(Deflater { stream })
    }

    /// Appends `input`'s deflate stream to `out`, as Java's `DeflaterOutputStream` makes it:
    /// all input without flushing, then `finish`.
    fn deflate(&mut self, input: &[u8], out: &mut Vec<u8>) -> bool {
        // SAFETY: the stream was initialised by `new`; reset keeps its buffers.
        if unsafe { zlib::deflateReset(&mut *self.stream) } != zlib::Z_OK {
            return false;
        }
        // SAFETY: the stream was initialised by `new`.
        let bound = unsafe { zlib::deflateBound(&mut *self.stream, input.len() as zlib::uLong) };
        out.reserve(bound as usize + 16);
        self.stream.next_in = input.as_ptr().cast_mut();
        self.stream.avail_in = input.len() as c_uint;
        for flush in [zlib::Z_NO_FLUSH, zlib::Z_FINISH] {
            loop {
                let start = out.len();
                let spare = out.capacity() - start;
                // SAFETY: next_out points at the vector's spare capacity, avail_out is its
                // length, and only the bytes zlib reports as written are added to the length.
                let result = unsafe {
                    self.stream.next_out = out.as_mut_ptr().add(start);
                    self.stream.avail_out = spare as c_uint;
                    let result = zlib::deflate(&mut *self.stream, flush);
                    out.set_len(start + spare - self.stream.avail_out as usize);
                    result
                };
                match result {
                    zlib::Z_STREAM_END => return true,
                    zlib::Z_OK | zlib::Z_BUF_ERROR if flush == zlib::Z_NO_FLUSH => {
                        if self.stream.avail_in == 0 {
                            break;
                        }
                        out.reserve(out.capacity().max(64));
                    }
                    zlib::Z_OK | zlib::Z_BUF_ERROR => out.reserve(out.capacity().max(64)),
                    _ => return false,
                }
            }
        }
        false
    }
}

impl Drop for Deflater {
    fn drop(&mut self) {
        // SAFETY: the stream was initialised by `new` and is not used again.
        unsafe {
            zlib::deflateEnd(&mut *self.stream);
        }
    }
}

thread_local! {
    /// The raw (GZIP) and zlib streams of this thread, made on first use.
    static DEFLATERS: RefCell<(Option<Deflater>, Option<Deflater>)> =
        const { RefCell::new((None, None)) };
}

/// Puts `input` compressed as `format` in `out` (cleared first). Should zlib fail, which it
/// does only without memory, `out` holds `input` itself, as log4j2 then sends the bytes
/// uncompressed.
pub(crate) fn compress(format: Format, input: &[u8], out: &mut Vec<u8>) {
    out.clear();
    if format == Format::Gzip {
        out.extend_from_slice(&GZIP_HEADER);
    }
    let deflated = DEFLATERS
        .try_with(|deflaters| {
            let mut deflaters = deflaters.try_borrow_mut().ok()?;
            let slot = match format {
                Format::Gzip => &mut deflaters.0,
                Format::Zlib => &mut deflaters.1,
            };
            if slot.is_none() {
                *slot = Deflater::new(format);
            }
            Some(slot.as_mut()?.deflate(input, out))
        })
        .ok()
        .flatten()
        .or_else(|| Some(Deflater::new(format)?.deflate(input, out)))
        .unwrap_or(false);
    if !deflated {
        out.clear();
        out.extend_from_slice(input);
        return;
    }
    if format == Format::Gzip {
        // SAFETY: crc32 reads `input.len()` bytes from a valid slice.
        let crc = unsafe { zlib::crc32(0, input.as_ptr(), input.len() as c_uint) };
        out.extend_from_slice(&(crc as u32).to_le_bytes());
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
