//! # sepax-broadphase
//!
//! The broad phase finds, among many axis-aligned boxes, every pair that overlaps,
//! so that the exact (SAT) test of the narrow phase only runs on those. It is exact
//! on boxes: a pair is reported iff the two closed boxes intersect (touching faces,
//! edges or corners count; a zero-size box is a point), never approximately.
//!
//! * [`SweepAndPrune`]: the broad phase to use. Proxies with stable ids, updated
//!   every frame; [`SweepAndPrune::update_pairs`] produces the sorted pair list
//!   `(a, b)` with `a < b` and the diffs against the previous frame.
//! * [`BruteForce`]: the same API, O(n²): the oracle the tests compare against.
//! * [`StaticBvh`]: a bounding volume hierarchy (built with the `bvh` crate) over
//!   boxes that do not move, for region queries and ray casts (all hits, first hit).
//!
//! Static proxies ([`ProxyKind::Static`]) are never paired with each other, and
//! static–static pairs are not even looked at.
//!
//! ## Algorithm
//!
//! **Sort and sweep.** Two closed boxes overlap iff their intervals overlap on each
//! axis. Sort the boxes by `min` on one axis `a`; then for each box `p`, the boxes
//! after it with `min_a[q] <= max_a[p]` are exactly the later boxes overlapping it on
//! `a`, and they are contiguous. Each pair is met once, from its earlier box.
//! The other two axes are tested on those candidates, eight at a time, without
//! branches ([`sweep`](crate) kernel).
//!
//! **Coherence.** The order is kept between frames as `u64` keys (`min_a` mapped to
//! an order-preserving `u32`, then the id). Boxes move little per frame, so the old
//! order is nearly sorted and insertion sort repairs it in O(n + swaps). If the
//! repair would take more than 8 moves per box (teleports, a first frame, a new
//! axis) it stops and a 3-pass radix sort sorts from scratch in O(n).
//!
//! **Axis.** The sweep axis is the one with the largest variance of box centres; it
//! changes only when another axis' variance exceeds 1.5× the current one's, so two
//! nearly equal axes do not cause a full re-sort every frame.
//!
//! **Buckets.** A single sorted list gives each box about `n·e/L` candidates (`e` box
//! extent, `L` scene size) but only `(e/L)²` of them overlap on the other axes. From
//! 1,024 dynamic proxies on, the other two axes are cut into a uniform grid of cells
//! about two mean extents wide (at most `n/2` cells). A box is put into every cell it
//! touches, by a counting sort that walks the global order, so each cell is already
//! sorted. A pair is reported only in the cell holding the lower corner of its overlap
//! on the two grid axes, `(max(min_b), max(min_c))` — one integer test — so it is
//! reported once. A box touching more than 16 cells is tested against all boxes in
//! one linear pass instead.
//!
//! **Statics.** Each dynamic proxy caches the statics overlapping its box grown by
//! 25% of its largest extent (a "fat" box), found with a [`StaticBvh`] query. While
//! its box stays inside the fat box, its static pairs are found by testing those few
//! candidates; otherwise it queries again. Static changes rebuild the BVH (bvh 0.13
//! has no refit) and clear the caches.
//!
//! **Output.** Pairs are collected per task in task order, packed as `a << 32 | b`,
//! radix-sorted, and merged against the previous frame for
//! [`SweepAndPrune::pairs_added`] / [`SweepAndPrune::pairs_removed`]. Tasks depend on
//! the data only, not on the thread count, and the final list is sorted, so the output
//! is bit-identical on 1, 2 or 4 threads.
//!
//! ## Bad input
//!
//! Every call that takes a box checks it with [`Aabb::validate`](sepax_geometry::Aabb::validate):
//! NaN or infinite values give [`BroadPhaseError::NonFiniteAabb`], `min > max` gives
//! [`BroadPhaseError::InvertedAabb`], and nothing is stored, so a NaN never reaches a
//! sort. Unknown or removed ids give [`BroadPhaseError::UnknownProxy`]. Zero-size,
//! flat and exactly touching boxes are valid and pair exactly as the oracle says.
//!
//! ```
//! use sepax_broadphase::{BruteForce, ProxyKind, SweepAndPrune};
//! use sepax_geometry::{Aabb, rng::Rng};
//! use glam::Vec3;
//!
//! let mut rng = Rng::new(1);
//! let mut sap = SweepAndPrune::new();
//! let mut oracle = BruteForce::new();
//! for _ in 0..500 {
//!     let c = rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0));
//!     let aabb = Aabb::new(c - 0.5, c + 0.5);
//!     sap.insert(aabb, ProxyKind::Dynamic).unwrap();
//!     oracle.insert(aabb, ProxyKind::Dynamic).unwrap();
//! }
//! sap.update_pairs();
//! oracle.update_pairs();
//! assert_eq!(sap.pairs(), oracle.pairs());
//! ```

mod brute_force;
mod error;
mod grid;
mod order;
mod pairs;
mod proxy;
mod sap;
mod static_bvh;
mod sweep;

pub use brute_force::BruteForce;
pub use error::BroadPhaseError;
pub use proxy::{ProxyId, ProxyKind};
pub use sap::{FAT_MARGIN, FrameStats, GRID_MIN_PROXIES, PARALLEL_MIN_PROXIES, SweepAndPrune};
pub use static_bvh::{RayHit, StaticBvh};
