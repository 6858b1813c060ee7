//! A hint to the CPU to start loading a value it will read soon.
//!
//! The narrow stage walks the pairs in key order and reads two bodies per pair from
//! wherever they sit in the body array: in a large world, a miss in the core's cache
//! on almost every pair. Asking for the bodies of a pair a few pairs ahead lets those
//! loads overlap the work on the pairs in between. A hint changes no answer: it never
//! faults, and the value is read normally when it is used.
//!
//! A hull's data sit behind two more pointers (the body's shape to the hull, the hull
//! to its arrays), so the AABB and narrow stages of a world that holds hulls also ask
//! for a hull's header some bodies or pairs ahead and, once it is in, for the start of
//! the arrays the stage reads ([`prefetch_range`]; the measurements are at
//! `aabbs::prefetch_hull_blocks` and `narrow::prefetch_hull_data`).
//!
//! Measured on the 10,000-box soup, one thread, this machine (2-core AMD EPYC, 1 MiB L2
//! per core): `cargo bench -p sepax-benches --bench step -- narrow_10k/sepax_threads/1`
//! 4.20 and 4.59 ms without the hint, 4.00 and 3.97 ms with it, runs alternated; the
//! whole `stress --scene soup --bodies 10000 --frames 300 --threads 1` process, median
//! task clock of 5 alternated runs, 2,099 ms without and 1,994 ms with. Before it, a
//! sampling profile put about half of the triage loop's own time on the first read of
//! the second body.

use sepax_geometry::ConvexHull;

/// How many pairs ahead of the one in hand the narrow and event stages ask for the
/// bodies (or user data) of a pair.
pub(crate) const PREFETCH_PAIRS: usize = 8;

/// Starts loading the cache line that holds the start of `value` (x86-64; elsewhere a
/// no-op).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    prefetch_range((value as *const T).cast(), 1, 1);
}

/// Starts loading a hull's header, where its arrays' addresses are.
#[inline(always)]
pub(crate) fn prefetch_hull_header(hull: &ConvexHull) {
    prefetch_range(
        (hull as *const ConvexHull).cast(),
        size_of::<ConvexHull>(),
        8,
    );
}

/// Starts loading the cache lines of `bytes` bytes from `start`, at most `max_lines`
/// of them (x86-64; elsewhere a no-op).
#[inline(always)]
pub(crate) fn prefetch_range(start: *const u8, bytes: usize, max_lines: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let lines = bytes.div_ceil(64).min(max_lines);
        for line in 0..lines {
            // SAFETY: a prefetch is only a hint: it reads nothing the program sees and
            // never faults, whatever the address (`wrapping_add` keeps the pointer
            // arithmetic defined even past the end).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(64 * line).cast::<i8>()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (start, bytes, max_lines);
}
