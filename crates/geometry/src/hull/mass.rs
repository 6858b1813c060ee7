//! Volume, centre of mass and inertia of a [`ConvexHull`], by exact polyhedral
//! integration, and hulls recentred on their centre of mass.
//!
//! # Algorithm
//! Take a reference point `o` strictly inside the hull: the vertex mean. Fan every face
//! loop `v0 v1 … vk` (CCW seen from outside) into the triangles `(v0, vi, vi+1)`; each
//! triangle and `o` span a tetrahedron, and since the hull is convex and `o` inside,
//! these tetrahedra tile the hull without overlap. For the tetrahedron with corners
//! `o, o + a, o + b, o + c`, with `d = a · (b × c) = det[a b c]` (six times its signed
//! volume, positive when `a b c` is CCW seen from outside):
//! * volume `d / 6`;
//! * first moment about `o`: `∫ x dV = d (a + b + c) / 24` (volume times the centroid
//!   `(a + b + c) / 4`);
//! * second moment about `o`: `∫ x xᵀ dV = d/120 · (a aᵀ + b bᵀ + c cᵀ + s sᵀ)` with
//!   `s = a + b + c`. This is the canonical tetrahedron's covariance
//!   `(1/120)·[[2,1,1],[1,2,1],[1,1,2]]` carried to this one by `A = [a b c]`
//!   (`x = A u`, `dV = d du`, so `∫ x xᵀ = d A C₀ Aᵀ`), and `[[2,1,1],…] = Id + 1 1ᵀ`
//!   expands to the sum above.
//!
//! Summed over all tetrahedra these give the hull's volume `V`, first moment `M` and
//! second moment `S` about `o`. The centre of mass is `c = o + M / V`, and the
//! parallel-axis theorem moves the second moment to it: `C = S − M Mᵀ / V`. The
//! inertia is then `ρ (tr(C) Id − C)` ([module `mass`](crate::mass)).
//!
//! Everything runs in `f64`, relative to `o` (the reference point near the centre keeps
//! the parallel-axis subtraction small). The faces' orientation is checked by the sign
//! of `V`: it is positive for every valid hull (outward CCW faces), and would the
//! orientation ever be reversed, all three sums flip sign together and are flipped back.
//!
//! Sources (read for the math): J. Blow and A. Binstock, "How to find the inertia
//! tensor (or other mass properties) of a 3D solid body represented by a triangle mesh"
//! (2004); F. Tonon, "Explicit exact formulas for the 3-D tetrahedron inertia tensor in
//! terms of its vertex coordinates" (J. Math. Stat., 2005).

use super::ConvexHull;
use crate::mass::{MassProperties, Moments, check_density};
use crate::{HullError, ShapeError};
use glam::{DMat3, DVec3, Vec3};

impl ConvexHull {
    // The tetrahedron fan of the module docs, summed in f64 about the vertex mean.
    fn moments(&self) -> Moments {
        let points: Vec<DVec3> = self.vertices().iter().map(|v| v.as_dvec3()).collect();
        let o = points.iter().sum::<DVec3>() / points.len() as f64;
        let mut volume6 = 0.0; // Σ d
        let mut first24 = DVec3::ZERO; // Σ d (a + b + c)
        let mut second120 = DMat3::ZERO; // Σ d (a aᵀ + b bᵀ + c cᵀ + s sᵀ)
        let outer = |u: DVec3| DMat3::from_cols(u * u.x, u * u.y, u * u.z);
        for f in 0..self.face_count() {
            let face = self.face(f);
            let a = points[face[0] as usize] - o;
            for k in 1..face.len() - 1 {
                let b = points[face[k] as usize] - o;
                let c = points[face[k + 1] as usize] - o;
                let d = a.dot(b.cross(c));
                let s = a + b + c;
                volume6 += d;
                first24 += s * d;
                second120 += (outer(a) + outer(b) + outer(c) + outer(s)) * d;
            }
        }
        debug_assert!(volume6 > 0.0, "hull faces must wind CCW seen from outside");
        if volume6 < 0.0 {
            (volume6, first24, second120) = (-volume6, -first24, -second120);
        }
        let volume = volume6 / 6.0;
        let first = first24 / 24.0;
        let second = second120 / 120.0;
        let offset = first / volume;
        Moments {
            volume,
            center: o + offset,
            covariance: second - outer(first) / volume,
        }
    }

    /// The enclosed volume, by exact integration in `f64`, rounded to `f32` (`+∞` when
    /// it does not fit).
    ///
    /// ```
    /// use sepax_geometry::ConvexHull;
    /// use glam::Vec3;
    /// let h = ConvexHull::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
    /// assert_eq!(h.volume(), 48.0);
    /// ```
    pub fn volume(&self) -> f32 {
        self.moments().volume as f32
    }

    /// The centre of mass of the solid hull (uniform density), in its local frame.
    /// Not the same point as [`centroid`](ConvexHull::centroid), the vertex mean: many
    /// vertices on one side pull the mean, not the mass.
    ///
    /// ```
    /// use sepax_geometry::ConvexHull;
    /// use glam::Vec3;
    /// // A square pyramid of height 3: four base corners and an apex.
    /// let points = [
    ///     Vec3::new(-1.0, -1.0, 0.0), Vec3::new(1.0, -1.0, 0.0),
    ///     Vec3::new(1.0, 1.0, 0.0), Vec3::new(-1.0, 1.0, 0.0),
    ///     Vec3::new(0.0, 0.0, 3.0),
    /// ];
    /// let hull = ConvexHull::try_from_points(&points).unwrap();
    /// assert!((hull.centroid().z - 0.6).abs() < 1e-6); // 3 / 5 vertices
    /// assert!((hull.center_of_mass().z - 0.75).abs() < 1e-6); // a quarter of the height
    /// ```
    pub fn center_of_mass(&self) -> Vec3 {
        self.moments().center.as_vec3()
    }

    /// Mass, centre of mass and inertia (about the centre of mass, local axes) of the
    /// solid hull at `density`, by the exact integration of the [module docs](self).
    ///
    /// Errors: [`ShapeError::InvalidDensity`] for a density that is not finite and
    /// positive; [`ShapeError::MassOutOfRange`] when the mass or inertia does not fit in
    /// `f32` (a hull of size about `1e12` at density 1 already has moments of inertia
    /// past `f32::MAX`).
    ///
    /// ```
    /// use sepax_geometry::{ConvexHull, Cuboid};
    /// use glam::Vec3;
    /// let h = Vec3::new(1.0, 0.5, 2.0);
    /// let hull = ConvexHull::cuboid(h).unwrap().mass_properties(3.0).unwrap();
    /// let cuboid = Cuboid::try_from_half_extents(h).unwrap().mass_properties(3.0).unwrap();
    /// assert!((hull.mass - cuboid.mass).abs() < 1e-5 * cuboid.mass);
    /// assert!((hull.inertia - cuboid.inertia).abs_diff_eq(glam::Mat3::ZERO, 1e-4));
    /// ```
    pub fn mass_properties(&self, density: f32) -> Result<MassProperties, ShapeError> {
        let density = check_density(density)?;
        self.moments().mass_properties(density)
    }

    /// This hull moved so that its centre of mass sits at the local origin (up to `f32`
    /// rounding), and the offset that was subtracted: the old centre of mass.
    ///
    /// A body that used the old hull at pose `P` occupies the same space with the new
    /// hull at `P` moved by the rotated offset:
    /// `translation' = P.translation + P.rotation * offset`. Faces, edges and adjacency
    /// are unchanged; vertices and plane offsets are shifted.
    ///
    /// ```
    /// use sepax_geometry::{ConvexHull, Pose};
    /// use glam::{Quat, Vec3};
    /// let points = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    /// let hull = ConvexHull::try_from_points(&points).unwrap();
    /// let (centered, offset) = hull.recentered();
    /// assert!((offset - Vec3::splat(0.25)).length() < 1e-6);
    /// assert!(centered.center_of_mass().length() < 1e-6);
    ///
    /// let pose = Pose::new(Vec3::new(5.0, 0.0, 0.0), Quat::from_rotation_y(1.0));
    /// let moved = Pose::new(pose.translation + pose.rotation * offset, pose.rotation);
    /// let a = pose.transform_point(hull.vertices()[3]);
    /// let b = moved.transform_point(centered.vertices()[3]);
    /// assert!((a - b).length() < 1e-5);
    /// ```
    pub fn recentered(&self) -> (ConvexHull, Vec3) {
        let offset = self.center_of_mass();
        (self.translated(-offset), offset)
    }

    /// [`try_from_points`](ConvexHull::try_from_points), then
    /// [`recentered`](ConvexHull::recentered): the hull with its centre of mass at the
    /// local origin and the offset to add (rotated) to the body's position. Errors: the
    /// [`HullError`]s of `try_from_points`.
    ///
    /// ```
    /// use sepax_geometry::ConvexHull;
    /// use glam::Vec3;
    /// let corners: Vec<Vec3> = (0..8)
    ///     .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
    ///     .collect();
    /// let (hull, offset) = ConvexHull::try_from_points_centered(&corners).unwrap();
    /// assert!((offset - Vec3::splat(0.5)).length() < 1e-6);
    /// assert!(hull.vertices().contains(&Vec3::splat(-0.5)));
    /// ```
    pub fn try_from_points_centered(points: &[Vec3]) -> Result<(ConvexHull, Vec3), HullError> {
        Ok(ConvexHull::try_from_points(points)?.recentered())
    }

    /// The same hull moved by `delta`: vertices and plane offsets shift, topology and
    /// normals stay; the vertex mean, inradius and bounding radius, and every table
    /// that holds a position (the vertex, plane and edge blocks, the side planes, the
    /// polar climb's poles) are recomputed as [`ConvexHull::try_from_faces`] computes
    /// them.
    fn translated(&self, delta: Vec3) -> ConvexHull {
        let vertices: Vec<Vec3> = self.vertices().iter().map(|v| *v + delta).collect();
        let planes: Vec<_> = self
            .planes()
            .iter()
            .map(|p| super::Plane {
                normal: p.normal,
                offset: (p.offset as f64 + p.normal.as_dvec3().dot(delta.as_dvec3())) as f32,
            })
            .collect();
        let centroid = (vertices.iter().map(|v| v.as_dvec3()).sum::<DVec3>()
            / vertices.len() as f64)
            .as_vec3();
        ConvexHull::assemble(&super::HullParts {
            vertices: &vertices,
            planes: &planes,
            face_starts: self.face_starts(),
            face_vertices: self.face_indices(),
            edges: self.edges(),
            arcs: self.gauss_arcs(),
            neighbor_starts: self.neighbor_starts(),
            neighbors: self.neighbor_indices(),
            centroid,
        })
    }
}
