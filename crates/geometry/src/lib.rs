//! # sepax-geometry
//!
//! The plain data every other sepax crate speaks: rigid poses, axis-aligned
//! bounding boxes and the shapes the narrow phase understands (four convex solids and a
//! triangle mesh).
//!
//! * [`Pose`]: a rotation followed by a translation (`world = rotation * local + translation`).
//! * [`Aabb`]: a closed box `[min, max]`; two boxes that only touch overlap.
//! * [`Sphere`], [`Cuboid`], [`Capsule`], [`ConvexHull`]: convex shapes in their local frame,
//!   gathered in [`Shape`], which knows its tight world AABB and bounding sphere.
//!   [`ConvexHull::try_from_points`] builds a hull from a point cloud (coplanar
//!   triangles merged into polygon faces, points on faces and edges left out).
//! * [`TriMesh`] ([`mesh`]): a static triangle mesh for level geometry (floors,
//!   terrain, walls), one-sided (front = counter-clockwise), built once with
//!   validation, degenerate-triangle removal, per-triangle internal-edge flags
//!   ([`MeshTriangle`]) and its own BVH for region queries and two-sided ray casts.
//!   [`TriMesh::try_from_heights`] builds a height field. `Shape::TriMesh` puts it
//!   beside the convex shapes: a collision world takes it on static bodies.
//! * [`MassProperties`] ([`mass`]): mass, centre of mass and inertia of each shape at
//!   a density (`Sphere::mass_properties`, …, [`Shape::mass_properties`]), exact
//!   polyhedral integration for hulls, plus the inverses a solver needs.
//! * [`dim2`]: the plane — `Pose2`, `Obb2` (seed 002), `ConvexPolygon`, `Circle`, `Aabb2`.
//! * [`OrientedBox`]: the box of the seed documents, given by a **center**, a full
//!   **size** (width, height, depth) and a rotation quaternion.
//!
//! ## Conventions
//! * Math is glam `f32`: `Vec3`, `Quat`, `Mat3`.
//! * Constructors that take user data are `try_*` and return a [`ShapeError`],
//!   [`HullError`] or [`MeshError`] naming the problem (non-finite value, non-positive
//!   extent, degenerate point set, index out of range). Nothing here panics on user
//!   input.
//!
//! ```
//! use sepax_geometry::{Cuboid, Pose, Shape};
//! use glam::{Quat, Vec3};
//!
//! let cuboid = Cuboid::try_from_size(Vec3::new(2.0, 1.0, 1.0)).unwrap();
//! let pose = Pose::new(Vec3::new(0.0, 5.0, 0.0), Quat::from_rotation_z(0.3));
//! let aabb = Shape::from(cuboid).aabb(&pose);
//! assert!(aabb.contains_point(Vec3::new(0.0, 5.0, 0.0)));
//! ```

mod aabb;
mod capsule;
mod cuboid;
pub mod dim2;
mod error;
pub mod hull;
pub mod mass;
pub mod mesh;
mod pose;
pub mod ray;
pub mod rng;
mod shape;
mod sphere;
pub mod triangle;

pub use aabb::Aabb;
pub use capsule::Capsule;
pub use cuboid::{Cuboid, OrientedBox};
pub use error::{HullError, MeshError, ShapeError};
pub use hull::{ConvexHull, GaussArc, HullEdge, Plane};
pub use mass::MassProperties;
pub use mesh::{MeshRayHit, TriMesh};
pub use pose::Pose;
pub use ray::is_valid_ray;
pub use shape::Shape;
pub use sphere::Sphere;
pub use triangle::MeshTriangle;

pub use glam;
