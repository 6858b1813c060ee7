//! The shape enum the pipeline stores per body.

use crate::{Aabb, Capsule, ConvexHull, Cuboid, Pose, Sphere, TriMesh};
use glam::{Mat3, Vec3};
use std::sync::Arc;

/// A shape in its local frame: four convex solids and the triangle mesh for static
/// level geometry. Hulls and meshes sit behind an `Arc` so that many bodies can share
/// one.
///
/// A [`TriMesh`] is a surface, not a solid: it collides one-sided with the convex
/// shapes (see the narrow phase's `mesh` module), never with another mesh, has no
/// mass, and a collision world accepts it on static bodies only.
#[derive(Clone, Debug)]
pub enum Shape {
    /// A sphere about the local origin.
    Sphere(Sphere),
    /// A box about the local origin.
    Cuboid(Cuboid),
    /// A convex polyhedron.
    ConvexHull(Arc<ConvexHull>),
    /// A capsule about the local origin, its core segment along the local y axis.
    Capsule(Capsule),
    /// A static triangle mesh (level geometry), one-sided: see [`TriMesh`].
    TriMesh(Arc<TriMesh>),
}

impl From<TriMesh> for Shape {
    fn from(m: TriMesh) -> Shape {
        Shape::TriMesh(Arc::new(m))
    }
}

impl From<Arc<TriMesh>> for Shape {
    fn from(m: Arc<TriMesh>) -> Shape {
        Shape::TriMesh(m)
    }
}

impl From<Capsule> for Shape {
    fn from(c: Capsule) -> Shape {
        Shape::Capsule(c)
    }
}

impl From<Sphere> for Shape {
    fn from(s: Sphere) -> Shape {
        Shape::Sphere(s)
    }
}

impl From<Cuboid> for Shape {
    fn from(c: Cuboid) -> Shape {
        Shape::Cuboid(c)
    }
}

impl From<ConvexHull> for Shape {
    fn from(h: ConvexHull) -> Shape {
        Shape::ConvexHull(Arc::new(h))
    }
}

impl From<Arc<ConvexHull>> for Shape {
    fn from(h: Arc<ConvexHull>) -> Shape {
        Shape::ConvexHull(h)
    }
}

impl Shape {
    /// The tightest world AABB of the shape at `pose`.
    ///
    /// Boxes use `|R| h` (exact); hulls transform every vertex, 8 at a time (exact); spheres
    /// `c ± r`; capsules the box of the core segment's endpoints `c ± |R ŷ| h`, grown
    /// by `r` (exact); meshes the box around their local box turned by the rotation
    /// (`|R| h` about the turned centre: exact when the rotation is the identity, a
    /// little larger otherwise, and it costs the same for 100 or 100,000 triangles).
    /// A pose that is not [`Pose::is_valid`] gives a non-finite box, which
    /// [`Aabb::is_valid`] reports.
    pub fn aabb(&self, pose: &Pose) -> Aabb {
        match self {
            Shape::Sphere(s) => {
                Aabb::from_center_half_extents(pose.translation, Vec3::splat(s.radius()))
            }
            Shape::Cuboid(c) => {
                let r = Mat3::from_quat(pose.rotation);
                let abs = Mat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
                Aabb::from_center_half_extents(pose.translation, abs * c.half_extents())
            }
            Shape::ConvexHull(h) => {
                let r = Mat3::from_quat(pose.rotation);
                let (min, max) = crate::hull::blocks::rotated_bounds(h.vertex_blocks(), r);
                Aabb::new(min + pose.translation, max + pose.translation)
            }
            Shape::Capsule(c) => {
                let axis = pose.rotation * Vec3::Y;
                let half = axis.abs() * c.half_height() + Vec3::splat(c.radius());
                Aabb::from_center_half_extents(pose.translation, half)
            }
            Shape::TriMesh(m) => {
                let local = m.aabb();
                let r = Mat3::from_quat(pose.rotation);
                let abs = Mat3::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());
                let center = pose.transform_point(local.center());
                Aabb::from_center_half_extents(center, abs * local.half_extents())
            }
        }
    }

    /// Radius of a sphere about the local origin that holds the whole shape
    /// (seed 001's coarsest filter).
    pub fn bounding_radius(&self) -> f32 {
        match self {
            Shape::Sphere(s) => s.radius(),
            // In f64: the squares of half extents below ~1e-19 underflow in f32 (a radius
            // of 0), and above ~1e19 overflow (infinity); rounded up so that the box
            // always fits.
            Shape::Cuboid(c) => round_up(c.half_extents().as_dvec3().length()),
            Shape::ConvexHull(h) => h.bounding_radius(),
            // h + r in f64, rounded up like the box's radius.
            Shape::Capsule(c) => round_up(c.half_height() as f64 + c.radius() as f64),
            Shape::TriMesh(m) => m.bounding_radius(),
        }
    }

    /// The world bounding sphere `(center, radius)` at `pose`.
    pub fn bounding_sphere(&self, pose: &Pose) -> (Vec3, f32) {
        (pose.translation, self.bounding_radius())
    }

    /// The point of the shape furthest along local direction `dir` (for a mesh, the
    /// vertex furthest along it, by a scan of every vertex).
    pub fn local_support(&self, dir: Vec3) -> Vec3 {
        match self {
            Shape::Sphere(s) => dir.normalize_or_zero() * s.radius(),
            Shape::Cuboid(c) => {
                let h = c.half_extents();
                Vec3::new(
                    if dir.x >= 0.0 { h.x } else { -h.x },
                    if dir.y >= 0.0 { h.y } else { -h.y },
                    if dir.z >= 0.0 { h.z } else { -h.z },
                )
            }
            Shape::ConvexHull(h) => h.vertices()[h.support_index(dir)],
            Shape::Capsule(c) => {
                let (bottom, top) = c.segment();
                let end = if dir.y >= 0.0 { top } else { bottom };
                end + dir.normalize_or_zero() * c.radius()
            }
            Shape::TriMesh(m) => {
                // The first vertex among ties, as the hull's support.
                let mut best = (f32::NEG_INFINITY, Vec3::ZERO);
                for &v in m.vertices() {
                    let d = v.dot(dir);
                    if d > best.0 {
                        best = (d, v);
                    }
                }
                best.1
            }
        }
    }
}

/// The smallest `f32` at least `r` (`+∞` above `f32::MAX`).
fn round_up(r: f64) -> f32 {
    let rounded = r as f32;
    if (rounded as f64) < r {
        rounded.next_up()
    } else {
        rounded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    #[test]
    fn cuboid_aabb_matches_its_corners() {
        let c = Cuboid::try_from_half_extents(Vec3::new(1.0, 2.0, 0.5)).unwrap();
        let pose = Pose::new(
            Vec3::new(1.0, -3.0, 2.0),
            Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.8),
        );
        let corners = c.vertices().map(|v| pose.transform_point(v));
        let expected = Aabb::from_points(&corners).unwrap();
        let got = Shape::from(c).aabb(&pose);
        assert!((got.min - expected.min).abs().max_element() < 1e-5);
        assert!((got.max - expected.max).abs().max_element() < 1e-5);
    }

    #[test]
    fn hull_aabb_matches_cuboid_aabb() {
        let h = Vec3::new(0.5, 1.5, 1.0);
        let pose = Pose::new(Vec3::new(4.0, 0.0, -1.0), Quat::from_rotation_x(0.4));
        let a = Shape::from(Cuboid::try_from_half_extents(h).unwrap()).aabb(&pose);
        let b = Shape::from(ConvexHull::cuboid(h).unwrap()).aabb(&pose);
        assert!((a.min - b.min).abs().max_element() < 1e-5);
        assert!((a.max - b.max).abs().max_element() < 1e-5);
    }

    #[test]
    fn capsule_aabb_bounds_its_support_points_tightly() {
        let capsule = Shape::from(Capsule::try_new(1.5, 0.25).unwrap());
        let pose = Pose::new(
            Vec3::new(-2.0, 1.0, 3.0),
            Quat::from_axis_angle(Vec3::new(1.0, -2.0, 0.5).normalize(), 1.1),
        );
        let aabb = capsule.aabb(&pose);
        for (k, axis) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
            for sign in [-1.0, 1.0] {
                let local = pose.inverse_transform_vector(axis * sign);
                let extreme = pose.transform_point(capsule.local_support(local));
                let bound = if sign > 0.0 { aabb.max[k] } else { aabb.min[k] };
                assert!(
                    (extreme[k] - bound).abs() < 1e-5,
                    "axis {k}: {extreme} vs {aabb:?}"
                );
            }
        }
        assert_eq!(capsule.bounding_radius(), 1.75);
        let upright = capsule.aabb(&Pose::IDENTITY);
        assert_eq!(upright.max, Vec3::new(0.25, 1.75, 0.25));
    }

    #[test]
    fn nan_pose_gives_invalid_aabb() {
        let s = Shape::from(Sphere::try_new(1.0).unwrap());
        let aabb = s.aabb(&Pose::from_translation(Vec3::new(f32::NAN, 0.0, 0.0)));
        assert!(!aabb.is_valid());
    }
}
