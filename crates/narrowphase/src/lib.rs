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
//! * anything with a sphere: a point-to-shape distance;
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
//! coherence), [`contact`] (normal and depth only) and [`intersects`] (yes or no);
//! [`ray`] casts a ray against one shape.
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

pub mod batch;
mod cache;
mod capsule_pair;
pub mod cast;
mod contact;
pub mod dim2;
pub mod distance;
mod error;
mod frame;
mod manifold;
mod math;
pub mod mesh;
pub mod oracle;
mod polytope;
mod query;
pub mod ray;
mod sat;
mod solid;
mod speculative;

pub use batch::{BoxBoxPair, collide_box_pairs, collide_box_pairs_with, contact_box_pairs};
#[doc(hidden)]
pub use batch::{collide_box_pairs_at, collide_box_pairs_with_at, contact_box_pairs_at};
pub use cache::{CachedAxis, PairCache};
pub use cast::{CAST_TOLERANCE, CastHit, MAX_CAST_STEPS, Motion, cast};
pub use contact::{Contact, Feature, Manifold, ManifoldPoint, flipped_id};
pub use distance::{ClosestPoints, Witness, closest_points, distance};
pub use error::QueryError;
pub use manifold::CLIP_TOLERANCE;
pub use query::{
    DEFAULT_SUPPORT_MODE, collide, collide_with, contact, intersects, minimum_translation,
};
#[doc(hidden)]
pub use query::contact_with;
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
