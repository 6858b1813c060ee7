//! # 2D narrow phase
//!
//! Contacts between the plane's shapes ([`Shape2`](sepax_geometry::dim2::Shape2):
//! circles, seed 002's oriented boxes, convex polygons), for engines in the style of
//! Box2D.
//!
//! ## Conventions (they hold for every function here)
//! * A pair is `(a, b)`; the **normal is unit, in the world frame, and points from a
//!   to b**. Swapping the shapes flips the normal and keeps the depth: `contact2d`
//!   reports the exact SAT axis, the largest separation over both shapes' edges; a
//!   manifold's reference face may be a's while b's is better by less than
//!   [`REFERENCE_TOLERANCE`] of the pair's size, its depth then that much deeper at
//!   most.
//! * **`depth > 0` means penetrating**; `depth = 0` is exactly touching and counts as
//!   a contact; `depth < 0` is a speculative contact, separated by `−depth` but closer
//!   than the `margin` the caller passed. With `margin = 0` only touching or
//!   penetrating pairs are reported.
//! * Work happens in a's frame (b's pose relative to a's) to keep round-off small; a
//!   box is handled in its own frame, where its data is exact, and a box–box manifold
//!   is clipped in the reference box's frame.
//! * A manifold has at most **2 points**, each with a world position (midway between
//!   the surfaces; inside both shapes when penetrating), its own depth and a
//!   feature id (a plain integer, [`ManifoldPoint2::id`]) that stays the same while the
//!   same features touch, so a solver can warm-start.
//! * Bad input never panics: a pose failing `Pose2::is_valid` gives no contact, a
//!   negative or NaN margin counts as 0.
//!
//! ## Algorithms
//! The layout is the 3D one: the separating-axis tests in `sat/`, the manifold builders
//! in `manifold/`, the returned types in `contact`, and `query` dispatching on the pair.
//! * Box–box (`sat/box_box`, `manifold/box_box`): SAT on the 4 face axes with projected
//!   radii, early exit on the first axis separating by more than the margin (seed 002);
//!   the incident edge clipped in the reference box's frame.
//! * Polygon–polygon (`sat/polygon`, `manifold/polygon`; box–polygon too, the box as a
//!   4-gon): the largest separation over a's edge normals, then over b's, as Box2D's
//!   `b2FindMaxSeparation` does (seed 001, with an early exit). The reference face is
//!   the one of least penetration, a's unless b's is better by [`REFERENCE_TOLERANCE`]
//!   of the pair's size; the incident edge is the other shape's most anti-parallel
//!   edge, clipped (`manifold/clip`, the one 2D clipper) to the reference edge's side
//!   planes.
//! * Circle–polygon (`sat/circle`): the edge of largest separation of the center, then
//!   its Voronoi regions (edge or vertex); circle–circle along the centers.
//! * [`oracle`]: seed 001's slow twin in f64, used by the tests.
//!
//! ```
//! use sepax_geometry::dim2::{ConvexPolygon, Obb2, Pose2, Shape2};
//! use sepax_narrowphase::dim2::{collide2d, Feature2};
//! use glam::Vec2;
//!
//! let floor = Shape2::from(Obb2::try_from_angle(Vec2::ZERO, Vec2::new(10.0, 1.0), 0.0).unwrap());
//! let hexagon: Vec<Vec2> = (0..6)
//!     .map(|k| Vec2::from_angle(k as f32 * std::f32::consts::TAU / 6.0) * 0.5)
//!     .collect();
//! let hex = Shape2::from(ConvexPolygon::try_new(&hexagon).unwrap());
//! // The hexagon rests on the floor, 0.02 deep, and a margin of 0.1 is used.
//! let pose = Pose2::new(Vec2::new(0.0, 0.5 + 0.433 - 0.02), 0.0);
//! let m = collide2d(&floor, &Pose2::IDENTITY, &hex, &pose, 0.1).unwrap();
//! assert_eq!(m.feature, Feature2::EdgeA(2)); // the floor's top edge
//! assert_eq!(m.points.len(), 2);
//! assert!((m.depth() - 0.02).abs() < 1e-3);
//! ```

mod contact;
mod convex;
mod manifold;
pub mod oracle;
mod query;
mod sat;

pub use contact::{Contact2, Feature2, Manifold2, ManifoldPoint2, ManifoldPoints2};
pub use query::{collide2d, contact2d, intersects2d};
pub use sat::REFERENCE_TOLERANCE;
