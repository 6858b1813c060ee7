//! Distance and closest points of two separated convex shapes: GJK on their cores.
//!
//! The separating-axis test answers how deep two shapes overlap; when they are apart
//! it gives only a lower bound of the gap (the best axis's separation). The exact gap
//! and the two closest points come from the Gilbert–Johnson–Keerthi algorithm (GJK):
//! the distance between convex sets `A` and `B` is the distance from the origin to
//! their Minkowski difference `B − A`, and GJK finds the point of `B − A` nearest the
//! origin by growing and shrinking a simplex of support points
//! `w = s_B(−v) − s_A(v)` (`s_X(d)`: the point of `X` furthest along `d`), `v` the
//! simplex's point nearest the origin. Each round `|v|` shrinks; `v · w / |v|` is a
//! lower bound of the distance and `|v|` an upper bound, so it stops when they agree
//! within a relative tolerance.
//!
//! * **Cores.** A sphere is a point grown by its radius, a capsule a segment grown by
//!   its radius; GJK runs on the cores (point, segment, box, hull) and the radii are
//!   subtracted at the end, so round shapes cost as little as polytopes and are exact.
//! * **Precision.** The query runs in a's frame with b's relative pose in f64; support
//!   points are picked in f32 and carried, like the simplex, in f64. The triangle step
//!   uses signed areas of cross products, which keep their precision on the long thin
//!   triangles a small shape beside a large one makes. Against the f64 oracle
//!   (`tests/distance_oracle.rs`, 100,000 random pairs of each kind): the distance is
//!   the exact one rounded to f32, give or take `1e-14` of the pair's size; `4e-8` of
//!   the size on nearly flat hulls, whose vertices tie in f32 along their normal, and
//!   `1e-10` for a box 1e6 times smaller than its partner. Before it stops, the last
//!   support is climbed over the hull's neighbouring vertices in f64 (`Core::climb`):
//!   an f32 support may stop on a vertex tied with the furthest to within its
//!   rounding, and the closest points then slide across the face the two span (a
//!   0.002 box 65 from a hull: the normal 1.3e-5 rad off). On a triangle too: two
//!   faces of `B − A` can meet at an angle below the f32 direction's rounding (a box
//!   edge over a hull face, tilted off it by 3e-8 rad: GJK stopped on the face
//!   border's edge pair, 1e-8 of a 0.008 gap too far). The climb also looks across a
//!   hull's merged faces, whose missing diagonals are edges of the hull of its vertices
//!   (see `Core::climb`). On hulls it costs 1.8% of a cold query and a third of a warm
//!   one, which ends on a triangle after one support (callgrind, `prof
//!   distance-hull24`, N = 10: cold 12,620,628 → 12,849,908 instructions, warm
//!   3,327,519 → 4,593,638; criterion `distance/sepax-warm/hull24` 56.0 → 72.2 µs for
//!   256 pairs); boxes never climb (their supports are chosen by signs, which f32
//!   keeps).
//! * **Termination without cycling.** It stops when the bounds agree, when the new
//!   support point is already in the simplex, when `|v|` fails to shrink (round-off on
//!   a degenerate simplex: the last better simplex is kept) or after
//!   [`MAX_ITERATIONS`] rounds.
//! * **Warm start.** The [`PairCache`] keeps the last simplex as vertex indices of
//!   both shapes; the next query rebuilds it at the new poses and continues from it.
//!   Bodies that moved a little finish in one or two rounds. A warm answer may differ
//!   from a cold one by round-off within the tolerance; a default cache gives the cold
//!   answer. The simplex is solved as a function of its vertex set (sorted, solved
//!   again until no vertex drops), so a query repeated with the cache it left stops in
//!   its first round with the same bits.
//! * **Speculative contacts.** `collide` and `contact` measure polytope pairs the
//!   separating-axis test finds apart within the margin with the same GJK (see
//!   `speculative`).
//! * **Order.** Like every pair query, it runs in the pair's canonical order and
//!   mirrors the answer: `closest_points(b, a)` is `closest_points(a, b)` mirrored bit
//!   for bit.
//!
//! ```
//! use sepax_geometry::{Cuboid, Pose, Shape, Sphere};
//! use sepax_narrowphase::{PairCache, Witness, closest_points, distance};
//! use glam::Vec3;
//!
//! let cube = Shape::from(Cuboid::try_from_half_extents(Vec3::splat(1.0)).unwrap());
//! let ball = Shape::from(Sphere::try_new(0.5).unwrap());
//! let at = Pose::from_translation(Vec3::new(3.0, 0.0, 0.0));
//! assert!((distance(&cube, &Pose::IDENTITY, &ball, &at).unwrap() - 1.5).abs() < 1e-6);
//!
//! let mut cache = PairCache::default();
//! let c = closest_points(&cube, &Pose::IDENTITY, &ball, &at, &mut cache).unwrap().unwrap();
//! assert!((c.point_a - Vec3::new(1.0, 0.0, 0.0)).length() < 1e-6);
//! assert!((c.point_b - Vec3::new(2.5, 0.0, 0.0)).length() < 1e-6);
//! assert!((c.normal - Vec3::X).length() < 1e-6);
//! assert_eq!(c.witness_a, Witness::Face(1)); // the box's +x face
//! ```

mod core;
mod gjk;
mod simplex;

pub(crate) use self::core::Core;
pub(crate) use gjk::{
    Frame64, LocalClosest, Pair, local_closest, pair_scale, reach, run_gjk, witness,
};
pub(crate) use simplex::{Simplex, SimplexHint};

use crate::PairCache;
use crate::error::QueryError;
use crate::query::canonical_swap;
use glam::Vec3;
use sepax_geometry::{Pose, Shape};

/// Most GJK rounds a query runs (it stops far sooner: 3–6 rounds cold, 1–2 warm).
pub const MAX_ITERATIONS: usize = 64;

/// The feature of one shape on which its closest point lies.
///
/// Vertex indices are the shape's own: a hull's vertex index, a box's corner index
/// (as in [`Cuboid::vertices`](sepax_geometry::Cuboid::vertices)), a capsule's core
/// ends `0` (bottom, −y) and `1` (top, +y), a sphere's centre `0`. Faces are numbered
/// as in [`Feature`](crate::Feature): a hull's plane index, a box's `2k` (−axis `k`)
/// and `2k + 1` (+axis `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Witness {
    /// A vertex (a sphere's centre, a capsule's core end).
    Vertex(u32),
    /// The edge between two vertices, lower index first (a capsule's core: `Edge(0, 1)`).
    Edge(u32, u32),
    /// A face.
    Face(u32),
}

/// The closest points of two separated shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClosestPoints {
    /// The gap, `> 0`.
    pub distance: f32,
    /// The point of a nearest b, on a's surface, world frame.
    pub point_a: Vec3,
    /// The point of b nearest a, on b's surface, world frame.
    pub point_b: Vec3,
    /// Unit world vector from `point_a` towards `point_b` (from a to b).
    pub normal: Vec3,
    /// Where `point_a` lies on a.
    pub witness_a: Witness,
    /// Where `point_b` lies on b.
    pub witness_b: Witness,
}

impl ClosestPoints {
    /// The same answer seen from b.
    pub fn flipped(&self) -> ClosestPoints {
        ClosestPoints {
            distance: self.distance,
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
            witness_a: self.witness_b,
            witness_b: self.witness_a,
        }
    }
}

/// The closest points of two convex shapes, or `Ok(None)` when they touch or overlap
/// (then [`contact`](fn@crate::contact) gives the penetration).
///
/// `cache` warm-starts the query with the pair's last simplex and receives this one;
/// pass a default cache for a cold answer, and one cache per pair (the same
/// [`PairCache`] [`collide`](crate::collide) uses). Shapes closer than about `1e-9` of
/// their size count as touching.
///
/// # Errors
/// [`QueryError::InvalidPose`] for a pose that is not [`Pose::is_valid`],
/// [`QueryError::NotConvex`] when a shape is a triangle mesh. The cache is left as it
/// was.
pub fn closest_points(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    cache: &mut PairCache,
) -> Result<Option<ClosestPoints>, QueryError> {
    check_pair(a, pose_a, b, pose_b)?;
    if canonical_swap(a, pose_a, b, pose_b) {
        let mut inner = cache.flipped();
        let found = gjk::closest_points_in_order(b, pose_b, a, pose_a, &mut inner);
        *cache = inner.flipped();
        Ok(found.map(|c| c.flipped()))
    } else {
        Ok(gjk::closest_points_in_order(a, pose_a, b, pose_b, cache))
    }
}

/// The gap between two convex shapes, `0` when they touch or overlap (parry's
/// `query::distance`). Cold: see [`closest_points`] for the warm query and the errors.
pub fn distance(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> Result<f32, QueryError> {
    check_pair(a, pose_a, b, pose_b)?;
    // The gap alone: no witnesses, no world points. Computed in the canonical order,
    // like `closest_points`, so both orders give the same bits.
    let (a, pose_a, b, pose_b) = match canonical_swap(a, pose_a, b, pose_b) {
        true => (b, pose_b, a, pose_a),
        false => (a, pose_a, b, pose_b),
    };
    let found = gjk::measure(a, pose_a, b, pose_b, &mut PairCache::default()).found;
    Ok(found.map_or(0.0, |c| c.gap as f32))
}

/// The input checks shared by the distance and cast queries.
pub(crate) fn check_pair(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
) -> Result<(), QueryError> {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return Err(QueryError::InvalidPose);
    }
    if matches!(a, Shape::TriMesh(_)) || matches!(b, Shape::TriMesh(_)) {
        return Err(QueryError::NotConvex);
    }
    Ok(())
}
