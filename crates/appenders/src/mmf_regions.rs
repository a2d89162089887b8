//! The mapped regions of a memory-mapped file, and the work its keeper thread does around them
//! so that the writers only copy.
//!
//! A writer that crosses a region boundary used to pay for the whole switch: it reserved the
//! next region's blocks (`posix_fallocate`: a median of 40 µs on ext4, 2–40 ms while the journal
//! commits), mapped it, and the writer completing a region unmapped it (`munmap` of a populated
//! 32 MiB region: 0.9 ms median, up to 11 ms), each while the callers behind it waited. With 4
//! threads at half of log4j2's maximum rate that put 1% of the MemoryMappedFile calls
//! above half a millisecond (measured with `strace -T` on the latency row, 2026-12-06).
//!
//! The keeper thread (one per file, for regions of at least [`MIN_KEPT_REGION`]) now does
//! that work ahead of the writers and behind them, each time a writer asks:
//!
//! - it populates, writable, the pages the writers are about to copy into ([`Regions::prefault`]);
//! - it unmaps the regions that writers have completed, handed to it instead of unmapped on
//!   the writing thread ([`Regions::retire`]);
//! - it reserves the blocks of the region after the last one mapped, maps it and populates its
//!   first pages as the *spare* ([`Regions::prepare_spare`]), which the writer owning the
//!   boundary then takes instead of reserving and mapping it itself.
//!
//! None of this changes who owns a boundary or when a region counts as prepared (see
//! `mmf_manager`): the owner still prepares the region, it only finds the work done. When the
//! keeper is behind, or could not reserve the blocks (a full disk), the owner does the work
//! itself and a failure is handled and reported on the writer's path as before.

use std::fs::File;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use memmap2::{Advice, MmapOptions, MmapRaw};

use crate::lock;

/// How many regions may be mapped at once. Writers normally use one or two; the others let fast
/// writers move on while a slow one still copies into an old region.
pub(crate) const SLOTS: usize = 8;
/// `Slot::region` of a slot that holds no region.
pub(crate) const EMPTY: u64 = u64::MAX;
/// How far ahead of the writers the keeper populates pages while the file is written lightly.
const PREFAULT_AHEAD: u64 = 256 << 10;
/// How far ahead while it is written heavily (see [`Regions::adapt_to_rate`]). Flat out, four
/// writers cross 256 KiB in 0.1–0.2 ms, less time than the keeper, which yields to them as
/// `SCHED_BATCH` work, may wait for a CPU. With the keeper 16 MiB ahead, the bench's
/// synchronous MemoryMappedFile row (4 threads, ext4, 2 cores, 2026-12-06) wrote 1.19–1.27× as
/// much as with 256 KiB in 3 rounds (earlier builds: 1.18–1.31× in 4, 1.07–1.25× in 6; 4 MiB
/// ahead: 1.02–1.12×). The light mode keeps 256 KiB, with which its tail latency was measured.
const HEAVY_PREFAULT_AHEAD: u64 = 16 << 20;
/// The most the keeper populates under one slot's lock, so that the writer completing a region
/// waits for one step at most before it can unmap it.
const PREFAULT_STEP: u64 = PREFAULT_AHEAD;
/// Regions smaller than this get no keeper thread: a writer crosses them too fast to gain.
pub(crate) const MIN_KEPT_REGION: u64 = 16 * PREFAULT_AHEAD;
/// The write rate above which the file's pages come in the kernel's large folios, and below
/// which one page at a time (see [`Regions::adapt_to_rate`]). Leaving the light mode takes
/// a quarter more, returning to it a quarter less, so that a rate near the line does not flap.
const HEAVY_BYTES_PER_SECOND: f64 = 256.0 * 1024.0 * 1024.0;
/// How long the keeper measures the write rate before it decides again.
const RATE_WINDOW: Duration = Duration::from_millis(100);

/// One mapped region. Aligned so that writers counting into one slot do not slow down those
/// counting into another.
#[repr(align(128))]
pub(crate) struct Slot {
    /// The region held, or [`EMPTY`]. Published (Release) after `base` and `filled`.
    pub(crate) region: AtomicU64,
    /// The address of the region's first byte.
    pub(crate) base: AtomicPtr<u8>,
    /// Bytes of the region copied so far; the region is unmapped when this reaches its length.
    pub(crate) filled: AtomicU64,
    /// The mapping itself; locked only to map, unmap and prefault.
    pub(crate) mapping: Mutex<Option<MmapRaw>>,
}

impl Slot {
    fn new() -> Slot {
        Slot {
            region: AtomicU64::new(EMPTY),
            base: AtomicPtr::new(std::ptr::null_mut()),
            filled: AtomicU64::new(0),
            mapping: Mutex::new(None),
        }
    }

    /// Empties the slot and returns its mapping, for the caller to unmap or hand over. Only
    /// once nobody copies into the region any more.
    pub(crate) fn vacate(&self) -> Option<MmapRaw> {
        let mapping = lock(&self.mapping).take();
        self.base.store(std::ptr::null_mut(), Ordering::Relaxed);
        self.region.store(EMPTY, Ordering::Release);
        mapping
    }
}

/// A region mapped ahead of the writers, waiting for the owner of its boundary.
struct Spare {
    region: u64,
    mapping: MmapRaw,
}

/// The regions of one file, shared by its manager and its keeper thread.
pub(crate) struct Regions {
    file: Arc<File>,
    /// Where this run's data starts; region `r` starts at `start + r·length`.
    start: u64,
    length: u64,
    shift: u32,
    /// Region `r` lives in slot `r % SLOTS` while it is mapped.
    slots: [Slot; SLOTS],
    /// The file offset up to which the keeper has populated the writers' pages.
    prefaulted: AtomicU64,
    /// The file offset below which every region's blocks are reserved. Regions are reserved in
    /// order (an owner reserves the regions after the last prepared one, the keeper the one
    /// after the last mapped one), so no region below it lacks its blocks.
    reserved: AtomicU64,
    /// Completed regions' mappings, for the keeper to unmap. Its capacity, allocated once, is
    /// [`SLOTS`]: a writer finding it full unmaps its region itself rather than allocate.
    retired: Mutex<Vec<MmapRaw>>,
    /// The region mapped ahead, if any.
    spare: Mutex<Option<Spare>>,
    /// Held while blocks are reserved, by an owner or the keeper, so that they never reserve
    /// the same range at once: where the C library emulates `posix_fallocate` (a file system
    /// without `fallocate`), it writes a zero into each block that reads as zero, which could
    /// land on bytes a writer copied meanwhile into a region the owner had just mapped.
    reserving: Mutex<()>,
    /// Whether the keeper chooses how pages are faulted in (it runs: the regions are large).
    adaptive: bool,
    /// True while the file is written lightly: its mappings are advised `MADV_RANDOM`, so
    /// that a page fault brings in one page, not a readahead window of large folios.
    light: AtomicBool,
    /// How long a failed reservation or mapping waits before it is tried again, in
    /// microseconds: `mmf_manager::RETRY_INTERVAL`, shorter in tests that go through many
    /// failures. Read afresh by the writers and the keeper each time.
    retry_interval_micros: AtomicU64,
}

/// State of the keeper thread between its runs.
#[derive(Default)]
pub(crate) struct KeeperState {
    /// When reserving ahead last failed: the keeper does not try again for
    /// [`Regions::retry_interval`], and the writers meet the failure themselves.
    reserve_failed_at: Option<Instant>,
    /// Where the current rate measurement started: when, and the highest file offset copied.
    rate_from: Option<(Instant, u64)>,
    /// The highest file offset seen copied so far. The mapped regions' own maximum can go
    /// back for a moment (an owner completes region `r` before it maps `r + 1`), which would
    /// read as a window with nothing written.
    written: u64,
}

impl Regions {
    /// The regions of `file` from `start` on, `length` bytes each (a power of two). With
    /// `adaptive`, the keeper thread runs [`Regions::keep`] and adapts the mappings' advice to
    /// the write rate. A failed reservation is retried after `retry_interval`.
    pub(crate) fn new(
        file: Arc<File>,
        start: u64,
        length: u64,
        adaptive: bool,
        retry_interval: Duration,
    ) -> Regions {
        Regions {
            file,
            start,
            length,
            shift: length.trailing_zeros(),
            slots: std::array::from_fn(|_| Slot::new()),
            prefaulted: AtomicU64::new(start),
            reserved: AtomicU64::new(start),
            retired: Mutex::new(Vec::with_capacity(SLOTS)),
            spare: Mutex::new(None),
            reserving: Mutex::new(()),
            adaptive,
            light: AtomicBool::new(true),
            retry_interval_micros: AtomicU64::new(micros(retry_interval)),
        }
    }

    /// How long a failed reservation or mapping waits before it is tried again.
    pub(crate) fn retry_interval(&self) -> Duration {
        Duration::from_micros(self.retry_interval_micros.load(Ordering::Relaxed))
    }

    /// Shortens (or lengthens) [`Regions::retry_interval`], for tests that go through many
    /// failures.
    #[cfg(test)]
    pub(crate) fn set_retry_interval(&self, interval: Duration) {
        self.retry_interval_micros
            .store(micros(interval), Ordering::Relaxed);
    }

    /// The slot region `region` lives in while it is mapped.
    pub(crate) fn slot(&self, region: u64) -> &Slot {
        &self.slots[(region % SLOTS as u64) as usize]
    }

    /// Every slot.
    pub(crate) fn slots(&self) -> &[Slot; SLOTS] {
        &self.slots
    }

    fn region_start(&self, region: u64) -> u64 {
        self.start + (region << self.shift)
    }

    /// The regions mapped now, each with its slot.
    fn mapped(&self) -> impl Iterator<Item = (u64, &Slot)> {
        self.slots
            .iter()
            .map(|slot| (slot.region.load(Ordering::Acquire), slot))
            .filter(|&(region, _)| region != EMPTY)
    }

    /// Publishes `mapping` as region `region` in its slot, which must be empty; `filled` bytes
    /// at its start were written already (by an earlier generation).
    ///
    /// The mapping is advised as the write rate asks now, under the slot's lock, whether it is
    /// new or the keeper's spare advised earlier. The keeper changes the mode first and then
    /// advises every slot under its lock, so either it finds this mapping installed or this
    /// reads the mode it set: a mapping made during a change never keeps the old advice.
    pub(crate) fn install(&self, region: u64, mapping: MmapRaw, filled: u64) {
        let slot = self.slot(region);
        slot.base.store(mapping.as_mut_ptr(), Ordering::Relaxed);
        let mut held = lock(&slot.mapping);
        self.advise_as_rate_asks(&mapping);
        *held = Some(mapping);
        drop(held);
        slot.filled.store(filled, Ordering::Relaxed);
        slot.region.store(region, Ordering::Release);
    }

    /// True when a writer whose record ends at file offset `end`, in the region that ends at
    /// `region_end`, should ask the keeper to populate more pages: within half the distance
    /// of the populated end, unless its region is populated to its end (the keeper populates
    /// no further, so asking would only wake it for nothing).
    pub(crate) fn wants_prefault(&self, end: u64, region_end: u64) -> bool {
        (end + self.prefault_ahead() / 2).min(region_end) > self.prefaulted.load(Ordering::Relaxed)
    }

    /// How far ahead of the writers the keeper populates, for the current write rate.
    fn prefault_ahead(&self) -> u64 {
        if self.light.load(Ordering::Relaxed) {
            PREFAULT_AHEAD
        } else {
            HEAVY_PREFAULT_AHEAD
        }
    }

    /// True when the blocks of `[.., to)` are known to be reserved.
    fn is_reserved(&self, to: u64) -> bool {
        to <= self.reserved.load(Ordering::Acquire)
    }

    /// Reserves the blocks of `[from, to)` for a boundary owner, unless the keeper did ahead;
    /// waits for a reservation of the keeper's that is under way.
    pub(crate) fn reserve_for_owner(&self, from: u64, to: u64) -> std::io::Result<()> {
        if self.is_reserved(to) {
            return Ok(());
        }
        let _reserving = lock(&self.reserving);
        if self.is_reserved(to) {
            return Ok(());
        }
        reserve(&self.file, from, to)?;
        self.reserved.fetch_max(to, Ordering::AcqRel);
        Ok(())
    }

    /// The spare mapping of `region`, if the keeper prepared it.
    pub(crate) fn take_spare(&self, region: u64) -> Option<MmapRaw> {
        let mut spare = lock(&self.spare);
        match spare.as_ref() {
            Some(held) if held.region == region => spare.take().map(|held| held.mapping),
            _ => None,
        }
    }

    /// Hands a completed region's mapping to the keeper. Returns it when the keeper's list is
    /// full (the caller then unmaps it).
    pub(crate) fn hand_over(&self, mapping: MmapRaw) -> Option<MmapRaw> {
        let mut retired = lock(&self.retired);
        if retired.len() < retired.capacity() {
            retired.push(mapping);
            None
        } else {
            Some(mapping)
        }
    }

    /// Unmaps everything still mapped: the slots, the retired regions and the spare. Only once
    /// no writer copies any more (closing, after every writer finished).
    pub(crate) fn unmap_all(&self) {
        for slot in self.slots.iter() {
            drop(slot.vacate());
        }
        self.retire();
        drop(lock(&self.spare).take());
    }

    /// The keeper thread cannot run: the writers do without it, with the kernel's default
    /// advice (nothing measures their rate), and unmap what was handed over.
    pub(crate) fn without_keeper(&self) {
        if self.light.swap(false, Ordering::Relaxed) {
            for slot in &self.slots {
                if let Some(mapping) = lock(&slot.mapping).as_ref() {
                    advise(mapping, false);
                }
            }
        }
        self.retire();
        drop(lock(&self.spare).take());
    }

    /// Advises a mapping of one of the regions as the current write rate asks. Without the
    /// keeper nothing measures the rate, and the kernel's default stays.
    fn advise_as_rate_asks(&self, mapping: &MmapRaw) {
        if self.adaptive {
            advise(mapping, self.light.load(Ordering::Relaxed));
        }
    }

    /// One run of the keeper: first the pages the writers are about to touch, then the
    /// regions behind them, then the region ahead.
    pub(crate) fn keep(&self, state: &mut KeeperState) {
        self.adapt_to_rate(state);
        self.prefault();
        self.retire();
        self.prepare_spare(state);
    }

    /// Populates, writable, the pages of each mapped region from where its writers are (its
    /// count of copied bytes) up to [`PREFAULT_AHEAD`] beyond ([`HEAVY_PREFAULT_AHEAD`] while
    /// the file is written heavily), with `MADV_POPULATE_WRITE`: the page faults the writers
    /// would take on those pages (allocating, zeroing and ext4's `page_mkwrite`) are taken here
    /// instead. It changes no byte, so writers may copy into the same pages meanwhile. The
    /// slot's mapping is locked while each [`PREFAULT_STEP`] of pages is populated, so the
    /// region cannot be unmapped under it (its last writer waits for that step).
    ///
    /// The pages populated ahead are dirty: a sync writes them back as zeros, which the file
    /// reads as zeros anyway (the blocks are reserved and read as NULs until written).
    pub(crate) fn prefault(&self) {
        for slot in &self.slots {
            let mut target = None;
            while self.prefault_step(slot, &mut target) {}
        }
    }

    /// Populates the next [`PREFAULT_STEP`] at most of `slot`'s region, up to `target`: the
    /// file offset set by the first step of the pass, so that writers moving on meanwhile do
    /// not hold the keeper from its other work a step at a time (they ask again). False when
    /// there was nothing left to populate.
    fn prefault_step(&self, slot: &Slot, target: &mut Option<u64>) -> bool {
        let held = lock(&slot.mapping);
        let Some(mapping) = held.as_ref() else {
            return false;
        };
        // Under the lock a mapped slot holds its region, or EMPTY before it is published.
        let region = slot.region.load(Ordering::Acquire);
        if region == EMPTY {
            return false;
        }
        let region_start = self.region_start(region);
        let filled = slot.filled.load(Ordering::Acquire);
        let from = (region_start + filled).max(self.prefaulted.load(Ordering::Relaxed));
        let region_end = region_start + self.length;
        let target =
            *target.get_or_insert((region_start + filled + self.prefault_ahead()).min(region_end));
        let to = target.min(from + PREFAULT_STEP);
        if from >= to {
            return false;
        }
        populate(mapping, from - region_start, to - region_start);
        self.prefaulted.fetch_max(to, Ordering::Relaxed);
        true
    }

    /// Chooses, from the write rate over the last [`RATE_WINDOW`], how the kernel brings the
    /// file's pages in, and advises every mapping accordingly.
    ///
    /// By default a page fault in a file mapping reads ahead: it allocates large folios (up to
    /// 2 MiB) over the device's readahead window, which a full page cache can only provide by
    /// reclaiming and compacting memory in the faulting thread, and whose locks the keeper and
    /// the writers then contend for. For a file written at a moderate rate that is where the
    /// MemoryMappedFile tail came from; `MADV_RANDOM` (one page per fault) removed it. Flat
    /// out, large folios are worth keeping: fewer, larger allocations per byte. Both measured
    /// on the bench's 4-thread rows, ext4, 2 cores, page cache full, 2026-12-06: at 120 MB/s
    /// (`--latency`, 19 375 calls/s per thread), p99.99 1.0–1.4 ms with `MADV_RANDOM` against
    /// 4.3–6.8 ms without, and no direct reclaim or compaction stall against 40–115 and
    /// 34–715; flat out, 989 against 1377 ops/ms synchronous and 993 against 1085 behind
    /// AsyncLoggers, so the heavy mode keeps the kernel's default.
    fn adapt_to_rate(&self, state: &mut KeeperState) {
        if !self.adaptive {
            return;
        }
        let Some(written) = self.written() else {
            return;
        };
        state.written = state.written.max(written);
        let written = state.written;
        let now = Instant::now();
        let Some((since, from)) = state.rate_from else {
            state.rate_from = Some((now, written));
            return;
        };
        let elapsed = now.duration_since(since);
        if elapsed < RATE_WINDOW {
            return;
        }
        state.rate_from = Some((now, written));
        let rate = written.saturating_sub(from) as f64 / elapsed.as_secs_f64();
        let light = self.light.load(Ordering::Relaxed);
        let now_light = stays_light(light, rate);
        if now_light == light {
            return;
        }
        // Stored before the slots are locked: an owner installing a mapping meanwhile either
        // is seen below or reads the new mode (see `install`).
        self.light.store(now_light, Ordering::Relaxed);
        for slot in &self.slots {
            if let Some(mapping) = lock(&slot.mapping).as_ref() {
                advise(mapping, now_light);
            }
        }
        if let Some(spare) = lock(&self.spare).as_ref() {
            advise(&spare.mapping, now_light);
        }
    }

    /// The highest file offset copied into a mapped region, if any is mapped.
    fn written(&self) -> Option<u64> {
        self.mapped()
            .map(|(region, slot)| self.region_start(region) + slot.filled.load(Ordering::Relaxed))
            .max()
    }

    /// True while the mappings are advised to fault one page at a time.
    #[cfg(test)]
    pub(crate) fn is_light(&self) -> bool {
        self.light.load(Ordering::Relaxed)
    }

    /// Unmaps the regions writers have completed. Off the writing threads, because tearing down
    /// a populated region's pages takes about a millisecond per 32 MiB.
    pub(crate) fn retire(&self) {
        // One at a time, so that writers handing over more are never held up by an unmapping.
        loop {
            let Some(mapping) = lock(&self.retired).pop() else {
                return;
            };
            drop(mapping);
        }
    }

    /// Prepares the region after the last one mapped: reserves its blocks, maps it and
    /// populates its first pages, as the spare for the writer that will own its boundary.
    fn prepare_spare(&self, state: &mut KeeperState) {
        let Some(last) = self.mapped().map(|(region, _)| region).max() else {
            // Nothing mapped: a failure or closing; the writers prepare what comes next.
            return;
        };
        let next = last + 1;
        {
            let mut spare = lock(&self.spare);
            match spare.as_ref() {
                Some(held) if held.region >= next => return,
                // Passed by the writers without being used (a record spanning regions).
                Some(_) => drop(spare.take()),
                None => {}
            }
        }
        let (from, to) = (self.region_start(next), self.region_start(next + 1));
        if !self.is_reserved(to) {
            if state
                .reserve_failed_at
                .is_some_and(|at| at.elapsed() < self.retry_interval())
            {
                return;
            }
            // An owner reserving now needs these blocks sooner: leave them to it.
            let Ok(_reserving) = self.reserving.try_lock() else {
                return;
            };
            if self.is_reserved(to) {
                return;
            }
            match reserve(&self.file, from, to) {
                Ok(()) => {
                    state.reserve_failed_at = None;
                    self.reserved.fetch_max(to, Ordering::AcqRel);
                }
                Err(_) => {
                    // The owner of the boundary reserves it itself, and meets the failure on
                    // the path that handles and reports it.
                    state.reserve_failed_at = Some(Instant::now());
                    return;
                }
            }
        }
        let Ok(length) = usize::try_from(self.length) else {
            return;
        };
        // A failure (no address space) leaves the mapping to the owner, which reports it.
        let Ok(mapping) = MmapOptions::new()
            .offset(from)
            .len(length)
            .map_raw(self.file.as_ref())
        else {
            return;
        };
        self.advise_as_rate_asks(&mapping);
        populate(&mapping, 0, PREFAULT_AHEAD.min(self.length));
        *lock(&self.spare) = Some(Spare {
            region: next,
            mapping,
        });
    }
}

fn micros(interval: Duration) -> u64 {
    u64::try_from(interval.as_micros()).unwrap_or(u64::MAX)
}

/// Reserves the disk blocks of `[from, to)` of `file`, extending it to `to`.
fn reserve(file: &File, from: u64, to: u64) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd as _;
    let efbig = || std::io::Error::from_raw_os_error(libc::EFBIG);
    let offset = libc::off_t::try_from(from).map_err(|_| efbig())?;
    let length = libc::off_t::try_from(to - from).map_err(|_| efbig())?;
    loop {
        // SAFETY: plain system call on a descriptor the caller owns.
        let rc = unsafe { libc::posix_fallocate(file.as_raw_fd(), offset, length) };
        match rc {
            0 => return Ok(()),
            libc::EINTR => continue,
            errno => return Err(std::io::Error::from_raw_os_error(errno)),
        }
    }
}

/// Whether a file written at `rate` bytes per second is (still) written lightly, given whether
/// it was: the line is [`HEAVY_BYTES_PER_SECOND`], a quarter higher to leave the light mode
/// and a quarter lower to return to it.
fn stays_light(light: bool, rate: f64) -> bool {
    if light {
        rate < HEAVY_BYTES_PER_SECOND * 1.25
    } else {
        rate < HEAVY_BYTES_PER_SECOND * 0.75
    }
}

/// Advises the kernel to fault `mapping`'s pages in one at a time (`light`), or as it does by
/// default. memmap2 aligns the range to whole pages: a region of an appended file rarely starts
/// on one, and `madvise` refuses an unaligned address. A failure leaves the kernel's default.
fn advise(mapping: &MmapRaw, light: bool) {
    let _ = mapping.advise(if light {
        Advice::Random
    } else {
        Advice::Normal
    });
}

/// Populates, writable, the pages of `mapping` around its bytes `[from, to)`.
fn populate(mapping: &MmapRaw, from: u64, to: u64) {
    // SAFETY: plain query.
    let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        size if size > 0 => size as usize,
        _ => 4096,
    };
    let base = mapping.as_mut_ptr() as usize;
    // The kernel maps whole pages: the mapping covers the pages around its bytes.
    let low = (base + from as usize) & !(page - 1);
    let high = (base + to as usize + page - 1) & !(page - 1);
    // SAFETY: `[low, high)` lies in the pages of `mapping`, which the caller keeps alive;
    // MADV_POPULATE_WRITE only faults the pages in, and changes no byte. A failure (an old
    // kernel, no memory) leaves the faults to the writers.
    let _ = unsafe {
        libc::madvise(
            low as *mut libc::c_void,
            high - low,
            libc::MADV_POPULATE_WRITE,
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;
    use std::fs::OpenOptions;
    use std::time::Duration;

    const REGION: u64 = MIN_KEPT_REGION;

    /// Regions of `length` bytes of a new file whose data starts at `start` (an appended
    /// file's end, rarely on a page boundary).
    fn regions_of(dir: &TempDir, start: u64, length: u64) -> Regions {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(dir.file("regions.log"))
            .unwrap();
        Regions::new(Arc::new(file), start, length, true, Duration::ZERO)
    }

    fn regions_from(dir: &TempDir, start: u64) -> Regions {
        regions_of(dir, start, REGION)
    }

    fn regions(dir: &TempDir) -> Regions {
        regions_from(dir, 0)
    }

    /// Reserves `region`'s blocks and maps it, as a boundary owner does before installing it.
    fn map(regions: &Regions, region: u64) -> MmapRaw {
        let (from, to) = (
            regions.region_start(region),
            regions.region_start(region + 1),
        );
        regions.reserve_for_owner(from, to).unwrap();
        MmapOptions::new()
            .offset(from)
            .len(REGION as usize)
            .map_raw(regions.file.as_ref())
            .unwrap()
    }

    /// Reserves, maps and installs `region` as a boundary owner would.
    fn prepare(regions: &Regions, region: u64) {
        regions.install(region, map(regions, region), 0);
    }

    /// Whether the kernel faults the mapping at `address` in one page at a time (`rr` among
    /// its flags in /proc/self/smaps).
    fn reads_randomly(address: usize) -> bool {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ') {
                if let Some((start, end)) = range.split_once('-') {
                    if let (Ok(start), Ok(end)) = (
                        usize::from_str_radix(start, 16),
                        usize::from_str_radix(end, 16),
                    ) {
                        inside = (start..end).contains(&address);
                        continue;
                    }
                }
            }
            if inside {
                if let Some(flags) = line.strip_prefix("VmFlags:") {
                    return flags.split_whitespace().any(|flag| flag == "rr");
                }
            }
        }
        panic!("no mapping at {address:#x} in /proc/self/smaps");
    }

    fn slot_address(regions: &Regions, region: u64) -> usize {
        regions.slot(region).base.load(Ordering::Relaxed) as usize
    }

    #[test]
    fn the_keeper_reserves_and_maps_the_next_region_as_the_spare() {
        let dir = TempDir::new("mmf-regions-spare");
        let regions = regions(&dir);
        prepare(&regions, 0);
        regions.keep(&mut KeeperState::default());
        assert!(
            regions.is_reserved(2 * REGION),
            "region 1's blocks are reserved"
        );
        assert_eq!(regions.file.metadata().unwrap().len(), 2 * REGION);
        assert!(regions.take_spare(2).is_none(), "only region 1 is prepared");
        let spare = regions.take_spare(1).expect("region 1 is the spare");
        assert_eq!(spare.len(), REGION as usize);
        assert!(regions.take_spare(1).is_none(), "a spare is taken once");
    }

    #[test]
    fn a_spare_the_writers_passed_is_replaced_by_the_next_one() {
        let dir = TempDir::new("mmf-regions-passed");
        let regions = regions(&dir);
        prepare(&regions, 0);
        regions.keep(&mut KeeperState::default());
        // A record spanning region 1 took the writers from region 0 to region 2.
        drop(regions.slot(0).vacate());
        prepare(&regions, 2);
        regions.keep(&mut KeeperState::default());
        assert!(regions.take_spare(1).is_none(), "the passed spare is gone");
        assert!(regions.take_spare(3).is_some(), "region 3 is the spare now");
    }

    #[test]
    fn with_nothing_mapped_the_keeper_prepares_nothing() {
        let dir = TempDir::new("mmf-regions-none");
        let regions = regions(&dir);
        regions.keep(&mut KeeperState::default());
        assert!(regions.take_spare(0).is_none() && regions.take_spare(1).is_none());
        assert_eq!(regions.file.metadata().unwrap().len(), 0);
    }

    #[test]
    fn retired_regions_wait_for_the_keeper_up_to_one_per_slot() {
        let dir = TempDir::new("mmf-regions-retired");
        let regions = regions(&dir);
        let map = || {
            MmapOptions::new()
                .len(4096)
                .map_raw(regions.file.as_ref())
                .unwrap()
        };
        regions.file.set_len(4096).unwrap();
        for _ in 0..SLOTS {
            assert!(regions.hand_over(map()).is_none(), "the keeper takes it");
        }
        assert!(
            regions.hand_over(map()).is_some(),
            "a full list hands the mapping back to its writer"
        );
        regions.retire();
        assert!(lock(&regions.retired).is_empty());
        assert!(
            regions.hand_over(map()).is_none(),
            "room again once retired"
        );
    }

    #[test]
    fn a_heavily_written_file_is_populated_further_ahead_in_steps() {
        // A region longer than the heavy distance, so that the distance shows.
        const LONG: u64 = 2 * HEAVY_PREFAULT_AHEAD;
        let dir = TempDir::new("mmf-regions-ahead");
        let regions = regions_of(&dir, 0, LONG);
        regions.reserve_for_owner(0, LONG).unwrap();
        let mapping = MmapOptions::new()
            .len(LONG as usize)
            .map_raw(regions.file.as_ref())
            .unwrap();
        regions.install(0, mapping, 0);
        let prefaulted = || regions.prefaulted.load(Ordering::Relaxed);
        regions.slot(0).filled.store(4096, Ordering::Relaxed);
        regions.prefault();
        assert_eq!(prefaulted(), 4096 + PREFAULT_AHEAD, "light: 256 KiB ahead");
        assert!(!regions.wants_prefault(4096, LONG));
        assert!(regions.wants_prefault(4096 + PREFAULT_AHEAD / 2 + 1, LONG));

        regions.light.store(false, Ordering::Relaxed);
        assert!(
            regions.wants_prefault(4096, LONG),
            "heavy, the writers ask while they are within half the longer distance"
        );
        let mut target = None;
        assert!(regions.prefault_step(regions.slot(0), &mut target));
        assert_eq!(
            prefaulted(),
            4096 + PREFAULT_AHEAD + PREFAULT_STEP,
            "one step at a time"
        );
        assert_eq!(target, Some(4096 + HEAVY_PREFAULT_AHEAD));
        // Writers moving on during the pass do not move its target.
        regions.slot(0).filled.store(8192, Ordering::Relaxed);
        while regions.prefault_step(regions.slot(0), &mut target) {}
        assert_eq!(prefaulted(), 4096 + HEAVY_PREFAULT_AHEAD);
        regions.prefault();
        assert_eq!(prefaulted(), 8192 + HEAVY_PREFAULT_AHEAD);

        // Near the region's end: populated to its end, and then nothing more to ask for.
        regions.slot(0).filled.store(LONG - 4096, Ordering::Relaxed);
        assert!(regions.wants_prefault(LONG - 4096, LONG));
        regions.prefault();
        assert_eq!(prefaulted(), LONG);
        assert!(!regions.wants_prefault(LONG - 100, LONG));
        // The first record of the next region asks again.
        assert!(regions.wants_prefault(LONG + 4096, 2 * LONG));
    }

    #[test]
    fn the_light_mode_has_a_band_between_its_two_lines() {
        const MIB: f64 = 1024.0 * 1024.0;
        assert!(stays_light(true, 100.0 * MIB));
        assert!(
            stays_light(true, 300.0 * MIB),
            "not out of light below 320 MiB/s"
        );
        assert!(!stays_light(true, 400.0 * MIB));
        assert!(
            !stays_light(false, 250.0 * MIB),
            "not back to light above 192 MiB/s"
        );
        assert!(stays_light(false, 100.0 * MIB));
    }

    #[test]
    fn the_write_rate_switches_every_mapping_between_page_and_folio_faults() {
        let dir = TempDir::new("mmf-regions-rate");
        // Appended after 100 bytes of an earlier run: no region starts on a page.
        let regions = regions_from(&dir, 100);
        // Writers in region 16, 68 MiB written in this run once region 16 is full.
        prepare(&regions, 16);
        regions.keep(&mut KeeperState::default());
        let spare = lock(&regions.spare)
            .as_ref()
            .map(|spare| spare.mapping.as_ptr() as usize);
        let spare = spare.expect("a spare");
        // A file written lightly (the state at the start) is faulted in a page at a time.
        assert!(regions.is_light());
        assert!(reads_randomly(slot_address(&regions, 16)));
        assert!(reads_randomly(spare));
        // 68 MiB in what the keeper saw as about 100 ms: heavy.
        regions.slot(16).filled.store(REGION, Ordering::Relaxed);
        let mut state = KeeperState {
            rate_from: Some((Instant::now() - RATE_WINDOW, 0)),
            ..KeeperState::default()
        };
        regions.adapt_to_rate(&mut state);
        assert!(!regions.is_light());
        assert!(!reads_randomly(slot_address(&regions, 16)));
        assert!(!reads_randomly(spare), "the spare follows");
        // Nothing more copied over the next window: light again.
        let written = regions.written().unwrap();
        state.rate_from = Some((Instant::now() - RATE_WINDOW, written));
        regions.adapt_to_rate(&mut state);
        assert!(regions.is_light());
        assert!(reads_randomly(slot_address(&regions, 16)));
        assert!(reads_randomly(spare));
    }

    #[test]
    fn a_mapping_takes_the_advice_of_the_mode_it_is_installed_in() {
        let dir = TempDir::new("mmf-regions-install-advice");
        let regions = regions(&dir);
        // Mapped and advised while the file was written lightly, installed after the keeper
        // changed the mode and advised the slots, which did not hold it yet.
        let mapping = map(&regions, 0);
        advise(&mapping, true);
        regions.light.store(false, Ordering::Relaxed);
        regions.install(0, mapping, 0);
        assert!(
            !reads_randomly(slot_address(&regions, 0)),
            "a mapping installed in the heavy mode keeps the kernel's readahead"
        );
        // The other way round: mapped with the kernel's default, installed in the light mode.
        let mapping = map(&regions, 1);
        regions.light.store(true, Ordering::Relaxed);
        regions.install(1, mapping, 0);
        assert!(
            reads_randomly(slot_address(&regions, 1)),
            "a mapping installed in the light mode faults a page at a time"
        );
    }

    #[test]
    fn a_moment_with_the_furthest_region_unmapped_is_not_a_window_without_writes() {
        const MIB: u64 = 1 << 20;
        let dir = TempDir::new("mmf-regions-furthest");
        let regions = regions(&dir);
        // Region 40 (file offsets 160-164 MiB) written full, seen inside the window.
        prepare(&regions, 40);
        regions.slot(40).filled.store(REGION, Ordering::Relaxed);
        let mut state = KeeperState {
            rate_from: Some((Instant::now(), 58 * MIB)),
            ..KeeperState::default()
        };
        regions.adapt_to_rate(&mut state);
        // At the window's end its owner has completed region 40 and not yet mapped region 41,
        // and a slow writer still holds region 15 (60 MiB): 106 MiB were written, not 2.
        drop(regions.slot(40).vacate());
        prepare(&regions, 15);
        state.rate_from = Some((Instant::now() - RATE_WINDOW, 58 * MIB));
        regions.adapt_to_rate(&mut state);
        assert!(!regions.is_light(), "about 1 GiB/s is heavy");
    }
}
