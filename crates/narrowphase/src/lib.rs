//! # sepax-narrowphase
//!
//! Exact contact between convex shapes by the separating-axis test (SAT), and between
//! a triangle mesh and a convex shape (one triangle at a time, the same SAT), with
//! contact manifolds a solver can use. `collide`, `contact` and `intersects` take any
//! two `Shape`s; a pair of two meshes never collides.
//!
//! ## Conventions (the same in every sepax crate)
//! * A pair is `(a, b)`. The contact **normal points from a to b**, unit length, in the
//!   world frame.
//! * **`depth > 0` means penetrating** by that much along the normal; a negative depth
//!   is a gap, reported only when it is smaller than the contact margin (speculative
//!   contacts). Margin 0 gives touching and penetrating pairs only; touching counts.
//! * **A speculative contact is measured, not bounded**: its deepest depth is minus the
//!   true distance `d` between the shapes and its normal the direction between their
//!   closest points (within [`SPECULATIVE_TOLERANCE`] of the size and
//!   [`SPECULATIVE_ANGLE`]), and a pair gets one iff `d ≤ margin`. Spheres and capsules
//!   measure `d` directly; polytope pairs the separating-axis test finds apart within
//!   the margin are measured by GJK ([`closest_points`]), and their manifold is built on the
//!   closest features when no separating axis runs along the closest direction (see
//!   [`collide`]).
//! * A manifold has **at most 4 points** in 3D, each with a world position (halfway
//!   between the surfaces), a depth and a feature id that stays the same while the same
//!   features touch.
//! * Queries run in the frame of one of the shapes (the other's pose relative to it,
//!   computed in f64) to keep round-off small. Which one is fixed by a canonical order
//!   of the pair (kind, size, pose bits), and the answer is mirrored when the caller's
//!   order is the other: the same pair gives the same answer, mirrored bit for bit, in
//!   both argument orders.
//!
//! ## What runs for which pair
//! * box–box: the 15-axis test in Ericson's projected-radius form, then clipping;
//! * box–hull, hull–hull: Gregorius' polytope SAT — face queries of both shapes and an
//!   edge query over the edge pairs that form a Minkowski face (their Gauss-map arcs
//!   cross), with exact pruning by the shapes' inner spheres — then clipping;
//! * polytope pairs apart within the margin: GJK's distance, warm from the pair cache,
//!   and the closest features' manifold when no axis is the closest direction
//!   (`speculative`);
//! * anything with a sphere: a point-to-shape distance (against a hull, a box or a
//!   sphere without the relative frame, `sphere_pair`: for a hull, the closest feature
//!   by a walk from a face the centre lies in front of, found by climbing the hull's
//!   polar dual from a precomputed start instead of scanning every plane; for a box, the
//!   clamp; for a sphere, the centre distance);
//! * a triangle mesh against a convex shape ([`mesh`]): each triangle under the shape
//!   through a one-sided triangle SAT (box: 13 axes; hull: faces and edge pairs;
//!   sphere: the closest point; capsule: the core's closest points, or its SAT over the
//!   front normal and core × edge axes when the core crosses the triangle) and the same
//!   clipper (a capsule's core clipped by the triangle's sides), contacts on internal
//!   edges given the face normal, all merged into one manifold.
//! * capsules (`sat::capsule`): the exact separation of the core segment and the other
//!   shape minus the radius — segment–segment closest points against a capsule, and
//!   against a box or hull the segment's SAT over the polytope's faces and the Minkowski
//!   faces `d × e` of its edges (the exact penetration), or the exact distance of the
//!   closest features when the segment is outside; manifolds clip the segment against
//!   a face (two points where a capsule lies along it), one point otherwise. A capsule
//!   query does not use the pair cache's feature: warm and cold answers are the same.
//!
//! The plane has its own module, [`dim2`]: boxes (seed 002), convex polygons and circles
//! with manifolds of at most 2 points, under the same conventions.
//!
//! The entry points are [`collide`] (manifold, with a per-pair [`PairCache`] for frame
//! coherence), [`contact`](fn@contact) (normal and depth only) and [`intersects`] (yes or
//! no); [`ray`] casts a ray against one shape.
//!
//! When the shapes are **apart**, the separating-axis test only bounds the gap from
//! below; the exact gap and the closest points come from GJK on the shapes' cores
//! ([`distance`](mod@distance) module: [`closest_points`], warm-started from the same [`PairCache`],
//! and [`distance()`]). [`cast()`] finds when two moving shapes first touch (linear and
//! angular velocities, by conservative advancement on that distance), never later
//! than they do. These take convex shapes only and refuse bad input with a
//! [`QueryError`]. Many box pairs at once go faster through
//! [`collide_box_pairs`] and [`contact_box_pairs`]: 8 pairs' separating axes in SIMD
//! lanes, the same answers bit for bit (see the [`batch`] module). The
//! [`oracle`] module is the slow twin every fast path is tested against.
//!
//! ```
//! use sepax_geometry::{OrientedBox, Shape};
//! use sepax_narrowphase::contact;
//! use glam::{Quat, Vec3};
//!
//! // Seed 000's boxes: center, full size, rotation.
//! let a = OrientedBox::try_new(Vec3::ZERO, Vec3::splat(2.0), Quat::IDENTITY).unwrap();
//! let b = OrientedBox::try_new(Vec3::new(1.5, 0.0, 0.0), Vec3::splat(2.0), Quat::from_rotation_z(0.2))
//!     .unwrap();
//! let (shape_a, pose_a) = a.split();
//! let (shape_b, pose_b) = b.split();
//! let c = contact(&shape_a.into(), &pose_a, &Shape::from(shape_b), &pose_b, 0.0).unwrap();
//! assert!(c.depth > 0.0 && c.normal.x > 0.9);
//! // The seeds' answer, a minimum translation vector:
//! let mtv = c.translation_vector();
//! assert!((mtv - c.normal * c.depth).length() < 1e-6);
//! ```
//!
//! ## Seed 003's claim, measured
//!
//! Seed 003 says that a SAT over the Gauss-map candidates, *walked* (the support
//! evaluated once, then updated across arcs) rather than scanned, is 5–10× faster than
//! a plain SAT on hulls with many faces. The `seed003` bench group
//! (`benches/benches/seed003.rs`, variants in `sepax_benches::seed003`) runs on the same
//! touching hull pairs:
//! * `plain`: every face and every edge pair, each with full support scans
//!   (`sat_baseline::plain_hull_hull`, a hidden item kept for this measurement);
//! * `gauss-map`: Gregorius' SAT without bounds — every face with a full support scan,
//!   edge pairs only where their Gauss-map arcs cross, valued on their own vertices
//!   (`sat_baseline::gauss_map_hull_hull`): the "plain SAT" the seed compares with;
//! * `pruned-scan` / `pruned-walk`: sepax's hull test ([`SupportMode::Scan`] /
//!   [`SupportMode::Walk`]), as `contact` (normal and depth, like the two baselines) and
//!   as `collide` (the manifold too), cold (a fresh [`PairCache`] per call) and warm
//!   (each pair's cache kept while b alternates between its pose and one moved by ≤ 1%
//!   of its size and ≤ 0.01 rad);
//! * parry3d's `contact_manifolds` and `query::contact` on the same pairs.
//!
//! Instructions per pair (callgrind, counting inside the bench's pass only, the second
//! pass of each variant; 28 November 2026, after the edge query took per-edge reach
//! bounds (see `sat::hull_hull`) with their masks in AVX2 on this CPU, before the reach
//! test's NaN rule (about 40 instructions a pair more, by `prof hull`); the `plain`,
//! `gauss-map` and parry rows are from 23 November, their code unchanged).
//! The pairs are `hull_pairs(n, 256, n)`, 64 pairs at 256 points; an `n`-point hull
//! keeps about 8 / 22 / 45 / 98 of its points as vertices, with 12 / 40 / 87 / 193
//! faces. (23 of the 256 8-point pairs are apart.)
//!
//! | points per hull | 8 | 24 | 64 | 256 |
//! |---|---:|---:|---:|---:|
//! | `plain` | 130,470 | 2,243,933 | 15,640,984 | 116,909,754 |
//! | `gauss-map` | 27,312 | 256,571 | 1,138,409 | 5,040,209 |
//! | `pruned-scan-contact` | 8,042 | 12,488 | 18,945 | 31,664 |
//! | `pruned-walk-contact` | 8,782 | 13,294 | 19,200 | 30,232 |
//! | `pruned-scan-cold` (manifold) | 10,006 | 15,463 | 23,101 | 39,772 |
//! | `pruned-walk-cold` | 10,746 | 16,269 | 23,357 | 38,340 |
//! | `pruned-scan-warm` | 10,272 | 15,673 | 22,997 | 37,579 |
//! | `pruned-walk-warm` | 11,069 | 16,598 | 23,235 | 35,785 |
//! | parry3d `contact_manifolds` | 16,568 | 25,382 | 35,584 | 55,184 |
//! | parry3d `query::contact` | 13,224 | 20,738 | 29,912 | 47,206 |
//! | plain / pruned-scan (contact) | 16.2 | 180 | 826 | 3,692 |
//! | plain / pruned-walk (contact) | 14.9 | 169 | 815 | 3,867 |
//! | gauss-map / pruned-scan (contact) | 3.4 | 20.5 | 60 | 159 |
//! | gauss-map / pruned-walk (contact) | 3.1 | 19.3 | 59 | 167 |
//! | pruned-scan / pruned-walk (contact) | 0.92 | 0.94 | 0.99 | 1.05 |
//! | pruned-scan / pruned-walk (cold, warm manifold) | 0.93, 0.93 | 0.95, 0.94 | 0.99, 0.99 | 1.04, 1.05 |
//! | parry3d manifold / pruned-scan-cold | 1.66 | 1.64 | 1.54 | 1.39 |
//!
//! (On 23 November, before the per-edge bounds: `pruned-scan-contact` 9,782 / 17,817 /
//! 26,946 / 44,767 and `pruned-scan-cold` 11,609 / 20,574 / 30,772 / 52,185.)
//!
//! Re-measured on 28 November 2026 (fourth session) after the warm path learned to
//! keep last query's face or edge pair without the full test (`QueryPath::Kept`; same
//! answers bit for bit) and the face manifold found its incident face from the
//! vertex's edges (the same count, per pair, as the difference of a 2-pass and a 1-pass
//! run; `prof seed003 <variant> <n>` with `--toggle-collect` on the pass):
//!
//! | points per hull | 8 | 24 | 64 | 256 |
//! |---|---:|---:|---:|---:|
//! | `pruned-scan-cold` (manifold) | 10,377 | 15,507 | 22,683 | 37,166 |
//! | `pruned-walk-cold` | 11,117 | 16,314 | 22,939 | 35,719 |
//! | `pruned-scan-warm` | 7,119 | 6,214 | 8,536 | 14,053 |
//! | `pruned-walk-warm` | 7,732 | 6,816 | 9,089 | 13,689 |
//! | parry3d manifold / pruned-scan-warm | 2.33 | 4.08 | 4.17 | 3.93 |
//!
//! Warm now costs 0.4–0.7× cold on these touching pairs (the 8-point set has more
//! deep and apart pairs, which the kept path cannot prove).
//!
//! What it says about the claim:
//! * **Walking instead of scanning gains at most 5% here, not 5–10×**: the walk is
//!   7–8% dearer at 8 points, 5–6% at 24, 1% at 64, and 4–5% cheaper at 256, warm or
//!   cold. The inner-sphere bounds leave only a handful of faces whose support is
//!   needed, and the scan reads 8 vertices at a time, so there is little scanning left
//!   for the walk to save.
//! * **Against the seed's own baseline** (`gauss-map`) the pruned test is 3.1–3.4×
//!   faster at 8 points, 19–21× at 24, 59–60× at 64 and 159–167× at 256: on hulls with many
//!   faces the claimed 5–10× is met and passed, but by the bounds (faces skipped before
//!   their support, edges dropped before pairing) and the 8-lane edge query, not by the
//!   walk. `gauss-map` itself is dominated by its `E_a·E_b` arc tests: its `F_a + F_b`
//!   support scans, all that a support walk could remove, are about 80 scans at 24
//!   points and 386 at 256, some 24,000 of 257,000 and 270,000 of 5.0 million
//!   instructions at what a scan costs in the `plain` rows (about 300 and 700
//!   instructions): under a tenth. The seed's traversal also finds the crossing arcs by
//!   walking them instead of testing every edge pair; sepax does not implement that
//!   part, its bounds do that job.
//! * The fully plain SAT is 15–16× (8 points) to 3,700–3,900× (256) dearer than the
//!   pruned test: the Gauss-map test is worth 4.8–23× of that, the bounds and lanes the
//!   rest.
//! * Warm and cold cost about the same on touching pairs (warm / cold 0.94–1.03, before
//!   the kept path of 28 November; since, 0.38–0.69, table above): the
//!   cache only skipped work when its axis still separated. parry3d's manifold takes
//!   1.66× (8 points) to 1.39× (256) the instructions of sepax's cold manifold (1.43× to
//!   1.06× before the per-edge bounds).
//!
//! The same variants timed (criterion, one pass per measurement: the time per pair is
//! the median over the pair count; run it on a quiet machine; further variants of the
//! pruned test, such as a forced SIMD level, get their rows in the same group):
//!
//! ```sh
//! cargo bench -p sepax-benches --bench seed003
//! ```
//!
//! One run of it (23 November 2026, late evening, `-- --warm-up-time 1
//! --measurement-time 2`, the 2-core VM with no other job), per pair at 8 / 24 / 64 /
//! 256 points: `plain` 15 / 249 / 1,450 / 9,530 µs, `gauss-map` 5.3 / 54 / 230 / 978
//! µs, `pruned-scan-contact` 0.97 / 1.69 / 4.2 / 4.3 µs, parry3d `contact_manifolds`
//! 1.74 / 2.76 / 5.6 / 4.6 µs: plain / pruned 16×, 147×, 347×, 2,200×; gauss-map /
//! pruned 5.5×, 32×, 55×, 227×, the same story as the counts. The warm and walk rows
//! of that run moved by up to ±50 % against their cold and scan twins (a warm 64-point
//! pass timed 1.7× its cold one, where the counts differ by 1 %), so they are not
//! quoted: on this VM the instruction counts are the figure to trust.
//!
//! The counts: one process runs every variant twice over the `n`-point pairs, with one
//! callgrind dump per pass (variant `k` in `Variant::ALL`, from 1, has its second
//! pass in dump `2k`; divide by the pair count):
//!
//! ```sh
//! cargo build --profile bench -p sepax-benches --example prof
//! N=2 valgrind --tool=callgrind --callgrind-out-file=/tmp/seed003.out --collect-atstart=no \
//!     --toggle-collect='sepax_benches::seed003::Passes::run' \
//!     --dump-after='sepax_benches::seed003::Passes::run' \
//!     target/release/examples/prof seed003 all 24
//! grep -H totals /tmp/seed003.out.*
//! ```
//!
//! ## Small values built in registers
//!
//! A value written to memory in pieces and read back at once as a wider value (a
//! `Vec3` built in an array at runtime indices and loaded as a vector; a struct
//! returned through memory whose fields were stored one by one and then copied whole)
//! cannot take its bytes from the pending stores: the read waits until they reach the
//! cache, a dozen cycles or more. On this crate's box path `perf annotate` put a fifth
//! of some functions' time on such reads. The hot paths therefore build small vectors
//! with a `match` on the index (`sat::box_box::unit_axis_vector`, the box face
//! points, the box edge segments), take the SAT's outcome by reference and read its
//! fields where they are needed, and inline the few calls whose answers came back
//! through memory (`BoxPair::axis`; capsule–capsule's closest points). Same bits;
//! `prof boxbatch touching` (N = 20,000) 0.73 → 0.57 s, `prof capsule-capsule` 561 →
//! 378 ms task clock (3 December 2026).

pub mod batch;
mod cache;
mod capsule_pair;
pub mod cast;
mod contact;
pub mod dim2;
pub mod distance;
mod error;
mod frame;
mod kept_feature;
mod manifold;
mod manifold_points;
mod math;
pub mod mesh;
pub mod oracle;
mod polytope;
mod query;
pub mod ray;
mod sat;
mod scratch;
mod solid;
mod speculative;
mod sphere_pair;

pub use batch::{
    BoxBoxPair, collide_box_pairs, collide_box_pairs_scattered, collide_box_pairs_with,
    contact_box_pairs,
};
#[doc(hidden)]
pub use batch::{collide_box_pairs_at, collide_box_pairs_with_at, contact_box_pairs_at};
pub use cache::{CachedAxis, PairCache};
pub use cast::{CAST_TOLERANCE, CastHit, MAX_CAST_STEPS, Motion, cast, cast_rounding};
pub use contact::{Contact, Feature, Manifold, ManifoldPoint, flipped_id};
pub use distance::{ClosestPoints, Witness, closest_points, distance};
pub use error::QueryError;
pub use manifold::CLIP_TOLERANCE;
pub use manifold_points::{ManifoldPoints, PointList, PointSlot};
#[doc(hidden)]
pub use query::contact_with;
pub use query::{
    DEFAULT_SUPPORT_MODE, QueryPath, collide, collide_full, collide_into, collide_path,
    collide_with, contact, intersects, minimum_translation,
};
pub use sat::FEATURE_SLOP;
/// The baselines of the `seed003` bench group, not queries to use: the plain hull–hull
/// SAT (every face, every edge pair, no pruning) and Gregorius' SAT without bounds
/// (every face, edge pairs by the Minkowski-face test).
#[doc(hidden)]
pub mod sat_baseline {
    pub use crate::sat::gauss_map::gauss_map_hull_hull;
    pub use crate::sat::plain::plain_hull_hull;
}
#[doc(hidden)]
pub use sat::box_box_wide::SimdLevel;
pub use sat::hull_hull::SupportMode;
pub use speculative::{SPECULATIVE_ANGLE, SPECULATIVE_TOLERANCE};
