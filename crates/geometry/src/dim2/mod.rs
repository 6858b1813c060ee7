//! # 2D shapes
//!
//! The plane's counterparts of the 3D types, for seeds 001 and 002:
//!
//! * [`Pose2`] / [`Rot2`]: a planar rigid transform (`world = rotation · local + translation`).
//! * [`Obb2`]: seed 002's box — a **center**, two unit axes and a full **size**.
//! * [`ConvexPolygon`]: counter-clockwise, strictly convex, with outward unit edge
//!   normals; [`ConvexPolygon::try_new`] checks given vertices,
//!   [`ConvexPolygon::try_hull`] builds the convex hull of a cloud.
//! * [`Circle`]; [`Aabb2`] and [`BoundingCircle`], the coarse filters seed 001 runs
//!   before SAT. [`Shape2`] gathers the three shapes.
//!
//! Edge `i` of a polygon or box joins vertex `i` to vertex `i + 1`; the narrow phase
//! names features by these indices. Constructors from user data return
//! [`Shape2Error`] or [`PolygonError`]; nothing here panics on user input.
//!
//! ```
//! use sepax_geometry::dim2::{ConvexPolygon, Obb2, Pose2, Shape2};
//! use glam::Vec2;
//! let b = Obb2::try_from_angle(Vec2::ZERO, Vec2::new(2.0, 1.0), 0.3).unwrap();
//! let tri = ConvexPolygon::try_new(&[Vec2::ZERO, Vec2::X, Vec2::Y]).unwrap();
//! let pose = Pose2::new(Vec2::new(5.0, 0.0), 0.0);
//! assert!(Shape2::from(b).aabb(&pose).overlaps(&Shape2::from(tri).aabb(&pose)));
//! ```

mod aabb2;
mod circle;
mod error;
mod obb2;
mod polygon;
mod pose2;
mod shape2;

pub use aabb2::Aabb2;
pub use circle::{BoundingCircle, Circle};
pub use error::{PolygonError, Shape2Error};
pub use obb2::Obb2;
pub use polygon::{ConvexPolygon, MAX_POLYGON_VERTICES};
pub use pose2::{Pose2, Rot2};
pub use shape2::Shape2;
