//! The MemoryMappedFile appender's manager: one memory-mapped file per `fileName` in the process
//! (log4j2's `MemoryMappedFileManager`), written by many threads at once without a lock.
//!
//! # Layout of the file
//!
//! The data of this run starts at `start`, the end of what earlier runs wrote. From there the
//! file is cut into regions of `region_length` bytes (a power of two): region `r` covers
//! `[start + r·R, start + (r+1)·R)`. A region is *prepared* before anyone writes into it: its
//! disk blocks are reserved with `posix_fallocate` (which also extends the file, as log4j2
//! pre-extends it) and it is mapped. Reserving first is what turns a full disk into an error
//! at remap time instead of a SIGBUS at the first write into a page that has no block.
//!
//! # Writing without a lock
//!
//! A writer reserves `[a, a+n)` with one `fetch_add` on `cursor`, then copies its bytes into the
//! mapping while other writers copy theirs: no lock is held while copying. Each region counts
//! the bytes copied into it (`Slot::filled`); the writer whose copy completes the count empties
//! the slot and unmaps the region (or hands it to the file's keeper thread to unmap, see
//! [`crate::mmf_regions`]). Every byte of a region belongs to exactly one reservation and is
//! counted once, after its copy, so a mapping is unmapped only once every writer into it has
//! finished.
//!
//! Region boundaries are handed over without a lock either. The writer whose reservation holds
//! the last byte before boundary `B` (it straddles `B`, or ends exactly at it) is the boundary's
//! *owner*: it prepares the region that starts at `B`, and everyone whose reservation starts at or
//! after `B` waits until it has. Owners work strictly in order (an owner first waits for its own
//! first region), so at most one preparation runs at a time. A record larger than a region is
//! split exactly: the head goes into the region it starts in, whole regions in the middle (which
//! nobody else touches) are written with `pwrite`, and the tail goes into the region after them,
//! which the record's writer prepares for the writers that follow. Prepared regions live in
//! [`SLOTS`] slots (region `r` in slot `r % SLOTS`); an owner whose slot still holds a region
//! that has not been completely written waits for it. For large regions a keeper thread has
//! usually reserved and mapped the owner's region already (the *spare*), so the owner only
//! publishes it.
//!
//! # Failures and generations
//!
//! When a preparation fails (disk full, file too large), reservations made past the failure
//! point can never be written, yet the cursor has already handed them out. The cursor therefore
//! carries a *generation* in its top bits. The failing owner records the offset (within the
//! generation) from which nothing can be written; every reservation of that generation at or past
//! it fails with the error, is counted as lost, and is not written. After [`RETRY_INTERVAL`] a
//! failing writer starts a new generation where the data really ends (after every writer before
//! the failure point has finished), so the file never holds a gap, and the first writer to cross
//! the boundary tries again. Closing also bumps the generation, so writers racing with the close
//! fail cleanly instead of writing past the footer.
//!
//! A generation's offsets have 44 bits: a generation that would span 2^43 bytes fails one record
//! with `EFBIG` and continues in a fresh generation. The 20-bit generation number can only be
//! confused with an older one by a writer that stalls across about a million failed remaps,
//! which at one retry per [`RETRY_INTERVAL`] takes days of a full disk.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::FileExt as _;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use l4rs_core::{status, Layout};
use memmap2::MmapOptions;

use crate::file_manager::{prepare, report_stream_error, report_write_result, WriteError};
use crate::lock;
use crate::mmf_regions::{KeeperState, Regions, Slot, EMPTY, MIN_KEPT_REGION, SLOTS};
use crate::mmf_sync::{sync_job, BackgroundSync, Job};
use crate::registry::{Managed, Registry};
use crate::target::{open_error, OpenWhen};
use crate::AppenderBuildError;
use l4rs_core::fs::open_without_waiting;

/// Every memory-mapped file manager of the process, by `fileName` as configured.
pub(crate) static MEMORY_MAPPED_FILE_MANAGERS: Registry<String, MemoryMappedFileManager> =
    Registry::new();

/// The name log4j2 gives the manager in its messages.
pub(crate) const MANAGER: &str = "MemoryMappedFileManager";

/// Bits of the cursor that hold the offset within a generation; the generation is above them.
const GENERATION_SHIFT: u32 = 44;
const OFFSET_MASK: u64 = (1 << GENERATION_SHIFT) - 1;
/// The failure point of a generation that has not failed.
const NO_FAILURE: u64 = OFFSET_MASK;
/// A generation covers at most this many bytes, far below the offset bits, so reservations that
/// overshoot a failure point never carry into the generation bits.
const MAX_GENERATION_SPAN: u64 = 1 << 43;
/// Records larger than this are refused rather than risk the offset arithmetic.
const MAX_RECORD: usize = 1 << 32;
/// How long after a failed remap writers keep failing before one of them tries again.
pub(crate) const RETRY_INTERVAL: Duration = Duration::from_millis(250);
/// How long closing waits for writers still copying before it gives up unmapping.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(10);
/// The bytes read at a time when looking for the end of the data left by an earlier run.
const SCAN_CHUNK: usize = 64 * 1024;

/// The reservation cursor, alone on its cache line: it is the one word every writer changes.
#[repr(align(128))]
struct Cursor(AtomicU64);

/// Words every writer reads and almost nobody writes, kept off the cursor's cache line.
#[repr(align(128))]
struct Shared {
    /// `generation << GENERATION_SHIFT | failure point` of the generation whose reservations
    /// are valid (below the failure point).
    state: AtomicU64,
    /// The file offset of offset 0 of the current generation.
    generation_base: AtomicU64,
    /// Set once closing starts.
    closed: AtomicBool,
}

/// State changed only by failures, retries and closing.
#[derive(Default)]
struct Control {
    /// When the current failure was recorded; `None` while writing works.
    failed_at: Option<Instant>,
    /// True from a failure until a preparation succeeds again, so the episode is reported once
    /// when it starts and once when it ends.
    in_episode: bool,
    closed: bool,
}

/// One memory-mapped file, shared by every MemoryMappedFile appender configured with its name.
pub(crate) struct MemoryMappedFileManager {
    file_name: String,
    file: Arc<File>,
    /// The layout of the appender that created the manager: it provides the footer.
    layout: Arc<dyn Layout>,
    region_length: u64,
    region_shift: u32,
    /// Where this run's data starts in the file.
    start: u64,
    cursor: Cursor,
    shared: Shared,
    /// Regions `[0, prepared)` are prepared.
    prepared: AtomicU64,
    /// Boundary owners at work. Closing and retries wait for none: an owner whose record ends at
    /// the boundary has already counted its bytes when it reserves the next region, and that
    /// reservation would extend a file that closing has just truncated.
    preparing: AtomicU32,
    /// The file offset below which every byte is either in a prepared region or was written by
    /// a preparation (so closing knows no preparation still owes bytes below it).
    ready_end: AtomicU64,
    /// The mapped regions, shared with the keeper thread (see [`crate::mmf_regions`]).
    regions: Arc<Regions>,
    /// Runs [`Regions::keep`] off the writing threads (`None`: regions too small to bother).
    keeper: Option<BackgroundSync>,
    control: Mutex<Control>,
    /// Wakes writers waiting for a preparation, a free slot or a failure.
    wake_lock: Mutex<()>,
    wake: Condvar,
    /// The error of the last failed preparation, returned to the writers it dooms.
    failure_errno: AtomicI32,
    /// Records that could not be written since the current failure episode began.
    lost: AtomicU64,
    /// Runs the end-of-batch syncs off the writing thread.
    syncer: BackgroundSync,
    /// Failures that tests inject into the next block reservations and mappings.
    #[cfg(test)]
    pub(crate) inject: Injected,
}

/// Counts of upcoming operations that fail, for tests of the failure paths that a real disk
/// cannot be made to produce on demand.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Injected {
    /// The next this many block reservations fail with ENOSPC.
    pub(crate) reserve_failures: std::sync::atomic::AtomicU32,
    /// The next this many mappings fail with ENOMEM.
    pub(crate) map_failures: std::sync::atomic::AtomicU32,
    /// The next copy whose first byte is the given one (a record's first byte, or for a record
    /// split across regions the first byte of the chunk) stops after its reservation and before
    /// its copy, in [`attempt`]'s fast path or in [`copy_chunk`], until the test sends on the
    /// channel. Set through [`Injected::stall_next_copy`].
    ///
    /// [`attempt`]: MemoryMappedFileManager::attempt
    /// [`copy_chunk`]: MemoryMappedFileManager::copy_chunk
    stall_copy: Mutex<Option<(u8, std::sync::mpsc::Receiver<()>)>>,
    /// True while [`Injected::stall_copy`] holds a stall not yet taken: copies look at it first
    /// and take the lock only when it is set, so the hook does not serialise the writers of
    /// tests that never arm it.
    stall_armed: AtomicBool,
    /// True while a writer is stopped by [`Injected::stall_copy`].
    pub(crate) stalled: AtomicBool,
}

#[cfg(test)]
impl Injected {
    /// Arms [`Injected::stall_copy`] for the next copy starting with `first`.
    pub(crate) fn stall_next_copy(&self, first: u8, release: std::sync::mpsc::Receiver<()>) {
        *lock(&self.stall_copy) = Some((first, release));
        self.stall_armed.store(true, Ordering::SeqCst);
    }

    fn stall_if_marked(&self, bytes: &[u8]) {
        if !self.stall_armed.load(Ordering::Relaxed) {
            return;
        }
        let stall = {
            let mut armed = lock(&self.stall_copy);
            match &*armed {
                Some((first, _)) if bytes.first() == Some(first) => {
                    self.stall_armed.store(false, Ordering::SeqCst);
                    armed.take()
                }
                _ => None,
            }
        };
        if let Some((_, release)) = stall {
            self.stalled.store(true, Ordering::SeqCst);
            let _ = release.recv();
            self.stalled.store(false, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
fn injected(counter: &std::sync::atomic::AtomicU32, errno: i32) -> io::Result<()> {
    let take = counter.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
    match take {
        Ok(_) => Err(io::Error::from_raw_os_error(errno)),
        Err(_) => Ok(()),
    }
}

/// Why one try at writing did not write.
enum Attempt {
    /// The reservation is past a failure point or the close: nothing was written.
    Doomed,
    /// This writer's own remap failed, or a write into reserved blocks did.
    Failed(WriteError),
}

/// What a reservation turned out to be.
enum Reservation {
    /// Valid: write at this file offset.
    At(u64),
    /// Not writable: the manager failed or closed after it was handed out.
    Doomed,
}

impl MemoryMappedFileManager {
    /// Opens `file_name` and maps its first region.
    ///
    /// With `append`, writing continues at the end of the data already there: trailing NUL
    /// bytes, the unwritten rest of the last region of a run that was killed, are cut off first,
    /// and the holes its writers left are filled (see [`recover_killed_run`]).
    /// Without it, the file is deleted and started anew, as log4j2 does. `region_length` must be
    /// a power of two (the appender rounds it).
    pub(crate) fn create(
        file_name: &str,
        append: bool,
        region_length: u64,
        layout: Arc<dyn Layout>,
    ) -> Result<MemoryMappedFileManager, AppenderBuildError> {
        debug_assert!(region_length.is_power_of_two());
        let path = Path::new(file_name);
        if !append {
            // A missing file is the expected failure; any other resurfaces when opening.
            let _ = std::fs::remove_file(path);
        }
        let target = prepare(MANAGER, file_name, OpenWhen::Now)?;
        let file = open_without_waiting(
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                // The data already there is kept; how much of it is data is found below.
                .truncate(false),
            path,
            0,
        )
        .map_err(|source| open_error(MANAGER, file_name, &target, source))?;
        let prepare_error = |action: &'static str| {
            move |source| AppenderBuildError::Prepare {
                manager: MANAGER,
                file_name: file_name.to_string(),
                action,
                source,
            }
        };
        let length = file
            .metadata()
            .map_err(prepare_error("Unable to read the file's length"))?
            .len();
        let start = if append {
            let recovered = recover_killed_run(&file, length, region_length).map_err(
                prepare_error("Unable to recover the data of an earlier run"),
            )?;
            recovered.report(file_name);
            recovered.data_end
        } else {
            0
        };
        if start != length {
            file.set_len(start).map_err(prepare_error(
                "Unable to cut off the padding of an earlier run",
            ))?;
        }
        let file = Arc::new(file);
        let manager = MemoryMappedFileManager {
            file_name: file_name.to_string(),
            regions: Arc::new(Regions::new(
                Arc::clone(&file),
                start,
                region_length,
                region_length >= MIN_KEPT_REGION,
                RETRY_INTERVAL,
            )),
            file,
            layout,
            region_length,
            region_shift: region_length.trailing_zeros(),
            start,
            cursor: Cursor(AtomicU64::new(0)),
            shared: Shared {
                state: AtomicU64::new(NO_FAILURE),
                generation_base: AtomicU64::new(start),
                closed: AtomicBool::new(false),
            },
            prepared: AtomicU64::new(0),
            preparing: AtomicU32::new(0),
            ready_end: AtomicU64::new(start),
            keeper: (region_length >= MIN_KEPT_REGION).then(|| {
                BackgroundSync::with_thread(file_name, "l4rs-mmf-keeper", false, Duration::ZERO)
            }),
            control: Mutex::new(Control::default()),
            wake_lock: Mutex::new(()),
            wake: Condvar::new(),
            failure_errno: AtomicI32::new(0),
            lost: AtomicU64::new(0),
            syncer: BackgroundSync::new(file_name),
            #[cfg(test)]
            inject: Injected::default(),
        };
        // The background threads start now, so that no event pays for starting them (nor
        // allocates: the thread and its job are allocated once, here).
        manager.syncer.start(|| sync_job(&manager.file));
        if let Some(keeper) = &manager.keeper {
            keeper.start(|| Ok(manager.keeper_job()));
        }
        // The first region is prepared now, so the first event pays nothing. If the disk is
        // already full the appender still starts: the first writer tries again, and so on until
        // space returns.
        let first = manager
            .reserve_blocks(start, start + region_length, start)
            .and_then(|()| manager.map_region(0, 0));
        match first {
            Ok(()) => manager.publish_prepared(1, start + region_length),
            Err(error) => {
                lock(&manager.control).in_episode = true;
                manager.report_failure(&error);
            }
        }
        Ok(manager)
    }

    /// The `fileName` the manager was created for.
    pub(crate) fn file_name(&self) -> &str {
        &self.file_name
    }

    /// Where this run's data starts: the length of the data earlier runs left (0 when the file
    /// was started anew).
    pub(crate) fn data_start(&self) -> u64 {
        self.start
    }

    /// The region length in use.
    pub(crate) fn region_length(&self) -> u64 {
        self.region_length
    }

    /// Writes one record. It is in the page cache when this returns `Ok`, so it survives the
    /// process being killed.
    pub(crate) fn write(&self, bytes: &[u8]) -> Result<(), WriteError> {
        if bytes.is_empty() {
            return Ok(());
        }
        if bytes.len() > MAX_RECORD {
            return Err(WriteError::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a record of {} bytes is too large", bytes.len()),
            )));
        }
        let mut retried = false;
        loop {
            if self.shared.closed.load(Ordering::Relaxed) {
                return Err(WriteError::Closed);
            }
            match self.attempt(bytes) {
                Ok(()) => return Ok(()),
                Err(Attempt::Failed(error)) => {
                    self.lost.fetch_add(1, Ordering::Relaxed);
                    return Err(error);
                }
                Err(Attempt::Doomed) => {
                    if self.shared.closed.load(Ordering::Acquire) {
                        return Err(WriteError::Closed);
                    }
                    // The writer that starts a retry tries its own record once more, so the
                    // first record after space returns is not lost for nothing.
                    if !retried && self.maybe_retry() {
                        retried = true;
                        continue;
                    }
                    self.lost.fetch_add(1, Ordering::Relaxed);
                    return Err(self.failure());
                }
            }
        }
    }

    /// One try at writing a record.
    fn attempt(&self, bytes: &[u8]) -> Result<(), Attempt> {
        let length = bytes.len() as u64;
        let reservation = self.cursor.0.fetch_add(length, Ordering::AcqRel);
        let generation = reservation >> GENERATION_SHIFT;
        let offset = reservation & OFFSET_MASK;
        let position = match self.check(generation, offset) {
            Reservation::At(position) => position,
            Reservation::Doomed => return Err(Attempt::Doomed),
        };
        let region = self.region_of(position);
        let end = position + length;
        // The common case: inside one region that is mapped, and not ending at its boundary (the
        // writer ending there owns the boundary).
        if end < self.region_start(region + 1) {
            let slot = self.slot(region);
            if slot.region.load(Ordering::Acquire) == region {
                let base = slot.base.load(Ordering::Relaxed);
                #[cfg(test)]
                self.inject.stall_if_marked(bytes);
                // SAFETY: the slot holds `region`, mapped for its whole length at `base`, and it
                // stays mapped until every byte of it is counted, ours included. Our bytes lie
                // inside the region, and no other writer was given them.
                unsafe { copy_to(base, position - self.region_start(region), bytes) };
                self.count(slot, length);
                if self
                    .regions
                    .wants_prefault(end, self.region_start(region + 1))
                {
                    self.request_keeper();
                }
                return Ok(());
            }
        }
        self.write_slow(bytes, generation, offset, position)
    }

    /// Where a reservation goes, if it is valid.
    fn check(&self, generation: u64, offset: u64) -> Reservation {
        let state = self.shared.state.load(Ordering::Acquire);
        if generation != state >> GENERATION_SHIFT || offset >= (state & OFFSET_MASK) {
            return Reservation::Doomed;
        }
        // The cursor value we got was written after the generation's base was stored (see
        // `start_generation`), so a relaxed load sees it.
        Reservation::At(self.shared.generation_base.load(Ordering::Relaxed) + offset)
    }

    /// The error for a reservation that cannot be written: the one that failed the remap.
    fn failure(&self) -> WriteError {
        let errno = self.failure_errno.load(Ordering::Relaxed);
        WriteError::Io(if errno == 0 {
            io::Error::other("the memory-mapped file could not be extended")
        } else {
            io::Error::from_raw_os_error(errno)
        })
    }

    /// Everything but the common case: waiting for a region, owning boundaries, large records.
    fn write_slow(
        &self,
        bytes: &[u8],
        generation: u64,
        offset: u64,
        position: u64,
    ) -> Result<(), Attempt> {
        let length = bytes.len() as u64;
        let end = position + length;
        let first = self.region_of(position);
        // The region holding the first byte after the record: the record's writer owns every
        // boundary up to its start.
        let next = self.region_of(end);
        // Offset 0 of a generation may start in a region nobody has prepared (the first region
        // failed, a retry starts at a boundary, or a region could not be mapped and its bytes
        // were written without it); its writer prepares it.
        let owns_first = offset == 0 && self.prepared.load(Ordering::Acquire) <= first;
        if !owns_first {
            self.wait_prepared(first + 1, generation, offset)?;
        }
        let first_new = if owns_first { first } else { first + 1 };
        if next < first_new {
            // No boundary of ours: the region was just not mapped yet when we looked.
            self.copy_chunk(first, position, bytes);
            return Ok(());
        }
        self.preparing.fetch_add(1, Ordering::AcqRel);
        let result = self.prepare_and_write(bytes, generation, offset, position, first_new, next);
        self.preparing.fetch_sub(1, Ordering::AcqRel);
        self.notify();
        result
    }

    /// The owner's work: prepares regions `first_new..=next` and writes the record around them.
    fn prepare_and_write(
        &self,
        bytes: &[u8],
        generation: u64,
        offset: u64,
        position: u64,
        first_new: u64,
        next: u64,
    ) -> Result<(), Attempt> {
        let length = bytes.len() as u64;
        let end = position + length;
        let first = self.region_of(position);
        let new_start = self.region_start(first_new);
        let generation_base = position - offset;
        if let Err(error) =
            self.reserve_blocks(new_start, self.region_start(next + 1), generation_base)
        {
            if end <= new_start {
                // The record ends exactly at the boundary: it fits, only its followers fail.
                self.copy_chunk(first, position, bytes);
                self.fail(generation, offset + length, &error);
                return Ok(());
            }
            self.fail(generation, offset, &error);
            return Err(Attempt::Failed(WriteError::Io(error)));
        }
        let generation_end = offset + length;
        if first_new == first {
            // Bytes of the region before this generation were written by the previous one.
            if let Err(error) = self.map_region(first, position - self.region_start(first)) {
                return self.finish_unmapped(
                    bytes,
                    position,
                    first,
                    generation,
                    generation_end,
                    &error,
                );
            }
        }
        // The head, into the region the record starts in.
        let head_end = end.min(self.region_start(first + 1));
        let (head, rest) = bytes.split_at((head_end - position) as usize);
        self.copy_chunk(first, position, head);
        // Whole regions in the middle belong to this record alone.
        let middle_end = end.min(self.region_start(next)).max(head_end);
        let (middle, tail) = rest.split_at((middle_end - head_end) as usize);
        let mut result = Ok(());
        if !middle.is_empty() {
            // The blocks are reserved, so this fails only on an I/O error; the record is then
            // incomplete, and reported as failed.
            if let Err(error) = self.file.write_all_at(middle, head_end) {
                result = Err(Attempt::Failed(WriteError::Io(error)));
            }
        }
        if next != first {
            // The region holding the record's tail, or starting right after it, is shared with
            // the writers that follow.
            if let Err(error) = self.map_region(next, 0) {
                let outcome = self.finish_unmapped(
                    tail,
                    middle_end,
                    next,
                    generation,
                    generation_end,
                    &error,
                );
                return result.and(outcome);
            }
        }
        self.publish_prepared(next + 1, self.region_start(next + 1));
        self.end_episode();
        if !tail.is_empty() {
            self.copy_chunk(next, middle_end, tail);
        }
        result
    }

    /// A region could be reserved but not mapped (the address space or the map count ran
    /// out): `rest`, the record's bytes from file offset `from` on, goes in with `pwrite` into
    /// the reserved blocks, and the generation fails right after the record (`generation_end`),
    /// so `region` is mapped again by the first writer of the next generation.
    fn finish_unmapped(
        &self,
        rest: &[u8],
        from: u64,
        region: u64,
        generation: u64,
        generation_end: u64,
        error: &io::Error,
    ) -> Result<(), Attempt> {
        let end = from + rest.len() as u64;
        let written = self.file.write_all_at(rest, from);
        // Regions before `region` are complete, and every byte up to `end` is in the file.
        self.publish_prepared(region, end);
        self.fail(generation, generation_end, error);
        written.map_err(|error| Attempt::Failed(WriteError::Io(error)))
    }

    /// Copies `bytes` to file offset `position` through region `region`'s mapping and counts
    /// them. The region must be prepared and hold every byte.
    fn copy_chunk(&self, region: u64, position: u64, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let slot = self.slot(region);
        debug_assert_eq!(slot.region.load(Ordering::Acquire), region);
        let base = slot.base.load(Ordering::Acquire);
        #[cfg(test)]
        self.inject.stall_if_marked(bytes);
        // SAFETY: as in `write`: the region is mapped at `base` until all its bytes are counted,
        // ours included, and these bytes were reserved by this writer alone.
        unsafe { copy_to(base, position - self.region_start(region), bytes) };
        self.count(slot, bytes.len() as u64);
    }

    /// Counts bytes copied into a slot's region; the writer completing it empties the slot.
    fn count(&self, slot: &Slot, length: u64) {
        let filled = slot.filled.fetch_add(length, Ordering::AcqRel) + length;
        if filled == self.region_length {
            // Every byte of the region is written and counted: nobody uses this mapping now.
            let mapping = slot.vacate();
            self.notify();
            // Unmapping a populated region takes about a millisecond: the keeper does it.
            match (mapping, &self.keeper) {
                (Some(mapping), Some(_)) => {
                    drop(self.regions.hand_over(mapping));
                    self.request_keeper();
                }
                (mapping, _) => drop(mapping),
            }
        }
    }

    /// Waits until regions `[0, target)` are prepared. Fails when the reservation is doomed
    /// meanwhile (a failure before it, or closing).
    fn wait_prepared(&self, target: u64, generation: u64, offset: u64) -> Result<(), Attempt> {
        let mut spins = 0u32;
        loop {
            if self.prepared.load(Ordering::Acquire) >= target {
                // The regions may have been prepared by a later generation; only a reservation
                // still valid now may use them.
                return match self.check(generation, offset) {
                    Reservation::At(_) => Ok(()),
                    Reservation::Doomed => Err(Attempt::Doomed),
                };
            }
            if let Reservation::Doomed = self.check(generation, offset) {
                return Err(Attempt::Doomed);
            }
            self.pause(&mut spins);
        }
    }

    /// Backs off while waiting for another writer: spin briefly (a remap usually takes
    /// microseconds), then sleep on the condition variable, which preparations, failures and
    /// completed regions signal. The timeout only bounds the cost of a missed signal.
    fn pause(&self, spins: &mut u32) {
        *spins += 1;
        if *spins < 64 {
            std::hint::spin_loop();
        } else if *spins < 128 {
            std::thread::yield_now();
        } else {
            let guard = lock(&self.wake_lock);
            let _ = self
                .wake
                .wait_timeout(guard, Duration::from_millis(1))
                .map(|(guard, _)| drop(guard));
        }
    }

    fn notify(&self) {
        // Taking the lock orders this signal after a waiter's check of its condition.
        drop(lock(&self.wake_lock));
        self.wake.notify_all();
    }

    /// Reserves disk blocks for `[from, to)`, which also extends the file to `to`.
    fn reserve_blocks(&self, from: u64, to: u64, generation_base: u64) -> io::Result<()> {
        if to - generation_base > MAX_GENERATION_SPAN {
            return Err(io::Error::from_raw_os_error(libc::EFBIG));
        }
        #[cfg(test)]
        injected(&self.inject.reserve_failures, libc::ENOSPC)?;
        self.regions.reserve_for_owner(from, to)
    }

    /// Maps `region` into its slot, waiting for the slot's previous region to be complete.
    /// `filled` bytes at its start were written already (by an earlier generation).
    fn map_region(&self, region: u64, filled: u64) -> io::Result<()> {
        let slot = self.slot(region);
        let mut spins = 0;
        while slot.region.load(Ordering::Acquire) != EMPTY {
            self.pause(&mut spins);
        }
        let length = usize::try_from(self.region_length)
            .map_err(|_| io::Error::from_raw_os_error(libc::EFBIG))?;
        #[cfg(test)]
        injected(&self.inject.map_failures, libc::ENOMEM)?;
        let mapping = match self.regions.take_spare(region) {
            Some(mapping) => mapping,
            None => MmapOptions::new()
                .offset(self.region_start(region))
                .len(length)
                .map_raw(self.file.as_ref())?,
        };
        self.regions.install(region, mapping, filled);
        Ok(())
    }

    fn publish_prepared(&self, prepared: u64, ready_end: u64) {
        self.ready_end.fetch_max(ready_end, Ordering::AcqRel);
        self.prepared.store(prepared, Ordering::Release);
        self.notify();
    }

    /// Records that reservations of `generation` from `offset` on cannot be written.
    fn fail(&self, generation: u64, offset: u64, error: &io::Error) {
        let mut control = lock(&self.control);
        let state = self.shared.state.load(Ordering::Acquire);
        if state >> GENERATION_SHIFT == generation {
            let point = (state & OFFSET_MASK).min(offset);
            self.shared
                .state
                .store(generation << GENERATION_SHIFT | point, Ordering::Release);
        }
        self.failure_errno
            .store(error.raw_os_error().unwrap_or(libc::EIO), Ordering::Relaxed);
        control.failed_at = Some(Instant::now());
        if !control.in_episode {
            control.in_episode = true;
            drop(control);
            self.report_failure(error);
        }
        self.notify();
    }

    fn report_failure(&self, error: &io::Error) {
        status::error(format_args!(
            "{MANAGER} ({}) Unable to remap: could not reserve or map the next {} bytes: {}. \
             Records that do not fit are dropped and reported until it succeeds; it is retried \
             every {} ms.",
            self.file_name,
            self.region_length,
            crate::os_reason(error),
            self.retry_interval().as_millis()
        ));
    }

    /// After a successful preparation: closes a failure episode, reporting what it cost.
    fn end_episode(&self) {
        let mut control = lock(&self.control);
        if control.in_episode {
            control.in_episode = false;
            drop(control);
            let lost = self.lost.swap(0, Ordering::Relaxed);
            status::error(format_args!(
                "{MANAGER} ({}) Remapped again; {lost} record(s) could not be written meanwhile",
                self.file_name
            ));
        }
    }

    /// Called by failing writers: once [`RETRY_INTERVAL`] has passed since the failure, starts a
    /// new generation where the data ends, so the next boundary owner tries again.
    /// Returns true when it did.
    fn maybe_retry(&self) -> bool {
        let Ok(mut control) = self.control.try_lock() else {
            return false;
        };
        let due = control
            .failed_at
            .is_some_and(|at| at.elapsed() >= self.retry_interval());
        if !due || control.closed {
            return false;
        }
        let state = self.shared.state.load(Ordering::Acquire);
        let point = state & OFFSET_MASK;
        let data_end = self.shared.generation_base.load(Ordering::Relaxed) + point;
        // Writers before the failure point are still copying (for microseconds); if they are
        // not done yet, a later failing writer retries.
        if !self.writers_done(data_end) {
            return false;
        }
        self.start_generation((state >> GENERATION_SHIFT) + 1, data_end);
        control.failed_at = None;
        true
    }

    /// Starts generation `generation` at file offset `base`. Called with `control` held.
    fn start_generation(&self, generation: u64, base: u64) {
        let generation = generation & (u64::MAX >> GENERATION_SHIFT);
        self.shared.generation_base.store(base, Ordering::Relaxed);
        self.shared.state.store(
            generation << GENERATION_SHIFT | NO_FAILURE,
            Ordering::Release,
        );
        // Writers who get a value of the new generation from the cursor see the base and state
        // stored above (this swap releases them).
        self.cursor
            .0
            .store(generation << GENERATION_SHIFT, Ordering::Release);
        self.notify();
    }

    /// True when every byte below file offset `end` has been written and no file operation is
    /// pending: no boundary owner is at work, no preparation still owes bytes below `end`, and
    /// every mapped region with data below it is counted up to it.
    fn writers_done(&self, end: u64) -> bool {
        if self.preparing.load(Ordering::Acquire) != 0
            || self.ready_end.load(Ordering::Acquire) < end
        {
            return false;
        }
        self.regions.slots().iter().all(|slot| {
            let region = slot.region.load(Ordering::Acquire);
            if region == EMPTY {
                return true;
            }
            let region_start = self.region_start(region);
            region_start >= end || slot.filled.load(Ordering::Acquire) == end - region_start
        })
    }

    fn retry_interval(&self) -> Duration {
        self.regions.retry_interval()
    }

    /// Shortens the interval between retries, for tests that go through many failures.
    #[cfg(test)]
    pub(crate) fn set_retry_interval(&self, interval: Duration) {
        self.regions.set_retry_interval(interval);
    }

    fn region_of(&self, position: u64) -> u64 {
        (position - self.start) >> self.region_shift
    }

    fn region_start(&self, region: u64) -> u64 {
        self.start + (region << self.region_shift)
    }

    fn slot(&self, region: u64) -> &Slot {
        self.regions.slot(region)
    }

    /// Records lost since the current failure episode began.
    #[cfg(test)]
    pub(crate) fn lost(&self) -> u64 {
        self.lost.load(Ordering::Relaxed)
    }

    /// `msync`'s job: the data written so far goes to the disk (log4j2's `force()`), before
    /// this returns.
    pub(crate) fn sync(&self) -> Result<(), WriteError> {
        if self.shared.closed.load(Ordering::Acquire) {
            return Err(WriteError::Closed);
        }
        // `fdatasync` writes back every dirty page of the file, those dirtied through mappings
        // included, without touching mappings that writers may be retiring meanwhile.
        self.syncer.sync_now(&self.file).map_err(|error| {
            // A close that ran meanwhile let go of the file: the sync met `/dev/null`, which
            // refuses it with EINVAL (a regular file never does). Any other error is the file's.
            let released = error.raw_os_error() == Some(libc::EINVAL);
            if released && self.shared.closed.load(Ordering::Acquire) {
                WriteError::Closed
            } else {
                WriteError::Io(error)
            }
        })
    }

    /// Asks for the data written so far to go to the disk soon, without waiting for it (see
    /// [`crate::mmf_sync`]): the end of an asynchronous stage's batch.
    pub(crate) fn request_sync(&self) {
        if !self.shared.closed.load(Ordering::Acquire) {
            self.request_sync_past_check();
        }
    }

    /// [`request_sync`](Self::request_sync) past its check, where a close may still overtake
    /// it. Once the close has stopped the syncer the request runs inline, and
    /// [`sync`](Self::sync) finds the manager closed (the close marks it before stopping the
    /// syncer) and skips the sync: closing does not sync, as in log4j2. That is no failure to
    /// report; the file is `/dev/null` by then, and `fdatasync` on it would fail.
    fn request_sync_past_check(&self) {
        self.syncer.request_job(
            || sync_job(&self.file),
            || match self.sync() {
                Ok(()) | Err(WriteError::Closed) => Ok(()),
                Err(WriteError::Io(error)) => Err(error),
            },
        );
    }

    /// Runs [`request_sync_past_check`](Self::request_sync_past_check), for the test of a
    /// request that a close overtakes.
    #[cfg(test)]
    pub(crate) fn request_sync_as_if_open(&self) {
        self.request_sync_past_check();
    }

    /// Asks the keeper thread to work ahead of the writers and behind them (see
    /// [`crate::mmf_regions`]).
    fn request_keeper(&self) {
        let Some(keeper) = &self.keeper else {
            return;
        };
        // Without the thread the writers fault their pages and prepare their regions
        // themselves, and what they handed over is unmapped here.
        keeper.request_job(
            || Ok(self.keeper_job()),
            || {
                self.regions.without_keeper();
                Ok(())
            },
        );
    }

    /// The keeper's job: [`Regions::keep`].
    fn keeper_job(&self) -> Job {
        let regions = Arc::clone(&self.regions);
        let mut state = KeeperState::default();
        Box::new(move || {
            regions.keep(&mut state);
            Ok(())
        })
    }

    /// The file's keeper, for tests that count its runs.
    #[cfg(test)]
    pub(crate) fn keeper(&self) -> Option<&BackgroundSync> {
        self.keeper.as_ref()
    }

    /// The file's syncer, for tests that count or slow its syncs.
    #[cfg(test)]
    pub(crate) fn syncer(&self) -> &BackgroundSync {
        &self.syncer
    }
}

impl Managed for MemoryMappedFileManager {
    fn flush(&self) {
        report_write_result(&self.file_name, self.sync());
    }

    /// Stops writers, waits for those still copying, writes the footer after the data, unmaps
    /// and truncates the file to exactly the bytes written (log4j2 truncates too).
    fn close(&self) {
        self.close_with(true);
    }
}

impl MemoryMappedFileManager {
    /// Closes as [`Managed::close`] describes, with what
    /// [`closing_footer`](crate::encode::closing_footer) makes of `footer` after the data.
    pub(crate) fn close_with(&self, footer: bool) {
        {
            let mut control = lock(&self.control);
            if control.closed {
                return;
            }
            control.closed = true;
            self.shared.closed.store(true, Ordering::Release);
            // Moving the cursor to the next generation dooms every reservation made from now
            // on, and tells where the valid ones end. No retry can start a generation now.
            let last = self
                .cursor
                .0
                .fetch_add(1 << GENERATION_SHIFT, Ordering::AcqRel);
            let state = self.shared.state.load(Ordering::Acquire);
            if state >> GENERATION_SHIFT == last >> GENERATION_SHIFT {
                let point = (state & OFFSET_MASK).min(last & OFFSET_MASK);
                self.shared
                    .state
                    .store(state & !OFFSET_MASK | point, Ordering::Release);
            }
        }
        self.notify();
        // A boundary owner still at work may yet fail and move the end down, so the end is
        // read again while waiting (without holding `control`, which that owner needs).
        let data_end = || {
            self.shared.generation_base.load(Ordering::Relaxed)
                + (self.shared.state.load(Ordering::Acquire) & OFFSET_MASK)
        };
        let deadline = Instant::now() + CLOSE_TIMEOUT;
        let mut spins = 0;
        let mut finished = self.writers_done(data_end());
        while !finished && Instant::now() < deadline {
            self.pause(&mut spins);
            finished = self.writers_done(data_end());
        }
        let data_end = data_end();
        if let Some(keeper) = &self.keeper {
            keeper.stop();
        }
        // A sync the last batch asked for still runs (closing itself does not sync, as in
        // log4j2); it must not outlive the file's close.
        self.syncer.stop();
        let footer = crate::encode::closing_footer(self.layout.as_ref(), footer);
        if let Err(error) = self.file.write_all_at(&footer, data_end) {
            report_stream_error(&self.file_name, &error);
        }
        if finished {
            self.regions.unmap_all();
        } else {
            // Unmapping now could crash a writer that is still copying; the mappings go when
            // the manager is dropped, after the last writer, and the file stays open until
            // then: a late writer may still write a record's middle with `pwrite`.
            status::error(format_args!(
                "{MANAGER} ({}) Writers were still copying {} s after closing began; the file \
                 may hold NUL bytes where their records were to go",
                self.file_name,
                CLOSE_TIMEOUT.as_secs()
            ));
        }
        if let Err(error) = self.file.set_len(data_end + footer.len() as u64) {
            status::error(format_args!(
                "{MANAGER} ({}) Unable to truncate the file to its data: {error}",
                self.file_name
            ));
        }
        if finished {
            self.release_file();
        }
    }

    /// Lets go of the closed file, whose descriptor the keeper's regions share: the
    /// descriptor is pointed at `/dev/null` (`dup3`), which closes the file in one step and
    /// leaves the number taken, so no handle that still names it can reach a file opened
    /// later. Only once no writer copies and the keeper and the syncer have stopped: a late
    /// `fdatasync` or `posix_fallocate` on it then fails, and is not reported (see
    /// [`MemoryMappedFileManager::sync`]).
    ///
    /// Without this the file stayed open until the manager was dropped: for a configuration
    /// that was stopped (`shutdown`), until the next one replaced it. A file deleted in between
    /// kept its blocks, and when they were finally freed (8 GB in the bench) the host's work
    /// for it paused this VM in whatever ran then (docs/benchmarks.md). log4j2 closes the
    /// channel when its manager stops.
    fn release_file(&self) {
        use std::os::unix::io::AsRawFd as _;
        let null = match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
        {
            Ok(null) => null,
            Err(error) => return self.report_kept_open(&error),
        };
        loop {
            // SAFETY: dup3 onto a descriptor this process owns (held open by `self.file`)
            // from one it just opened; the number stays valid and owned by `self.file`, only
            // what it refers to changes. Close-on-exec is kept, as Rust opens every file.
            let rc =
                unsafe { libc::dup3(null.as_raw_fd(), self.file.as_raw_fd(), libc::O_CLOEXEC) };
            if rc >= 0 {
                return;
            }
            let error = io::Error::last_os_error();
            // EBUSY: another thread's `open` was reusing a number (not this one, which stays
            // taken) at that moment; EINTR: a signal. Both pass.
            if !matches!(error.raw_os_error(), Some(libc::EINTR | libc::EBUSY)) {
                return self.report_kept_open(&error);
            }
        }
    }

    fn report_kept_open(&self, error: &io::Error) {
        status::warn(format_args!(
            "{MANAGER} ({}) Unable to let go of the file after closing it: {error}; it stays \
             open until the appender is dropped",
            self.file_name
        ));
    }
}

/// Copies `bytes` to `base + offset`.
///
/// # Safety
/// `[base + offset, base + offset + bytes.len())` must be mapped writable memory that no one
/// else accesses meanwhile.
unsafe fn copy_to(base: *mut u8, offset: u64, bytes: &[u8]) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), base.add(offset as usize), bytes.len());
    }
}

/// The length of the file's first `length` bytes without their trailing NUL bytes: a run that
/// was killed leaves the rest of its last region (and any region prepared ahead) as zeros after
/// its data.
fn find_data_end(file: &File, length: u64) -> io::Result<u64> {
    let mut buffer = vec![0u8; SCAN_CHUNK];
    let mut end = length;
    while end > 0 {
        let size = (end.min(SCAN_CHUNK as u64)) as usize;
        let from = end - size as u64;
        file.read_exact_at(&mut buffer[..size], from)?;
        if let Some(last) = last_non_nul(&buffer[..size]) {
            return Ok(from + last as u64 + 1);
        }
        end = from;
    }
    Ok(0)
}

/// The bytes [`has_nul`] and [`last_non_nul`] test at once: a block the compiler turns into a
/// few vector instructions.
const BLOCK: usize = 64;

/// Whether `bytes` holds a NUL byte. The minimum of each block is taken without branches, so
/// the loop is vectorised; a byte-wise search (`contains`) is several times slower.
fn has_nul(bytes: &[u8]) -> bool {
    let mut blocks = bytes.chunks_exact(BLOCK);
    let in_blocks = blocks
        .by_ref()
        .any(|block| block.iter().fold(u8::MAX, |min, &byte| min.min(byte)) == 0);
    in_blocks || blocks.remainder().contains(&0)
}

/// The index of the last byte of `bytes` that is not NUL. Blocks of padding are passed over
/// whole (their bytes OR-ed without branches, so the loop is vectorised).
fn last_non_nul(bytes: &[u8]) -> Option<usize> {
    let mut end = bytes.len();
    while end >= BLOCK
        && bytes[end - BLOCK..end]
            .iter()
            .fold(0, |any, &byte| any | byte)
            == 0
    {
        end -= BLOCK;
    }
    bytes[..end].iter().rposition(|&byte| byte != 0)
}

/// How far back from the end of a killed run's file holes are looked for, at least: a record
/// larger than the mapped regions is written around them (see the module documentation), so
/// the regions a killed run still had mapped may lie further back than [`SLOTS`] regions.
const MIN_HOLE_WINDOW: u64 = 16 << 20;
/// How many listed holes a report names; the rest are counted.
const REPORTED_HOLES: usize = 4;

/// What opening found of an earlier run: where its data ends, and the holes its killed writers
/// left, now filled.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Recovered {
    /// The length of the data: what is left once the trailing padding is cut off.
    pub(crate) data_end: u64,
    /// How many runs of NUL bytes were filled.
    pub(crate) holes: u64,
    /// Their bytes, in all.
    pub(crate) hole_bytes: u64,
    /// The first [`REPORTED_HOLES`] of them, as (file offset, length).
    pub(crate) first_holes: Vec<(u64, u64)>,
}

impl Recovered {
    /// Tells the status logger about filled holes, naming where they are (nothing when none
    /// was found: cutting the padding off is routine after a kill).
    pub(crate) fn report(&self, file_name: &str) {
        if self.holes == 0 {
            return;
        }
        let listed: Vec<String> = self
            .first_holes
            .iter()
            .map(|(offset, length)| format!("{length} at offset {offset}"))
            .collect();
        let more = self.holes - self.first_holes.len() as u64;
        status::warn(format_args!(
            "{MANAGER} ({file_name}) An earlier run was killed while copying records: {} run(s) \
             of NUL bytes ({} bytes: {}{}) were overwritten with spaces ending in a newline",
            self.holes,
            self.hole_bytes,
            listed.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
}

/// Finds where the data of the file's `length` bytes ends and fills the holes a killed run
/// left, reading the file a chunk at a time (once backwards over the padding, once forwards
/// over the hole window), never the whole of it at once.
///
/// A *hole* is a run of bytes a writer reserved and never copied: it was killed between its
/// reservation and its copy, or during the copy. Message text may itself hold NUL bytes, which
/// must stay, so a run of NULs counts as a hole only where a killed run can have left one:
///
/// * the file ends in NUL padding. A run that closed cut its file to its data (and footer), so
///   without padding no run was killed and nothing is touched;
/// * the run lies in the last `max((SLOTS + 1) × region_length, MIN_HOLE_WINDOW)` bytes of the
///   file, padding included. A killed run's file ends with the regions it had prepared: every
///   writer still copying was copying into one of the [`SLOTS`] regions it had mapped, and a
///   boundary owner may have extended the file by one more region before waiting for the
///   oldest of them to be complete. The keeper's spare is that same next region (the one after
///   the furthest mapped), so it extends the file no further. The minimum window covers
///   records larger than the regions, which are written around them. A run of NULs that
///   starts before the window and reaches into it is filled whole.
///
/// Each hole is overwritten with spaces ending in a newline, so a record cut short ends its line
/// and the next record starts on a new one, and no byte the layout did not produce (a marker
/// line, say) is put into a file whose format is the layout's. The file keeps its length, so
/// every record keeps its offset.
pub(crate) fn recover_killed_run(
    file: &File,
    length: u64,
    region_length: u64,
) -> io::Result<Recovered> {
    let data_end = find_data_end(file, length)?;
    let mut recovered = Recovered {
        data_end,
        ..Recovered::default()
    };
    if data_end == length {
        return Ok(recovered);
    }
    let window = (SLOTS as u64 + 1)
        .saturating_mul(region_length)
        .max(MIN_HOLE_WINDOW);
    // Back to the start of a run of NULs that reaches into the window.
    let from = find_data_end(file, length.saturating_sub(window).min(data_end))?;
    let mut buffer = vec![0u8; SCAN_CHUNK];
    let mut spaces = Vec::new();
    let mut hole_start = None;
    let mut at = from;
    while at < data_end {
        let size = (data_end - at).min(SCAN_CHUNK as u64) as usize;
        file.read_exact_at(&mut buffer[..size], at)?;
        let chunk = &buffer[..size];
        // Most chunks hold no NUL at all, which `has_nul` finds at the speed of memory.
        if hole_start.is_some() || has_nul(chunk) {
            for (index, &byte) in chunk.iter().enumerate() {
                match (byte, hole_start) {
                    (0, None) => hole_start = Some(at + index as u64),
                    (0, Some(_)) => {}
                    (_, Some(start)) => {
                        fill_hole(file, start, at + index as u64, &mut spaces)?;
                        recovered.note_hole(start, at + index as u64 - start);
                        hole_start = None;
                    }
                    (_, None) => {}
                }
            }
        }
        at += size as u64;
    }
    // `data_end` follows a byte that is not NUL, so every hole has ended before it.
    debug_assert!(hole_start.is_none());
    Ok(recovered)
}

impl Recovered {
    fn note_hole(&mut self, offset: u64, length: u64) {
        self.holes += 1;
        self.hole_bytes += length;
        if self.first_holes.len() < REPORTED_HOLES {
            self.first_holes.push((offset, length));
        }
    }
}

/// Overwrites `[from, to)` with spaces ending in a newline, a chunk at a time.
fn fill_hole(file: &File, from: u64, to: u64, spaces: &mut Vec<u8>) -> io::Result<()> {
    if spaces.is_empty() {
        spaces.resize(SCAN_CHUNK, b' ');
    }
    let mut at = from;
    while at < to - 1 {
        let size = (to - 1 - at).min(SCAN_CHUNK as u64) as usize;
        file.write_all_at(&spaces[..size], at)?;
        at += size as u64;
    }
    file.write_all_at(b"\n", to - 1)
}

/// Opens `path`, a memory-mapped file left by a killed run under another name (a rollover's
/// staging file), and recovers it as opening it would: holes filled, padding cut off.
pub(crate) fn recover_leftover(path: &Path, region_length: u64) -> io::Result<Recovered> {
    let file = OpenOptions::new().read(true).write(true).open(path)?;
    let length = file.metadata()?.len();
    let recovered = recover_killed_run(&file, length, region_length)?;
    if recovered.data_end != length {
        file.set_len(recovered.data_end)?;
    }
    Ok(recovered)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The block-wise searches agree with byte-wise ones wherever the byte lies: in a block,
    /// on a block's edge, in the remainder after the last whole block.
    #[test]
    fn block_searches_agree_with_byte_searches() {
        for length in [0, 1, 63, 64, 65, 127, 128, 200] {
            for at in 0..length {
                let mut text = vec![b'x'; length];
                text[at] = 0;
                assert!(has_nul(&text), "NUL at {at} of {length}");
                let mut padding = vec![0u8; length];
                padding[at] = b'x';
                assert_eq!(last_non_nul(&padding), Some(at), "byte at {at} of {length}");
            }
            assert!(!has_nul(&vec![b'x'; length]));
            assert_eq!(last_non_nul(&vec![0; length]), None);
        }
    }
}
