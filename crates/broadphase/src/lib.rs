//! # sepax-broadphase
//!
//! The broad phase finds, among many axis-aligned boxes, every pair that overlaps,
//! so that the exact (SAT) test of the narrow phase only runs on those. It is exact
//! on boxes: a pair is reported iff the two closed boxes intersect (touching faces,
//! edges or corners count; a zero-size box is a point), never approximately.
//!
//! * [`SweepAndPrune`]: the broad phase to use. Proxies under the caller's own ids
//!   ([`ProxyId`], e.g. body indices), updated every frame;
//!   [`SweepAndPrune::update_pairs`] produces the sorted pair list `(a, b)` with
//!   `a < b` in those ids, and the added and removed pairs against the previous frame,
//!   so a caller keeping per-pair state needs no id map and no diff of its own.
//! * [`BruteForce`]: the same API, O(n²): the oracle the tests compare against.
//! * [`StaticBvh`]: a bounding volume hierarchy (built with the `bvh` crate) over
//!   boxes that do not move, for region queries and ray casts (all hits, first hit);
//!   [`SweepAndPrune::static_bvh`] exposes the one over the static proxies.
//!
//! A pair needs a dynamic proxy ([`ProxyKind::pairs_with`]): static and kinematic
//! proxies are never paired with each other, and static–static and kinematic–static
//! pairs are not even looked at.
//!
//! ## Algorithm
//!
//! **Fat boxes and candidates.** Each dynamic proxy has a fat box: its box grown by
//! [`DYNAMIC_FAT_MARGIN`] (10%) of its largest extent on every side. The broad phase
//! keeps the sorted list of *candidate* pairs: every dynamic pair whose fat boxes
//! overlap, and possibly pairs whose fat boxes overlapped once since the last full
//! sweep. Invariant: every dynamic box lies inside its fat box, so every
//! overlapping dynamic pair is a candidate, and a frame's dynamic pairs are the
//! candidates whose real boxes overlap (one exact test per candidate). Each frame:
//!
//! * no box left its fat box: re-test the candidates, nothing else;
//! * a few left (up to [`MAX_PATCHED_ESCAPES`] (16) + n/256 this frame): give them
//!   new fat boxes, find the fat boxes overlapping each new one (a binary search and a
//!   scan in each cell of last sweep's grid it touches, or of all its sorted boxes) and
//!   merge those pairs into the candidates;
//!   their old candidates stay until the next full sweep (a superset is still right,
//!   and dropping them cost a pass over the whole list);
//! * more left, or proxies were added or removed: rebuild all fat boxes and all
//!   candidates with the sort-and-sweep below.
//!
//! With boxes moving 1% of their size a frame, a box leaves its fat box after 10
//! frames at the earliest, so most frames cost one containment test per box and one
//! overlap test per candidate. When many bodies move fast (or teleport) every frame
//! is a full sweep, and costs what the `teleport_*` benchmarks show.
//!
//! **Sort and sweep.** Two closed boxes overlap iff their intervals overlap on each
//! axis. Sort the boxes by `min` on one axis `a`; then for each box `p`, the boxes
//! after it with `min_a[q] <= max_a[p]` are exactly the later boxes overlapping it on
//! `a`, and they are contiguous. Each pair is met once, from its earlier box. A
//! sentinel with `min_a = +inf` ends every run, so the forward loop has one test.
//!
//! **The other two axes in one compare.** Each box is a 32-byte entry holding
//! `bc = (min_b, min_c, −max_b, −max_c)`; the probe box is
//! `(max_b, max_c, −min_b, −min_c)`. Overlap on `b` and `c` is then exactly
//! "`bc[q] <= probe` in all four lanes" (negation is exact, so this is the same
//! closed-interval test as the oracle's). With glam's `Vec4` this is one `cmpleps`
//! and one `movmskps` per candidate, no branch; checked in the disassembly of
//! the cell sweep (x86-64, SSE2 baseline): `movaps` load, `cmpleps`, `movmskps`,
//! `cmp $0xf`, followed by the (rarely taken) branch for a hit.
//!
//! **Coherence of the sweep.** The order is kept between sweeps. Each frame the boxes are read
//! once in last frame's order, and `u64` keys are built: `min_a` mapped to an
//! order-preserving `u32`, then the position. Boxes move little per frame, so the
//! keys are nearly sorted and insertion sort repairs them in O(n + moves). If that
//! would take more than 8 moves per box (teleports, a first frame, a new axis) it
//! stops and a stable 3-pass radix sort sorts from scratch in O(n). From 4,096 movers
//! the radix sort runs straight away: sweeps come every dozen frames or so, once boxes
//! have left their fat boxes, and by then a dense scene has many boxes passing each
//! other on the sweep axis (see `order::RADIX_FROM` for the figures).
//!
//! **Axis.** The sweep axis is the one with the largest variance of box centres
//! (estimated on at most ~1,024 boxes taken at a fixed stride); it changes only when
//! another axis' variance exceeds 1.5× the current one's, so two nearly equal axes do
//! not cause a full re-sort every frame.
//!
//! **Buckets** (Terdiman, "Box pruning revisited", part 17). One sorted list gives
//! each box about `n·e/L` candidates (`e` box extent, `L` scene size) of which only
//! a `(e/L)²` fraction also overlap on the other axes: 1,700 candidates for one
//! or two pairs at 100,000 boxes. From [`GRID_MIN_PROXIES`] (256) dynamic proxies on,
//! when one list would give more than [`GRID_MIN_CANDIDATES`] (16) candidates per
//! box (estimated from the mean extent and the range on `a`), the other two axes are
//! cut into a uniform grid of cells about four mean extents
//! wide (at most `n/2` cells, at most 4,096 per axis). Every box is listed in every
//! cell it touches, by a counting sort that walks the global order, so each cell's
//! list is already sorted on `a`; a cell's entries are copied together before its
//! sweep, which then reads them in a row (`cell_sweep`). A pair is reported only in
//! the cell holding the lower corner of its overlap, `(max(min_b), max(min_c))`;
//! since the cell function is monotonic that is `(max(cell(min_b)), max(cell(min_c)))`,
//! one integer test, so each pair is reported once. A box touching more than 16 cells
//! is tested against all boxes in one linear pass instead ("big" boxes, e.g. a ground
//! plane).
//!
//! **Statics.** Static proxies live in a [`StaticBvh`] (bvh crate), rebuilt when a
//! static proxy is added, moved or removed. Each dynamic proxy caches the statics
//! overlapping its box grown by [`FAT_MARGIN`] (50%) of its largest extent. While
//! its box stays inside that fat box, its static pairs come from testing those few
//! cached candidates; when it leaves, it queries the BVH again. Static–static pairs
//! are never looked at: the work is proportional to the dynamic proxies (plus the
//! re-queries), not to the statics.
//!
//! **Output.** Pairs are collected per task in task order, packed as `a << 32 | b`,
//! sorted (radix sort from 1,024 pairs, comparison sort below; the dynamic pairs come
//! sorted from the sorted candidates, so the sort runs only when static pairs were
//! added), and diffed against the previous frame for [`SweepAndPrune::pairs_added`] /
//! [`SweepAndPrune::pairs_removed`], with each one's index in its list
//! ([`SweepAndPrune::pairs_added_at`] / [`SweepAndPrune::pairs_removed_at`]). From
//! [`PARALLEL_MIN_PROXIES`] (16,384) dynamic proxies on, the box read, the entry
//! gather, the cell sweeps, the candidate test and the static pairs run on the rayon
//! pool; the candidate test does from [`PARALLEL_MIN_CANDIDATES`] (8,192) candidates
//! on, the static pairs from [`PARALLEL_MIN_STATIC_MOVERS`] (512) dynamic proxies on,
//! and the full sweep and the patch of the escaped movers (each mover's search in
//! tasks of 4, on a pool of more than one thread) from [`PARALLEL_MIN_SWEEP`] (4,096)
//! on. On the 10,000-box soup (2 threads, `stress --per-frame`, 300 frames, two runs
//! each) that took the broad phase of a frame that patches from 0.58 / 0.54 to 0.48 /
//! 0.49 ms and of a frame that sweeps (one in twelve) from 2.93 / 3.02 to 2.74 / 2.54
//! ms; `cargo bench --bench step` with a saved baseline: `step_10k_threads` on 2
//! threads −14 % (p = 0.00), on 1 thread no change. Tasks are cut
//! by data size, never by thread count, and the final list is sorted, so the output is
//! bit-identical on 1, 2 or 4 threads (tested).
//!
//! ## Chosen defaults and why
//!
//! Measured on the 2-core machine this was written on, which was shared with other
//! builds: timings moved by up to 2× between runs, so each choice below compares
//! runs made back to back (best of seven rounds) on the coherent scene of the
//! benchmarks (boxes 0.5–1.5 in a cube of side 2.5·n^⅓, moving 1% of their size a
//! frame):
//!
//! * dynamic fat margin 0.1, measured over whole runs of the `stress` soup (boxes
//!   moving 1% of their size a frame on a slow oscillation, so that the full sweeps
//!   the escapes trigger are counted, not only the frames between them). Broad-phase
//!   instructions a frame (callgrind, 1 thread, frames 10–90 of 10,000 boxes): 0.05
//!   3.90M, 0.1 3.84M, 0.25 5.24M; at 1,000 boxes (frames 10–170) 0.05 366k, 0.1
//!   347k, 0.15 401k, 0.25 465k; 2,000 hulls 867k / 765k / 830k / 967k. The mean
//!   broad stage, 2 threads: 10,000 boxes 0.85 ms against 1.02 with 0.25, 50,000
//!   boxes 5.7 ms against 7.7. In the broad-phase bench's coherent frames (boxes in
//!   straight lines, `cargo bench -p sepax-benches --bench broadphase -- coherent`,
//!   two alternating runs each, 28 November 2026): 10,000 boxes 364 and 372 µs
//!   against 530 and 503 with 0.25, but 1,000 boxes 36 and 39 µs against 34 and 34
//!   (the one loss). A smaller margin means fewer candidates to re-test every frame;
//!   below 0.1 the more frequent full sweeps eat the gain. (An older
//!   bench of the broad phase alone, which moved the boxes without the sweeps'
//!   cost counted, had 0.25 and 0.125 equal within noise: 203 and 189 µs at
//!   10,000 boxes, 0.5 slower at 447 µs; without the candidate cache, a full sweep
//!   every frame, 590 µs.)
//! * grid from 256 proxies and 16 expected candidates: at 1,000 boxes one list cost
//!   83–100 µs a full sweep (about 40 candidates per box), the grid 48–55 µs;
//! * cells 4 mean extents wide: at 100,000 boxes 12.5 ms a full sweep against
//!   17.8 ms with 2 (fewer duplicated entries), at 10,000 the same within noise;
//! * parallel from 16,384: at 10,000 boxes two threads were slower than one
//!   (735 µs vs 630 µs a full sweep), at 100,000 faster (8.1 ms vs 10.8 ms);
//! * static fat margin 0.5: with 50,000 static tiles and 1,000 movers, 0.25 made
//!   about 118 BVH re-queries a frame and cost 74 µs, 0.5 about 31 and 51 µs, 1.0
//!   about the same re-queries and 57 µs (more candidates to test);
//! * statics through cached BVH queries rather than a bipartite sweep: a bipartite
//!   sweep of the movers against a sorted static list walks that list (or a window
//!   of it per mover) every frame, which the cache avoids: the static work is the
//!   movers' few cached candidates plus the BVH re-queries of those that moved out.
//!
//! ## Benchmarks
//!
//! The broad-phase bench (`benches/benches/broadphase.rs`) measures sepax against
//! parry3d's BVH, the bvh crate and brute force on the same box clouds; its module
//! docs hold the figures of the last recorded run and the issue's targets.
//!
//! ## Bad input
//!
//! Every call that takes a box checks it with [`Aabb::validate`](sepax_geometry::Aabb::validate):
//! NaN or infinite values give [`BroadPhaseError::NonFiniteAabb`], `min > max` gives
//! [`BroadPhaseError::InvertedAabb`], and nothing is stored, so a NaN never reaches a
//! sort. Ids without a live proxy give [`BroadPhaseError::UnknownProxy`], inserting
//! under a live id [`BroadPhaseError::ProxyExists`]. Zero-size,
//! flat and exactly touching boxes are valid and pair exactly as the oracle says, and
//! so are boxes as wide as `±f32::MAX`: fat boxes are clamped to `±f32::MAX` so the
//! sweep's `+inf` sentinel always ends a run, the static BVH is built from clamped
//! boxes and refit with the real ones, and the grid's estimates leave out boxes more
//! than 64 times the median size (issue 9).
//!
//! **Pair budget.** [`SweepAndPrune::set_pair_budget`] (default
//! [`DEFAULT_PAIR_BUDGET`]) bounds the candidate pairs a frame collects, and so every
//! pair list: past it the frame keeps the first pairs in sweep order (the same for any
//! thread count), stops early, and reports [`FrameStats::pair_budget_exceeded`].
//!
//! ```
//! use sepax_broadphase::{BruteForce, ProxyId, ProxyKind, SweepAndPrune};
//! use sepax_geometry::{Aabb, rng::Rng};
//! use glam::Vec3;
//!
//! let mut rng = Rng::new(1);
//! let mut sap = SweepAndPrune::new();
//! let mut oracle = BruteForce::new();
//! for i in 0..500 {
//!     let c = rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0));
//!     let aabb = Aabb::new(c - 0.5, c + 0.5);
//!     sap.insert(ProxyId(i), aabb, ProxyKind::Dynamic).unwrap();
//!     oracle.insert(ProxyId(i), aabb, ProxyKind::Dynamic).unwrap();
//! }
//! sap.update_pairs();
//! oracle.update_pairs();
//! assert_eq!(sap.pairs(), oracle.pairs());
//! ```

mod brute_force;
mod budget;
mod cell_sweep;
mod error;
mod fat;
mod grid;
mod moments;
mod order;
mod pairs;
mod proxy;
mod radix;
mod sap;
mod static_bvh;
mod sweep;

pub use brute_force::BruteForce;
pub use error::BroadPhaseError;
pub use proxy::{ProxyId, ProxyKind};
pub use sap::{
    DEFAULT_PAIR_BUDGET, DYNAMIC_FAT_MARGIN, FAT_MARGIN, FrameStats, GRID_MIN_CANDIDATES,
    GRID_MIN_PROXIES, MAX_PATCHED_ESCAPES, PARALLEL_MIN_CANDIDATES, PARALLEL_MIN_PROXIES,
    PARALLEL_MIN_STATIC_MOVERS, PARALLEL_MIN_SWEEP, SweepAndPrune,
};
pub use static_bvh::{RayEntry, StaticBvh};
