//! A latency histogram with logarithmic buckets (HdrHistogram's layout, two significant
//! digits): preallocated once, so recording a value is an index computation and an add, with no
//! allocation and no lock; each worker has its own and they are merged after the window.
//!
//! Values below 2^[`SUB_BITS`] have a bucket each; above, every power of two is cut into
//! 2^[`SUB_BITS`] equal buckets, so a bucket is at most 1/128 (0.8%) of its values wide. The
//! Java harness (`crates/bench/java`) uses the same layout, so both sides' percentiles carry
//! the same rounding.

/// Bits of each power of two's sub-buckets: 128 buckets per power of two.
pub const SUB_BITS: u32 = 7;
const SUB_COUNT: usize = 1 << SUB_BITS;
/// Buckets needed for every `u64`: the linear group, then one group per power of two above.
pub const BUCKETS: usize = SUB_COUNT * (64 - SUB_BITS as usize + 1);

/// Counts of latencies in nanoseconds.
pub struct Histogram {
    counts: Box<[u64]>,
    total: u64,
    max: u64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram::new()
    }
}

impl Histogram {
    /// An empty histogram (allocates its buckets, about 58 KiB, now and never again).
    pub fn new() -> Histogram {
        Histogram {
            counts: vec![0; BUCKETS].into_boxed_slice(),
            total: 0,
            max: 0,
        }
    }

    /// The bucket `value` falls in.
    #[inline]
    pub fn bucket(value: u64) -> usize {
        if value < SUB_COUNT as u64 {
            return value as usize;
        }
        let msb = 63 - value.leading_zeros();
        let shift = msb - SUB_BITS;
        let mantissa = (value >> shift) as usize; // in [SUB_COUNT, 2 * SUB_COUNT)
        (shift as usize + 1) * SUB_COUNT + mantissa - SUB_COUNT
    }

    /// The largest value that falls in `bucket` (what a percentile reports: never below the
    /// true value).
    pub fn highest_in(bucket: usize) -> u64 {
        if bucket < SUB_COUNT {
            return bucket as u64;
        }
        let group = bucket / SUB_COUNT;
        let mantissa = (SUB_COUNT + bucket % SUB_COUNT) as u64;
        let shift = (group - 1) as u32;
        // The last bucket's top is u64::MAX itself.
        ((mantissa + 1) << shift)
            .wrapping_sub(1)
            .max(mantissa << shift)
    }

    /// Counts one latency.
    #[inline]
    pub fn record(&mut self, nanos: u64) {
        self.counts[Histogram::bucket(nanos)] += 1;
        self.total += 1;
        self.max = self.max.max(nanos);
    }

    /// Adds every count of `other`.
    pub fn merge(&mut self, other: &Histogram) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts.iter()) {
            *mine += theirs;
        }
        self.total += other.total;
        self.max = self.max.max(other.max);
    }

    /// Latencies recorded.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The largest latency recorded, exactly.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The latency at or below which `percentile`% of the recorded ones are (the top of the
    /// bucket holding the ⌈p·n⌉-th smallest, capped at the exact maximum); 0 when empty.
    pub fn value_at(&self, percentile: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let rank = rank(percentile, self.total);
        let mut seen = 0;
        for (bucket, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return Histogram::highest_in(bucket).min(self.max);
            }
        }
        self.max
    }
}

/// The 1-based rank of the `percentile`% value among `total`: ⌈p/100 · total⌉, at least 1.
pub fn rank(percentile: f64, total: u64) -> u64 {
    let p = percentile.clamp(0.0, 100.0) / 100.0;
    // The epsilon keeps 0.9999 · 10 000 (9999.000000000002 in binary) at rank 9999.
    ((p * total as f64 - 1e-6).ceil() as u64).clamp(1, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_are_exact_and_large_ones_within_one_128th() {
        for value in 0..128u64 {
            assert_eq!(Histogram::highest_in(Histogram::bucket(value)), value);
        }
        for value in [
            128u64,
            129,
            255,
            256,
            1000,
            12_345,
            999_999,
            1 << 40,
            u64::MAX,
        ] {
            let bucket = Histogram::bucket(value);
            let top = Histogram::highest_in(bucket);
            assert!(top >= value, "{value}: {top}");
            assert!(
                (top - value) as f64 <= value as f64 / 128.0,
                "{value}: {top}"
            );
            assert!(bucket < BUCKETS);
        }
        assert_eq!(Histogram::bucket(u64::MAX), BUCKETS - 1);
    }

    #[test]
    fn buckets_are_in_value_order() {
        let mut last = 0;
        for bucket in 1..BUCKETS {
            let top = Histogram::highest_in(bucket);
            assert!(top > last, "bucket {bucket}");
            last = top;
        }
    }

    #[test]
    fn percentiles_of_one_to_ten_thousand() {
        let mut h = Histogram::new();
        for value in 1..=10_000u64 {
            h.record(value);
        }
        assert_eq!(h.count(), 10_000);
        assert_eq!(h.max(), 10_000);
        // The 5000th value is 5000; its bucket (width 32 at 4096..8191) tops at 5023.
        assert_eq!(h.value_at(50.0), 5023);
        assert_eq!(h.value_at(99.99), 10_000);
        assert_eq!(h.value_at(100.0), 10_000);
        assert_eq!(h.value_at(0.0), 1);
        for p in [50.0, 90.0, 99.0, 99.9] {
            let exact = rank(p, 10_000);
            let reported = h.value_at(p);
            assert!(reported >= exact && reported - exact <= exact / 128, "{p}");
        }
    }

    #[test]
    fn one_slow_call_in_ten_thousand_shows_at_p99_99_not_p99_9() {
        let mut h = Histogram::new();
        for _ in 0..9_999 {
            h.record(100);
        }
        h.record(5_000_000);
        assert_eq!(h.value_at(99.9), 100);
        assert_eq!(h.value_at(99.99), 100);
        assert!(h.value_at(99.995) >= 5_000_000);
        assert_eq!(h.max(), 5_000_000);
    }

    #[test]
    fn merging_adds_counts_and_keeps_the_larger_maximum() {
        let mut a = Histogram::new();
        let mut b = Histogram::new();
        a.record(10);
        b.record(20);
        b.record(3_000);
        a.merge(&b);
        assert_eq!(a.count(), 3);
        assert_eq!(a.max(), 3_000);
        assert_eq!(a.value_at(50.0), 20);
        assert_eq!(Histogram::new().value_at(99.0), 0);
    }

    #[test]
    fn recording_does_not_allocate() {
        let mut h = Histogram::new();
        let before = crate::alloc::this_thread();
        for value in 0..100_000u64 {
            h.record(value * 7919);
        }
        let after = crate::alloc::this_thread().since(before);
        assert_eq!(after.count, 0);
        assert_eq!(h.count(), 100_000);
    }

    #[test]
    fn ranks_round_up_and_stay_in_range() {
        assert_eq!(rank(50.0, 10), 5);
        assert_eq!(rank(99.0, 10), 10);
        assert_eq!(rank(0.0, 10), 1);
        assert_eq!(rank(100.0, 3), 3);
        assert_eq!(rank(99.99, 10_000), 9_999);
        assert_eq!(rank(99.9, 1_000_000), 999_000);
    }
}
