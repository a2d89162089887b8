//! A bounded multi-producer, single-consumer ring of preallocated slots.
//!
//! This is D. Vyukov's bounded queue with one consumer: every slot carries a sequence number
//! that says whose turn it is. A producer claims position `p` with one compare-and-swap on the
//! tail when the slot's sequence equals `p`, fills the slot in place and publishes it by storing
//! `p + 1`; the consumer reads the slot in place once its sequence is `p + 1` and hands it back
//! by storing `p + capacity`. Slots are never moved or freed while the ring lives, so their
//! buffers are reused by every event that passes through them: this is what keeps the producer
//! side free of allocation (the LMAX disruptor log4j2 uses works the same way).
//!
//! Only the claim/publish/release protocol lives here; waiting, policies and the thread are in
//! `queue.rs`.

use std::cell::UnsafeCell;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::snapshot::EventSnapshot;

/// What one slot holds: the event and the tag its producer attached. The snapshot is boxed so
/// that a producer hands its staged event over by swapping one pointer: the slot stays one
/// cache line, and no event-sized copy crosses between cores.
#[derive(Default)]
pub(crate) struct SlotData {
    pub(crate) snapshot: Box<EventSnapshot>,
    pub(crate) tag: u64,
}

/// One slot, aligned to a cache line so that the sequence numbers of neighbouring slots are not
/// falsely shared between a producer and the consumer.
#[repr(align(64))]
struct Slot {
    sequence: AtomicUsize,
    data: UnsafeCell<SlotData>,
}

/// Keeps a hot counter on its own cache line.
#[repr(align(128))]
struct Padded(AtomicUsize);

/// Set in the tail once the ring is closed: no position can be claimed after it, so the
/// consumer knows exactly how many events are left to drain.
const CLOSED_BIT: usize = 1 << (usize::BITS - 1);

/// Why no slot could be claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClaimError {
    /// Every slot holds an event the consumer has not finished.
    Full,
    /// The ring was closed.
    Closed,
}

pub(crate) struct Ring {
    slots: Box<[Slot]>,
    capacity: usize,
    /// `capacity - 1` when the capacity is a power of two (a mask instead of a division).
    mask: Option<usize>,
    /// The next position producers claim.
    tail: Padded,
    /// The next position the consumer reads; written only by the consumer.
    head: Padded,
}

// SAFETY: a slot's data is only touched by the one thread that owns it under the sequence
// protocol (the producer between claim and publish, the consumer between seeing it published
// and releasing it); the Release/Acquire pairs on `sequence` order those accesses.
unsafe impl Sync for Ring {}
// SAFETY: the slots own plain data (`EventSnapshot` is `Send`).
unsafe impl Send for Ring {}

/// A claimed slot: the producer fills it, then publishes it.
pub(crate) struct Claim<'a> {
    ring: &'a Ring,
    position: usize,
}

impl Claim<'_> {
    /// The slot's data, exclusively ours until [`Claim::publish`].
    pub(crate) fn data(&mut self) -> &mut SlotData {
        let slot = &self.ring.slots[self.ring.index(self.position)];
        // SAFETY: the claim made this producer the slot's only user until it publishes; the
        // `&mut self` receiver prevents two live borrows through the same claim.
        unsafe { &mut *slot.data.get() }
    }

    /// Makes the slot visible to the consumer. Sequentially consistent so that the consumer's
    /// "am I allowed to sleep?" check and this store cannot both miss each other (see
    /// `queue.rs`).
    pub(crate) fn publish(self) {
        let slot = &self.ring.slots[self.ring.index(self.position)];
        slot.sequence.store(self.position + 1, Ordering::SeqCst);
    }
}

impl Ring {
    /// A ring of `capacity` empty slots, all allocated now. At least two: with one slot, the
    /// sequence that marks position `p` published equals the one that frees it for `p + 1`, so
    /// a producer could overwrite the event the consumer is reading.
    ///
    /// The slot array is reserved fallibly, so an impossible capacity is an error for the
    /// caller to report rather than an abort of the process.
    pub(crate) fn new(capacity: usize) -> Result<Ring, TryReserveError> {
        let capacity = capacity.max(2);
        let mut slots = Vec::new();
        slots.try_reserve_exact(capacity)?;
        slots.extend((0..capacity).map(|index| Slot {
            sequence: AtomicUsize::new(index),
            data: UnsafeCell::new(SlotData::default()),
        }));
        Ok(Ring {
            slots: slots.into_boxed_slice(),
            capacity,
            mask: capacity.is_power_of_two().then(|| capacity - 1),
            tail: Padded(AtomicUsize::new(0)),
            head: Padded(AtomicUsize::new(0)),
        })
    }

    #[inline]
    fn index(&self, position: usize) -> usize {
        match self.mask {
            Some(mask) => position & mask,
            None => position % self.capacity,
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// Claims the next slot.
    pub(crate) fn try_claim(&self) -> Result<Claim<'_>, ClaimError> {
        let mut position = self.tail.0.load(Ordering::Relaxed);
        loop {
            if position & CLOSED_BIT != 0 {
                return Err(ClaimError::Closed);
            }
            let slot = &self.slots[self.index(position)];
            let sequence = slot.sequence.load(Ordering::Acquire);
            let lag = sequence.wrapping_sub(position) as isize;
            if lag == 0 {
                match self.tail.0.compare_exchange_weak(
                    position,
                    position + 1,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => {
                        return Ok(Claim {
                            ring: self,
                            position,
                        })
                    }
                    Err(current) => position = current,
                }
            } else if lag < 0 {
                // The slot still holds the event from one lap ago: full.
                return Err(ClaimError::Full);
            } else {
                // Another producer claimed this position meanwhile.
                position = self.tail.0.load(Ordering::Relaxed);
            }
        }
    }

    /// Positions claimed so far (published or not).
    pub(crate) fn claimed(&self) -> usize {
        self.tail.0.load(Ordering::SeqCst) & !CLOSED_BIT
    }

    /// Closes the ring: claims fail from now on (a claim racing with this either lands before it
    /// and is counted, or fails). Returns the number of positions ever claimed.
    pub(crate) fn close(&self) -> usize {
        self.tail.0.fetch_or(CLOSED_BIT, Ordering::SeqCst) & !CLOSED_BIT
    }

    /// True once [`Ring::close`] was called.
    pub(crate) fn is_closed(&self) -> bool {
        self.tail.0.load(Ordering::SeqCst) & CLOSED_BIT != 0
    }

    /// Positions the consumer has finished.
    pub(crate) fn consumed(&self) -> usize {
        self.head.0.load(Ordering::SeqCst)
    }

    /// Positions claimed and not yet finished by the consumer, never more than are queued as
    /// it reads the head: a full reading means the ring was full.
    ///
    /// The tail is read before the head, so a consumer that moves on in between makes the
    /// count smaller, never larger (a producer deciding whether to sleep then retries rather
    /// than sleeps). The consumer may even pass the tail read, when the reader is preempted
    /// between the loads while others claim and the consumer catches up: that reads as empty
    /// instead of overflowing.
    pub(crate) fn queued(&self) -> usize {
        let claimed = self.claimed();
        claimed.saturating_sub(self.consumed())
    }

    /// True when the slot at `position` has been published. Only the consumer asks, for the
    /// position it is at or the one after it.
    pub(crate) fn is_published(&self, position: usize) -> bool {
        let slot = &self.slots[self.index(position)];
        slot.sequence.load(Ordering::SeqCst) == position + 1
    }

    /// The data of the published slot at `position`.
    ///
    /// # Safety
    ///
    /// Only the consumer thread may call this, for the position it is at, after
    /// [`Ring::is_published`] returned true and before [`Ring::release`].
    // The slot's data sits in an `UnsafeCell`; exclusivity comes from the sequence protocol,
    // which the borrow checker cannot see.
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn published(&self, position: usize) -> &mut SlotData {
        let slot = &self.slots[self.index(position)];
        &mut *slot.data.get()
    }

    /// Hands the slot at `position` back to the producers and advances the head.
    ///
    /// Only the consumer calls this, for the position it is at, after processing it.
    pub(crate) fn release(&self, position: usize) {
        let slot = &self.slots[self.index(position)];
        // Release pairs with the producers' Acquire load in `try_claim`.
        slot.sequence
            .store(position + self.capacity, Ordering::Release);
        // Sequentially consistent so that a producer registering as a waiter for room either is
        // seen by the consumer's next check of the waiter count, or sees this head (`queue.rs`).
        self.head.0.store(position + 1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_then_reports_full_then_frees_a_slot() {
        let ring = Ring::new(3).unwrap();
        for tag in 0..3 {
            let mut claim = ring.try_claim().expect("room");
            claim.data().tag = tag;
            claim.publish();
        }
        assert_eq!(
            ring.try_claim().err(),
            Some(ClaimError::Full),
            "full at capacity"
        );
        assert!(ring.is_published(0));
        // SAFETY: this test is the only consumer and position 0 is published.
        assert_eq!(unsafe { ring.published(0) }.tag, 0);
        ring.release(0);
        assert_eq!(ring.consumed(), 1);
        let mut claim = ring.try_claim().expect("a slot was freed");
        claim.data().tag = 3;
        claim.publish();
        assert!(ring.is_published(3));
        assert!(!ring.is_published(4));
        assert_eq!(ring.close(), 4);
        assert!(ring.is_closed());
        assert_eq!(ring.claimed(), 4);
        for position in 1..4 {
            ring.release(position);
        }
        assert_eq!(ring.try_claim().err(), Some(ClaimError::Closed));
    }

    #[test]
    fn claimed_but_unpublished_slots_are_not_visible() {
        let ring = Ring::new(4).unwrap();
        let claim = ring.try_claim().expect("room");
        assert!(!ring.is_published(0));
        claim.publish();
        assert!(ring.is_published(0));
        assert_eq!(ring.claimed(), 1);
    }

    #[test]
    fn queued_counts_claimed_positions_the_consumer_has_not_finished() {
        let ring = Ring::new(4).unwrap();
        assert_eq!(ring.queued(), 0);
        for _ in 0..3 {
            ring.try_claim().expect("room").publish();
        }
        assert_eq!(ring.queued(), 3);
        ring.release(0);
        assert_eq!(ring.queued(), 2);
        ring.close();
        assert_eq!(ring.queued(), 2, "the closed bit is not counted");
    }

    /// A reader of `queued` racing a producer and a consumer that fill and empty the ring many
    /// times: the count never overflows (tests check overflow) nor exceeds the capacity.
    #[test]
    fn queued_stays_within_the_ring_while_the_consumer_catches_up() {
        use std::sync::atomic::AtomicBool;
        /// Raises the flag when its thread ends, by returning or by panicking, so that no
        /// other thread of the test waits for it for ever.
        struct RaiseOnExit<'a>(&'a AtomicBool);
        impl Drop for RaiseOnExit<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        const EVENTS: usize = 200_000;
        let ring = Ring::new(2).unwrap();
        let ended = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let _exit = RaiseOnExit(&ended);
                for _ in 0..EVENTS {
                    loop {
                        if let Ok(claim) = ring.try_claim() {
                            claim.publish();
                            break;
                        }
                        if ended.load(Ordering::SeqCst) {
                            return; // the consumer is gone: the ring stays full
                        }
                        std::thread::yield_now();
                    }
                }
            });
            scope.spawn(|| {
                let _exit = RaiseOnExit(&ended);
                for position in 0..EVENTS {
                    while !ring.is_published(position) {
                        if ended.load(Ordering::SeqCst) && !ring.is_published(position) {
                            return; // the producer is gone before publishing this one
                        }
                        std::thread::yield_now();
                    }
                    ring.release(position);
                }
            });
            loop {
                assert!(ring.queued() <= ring.capacity());
                if ended.load(Ordering::SeqCst) {
                    break;
                }
            }
        });
        assert_eq!(ring.consumed(), EVENTS, "every event went through");
    }
}
