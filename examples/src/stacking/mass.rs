//! Mass and rotational inertia of a shape, about its local origin.
//!
//! The one place the solver learns how heavy a body is. The bodies of the stacking
//! scenes have their centre of mass at their local origin (boxes and spheres by
//! symmetry; hulls are built around the centre of their bounding box, see
//! [`scenes`](super::scenes)), so the solver takes lever arms from the body origin.

use glam::{Mat3, Vec3};
use sepax_pipeline::geometry::Shape;

/// Mass `m` and inertia tensor (local frame, about the local origin) of `shape` filled
/// with `density`.
///
/// * Box of half extents `h`: `m = 8 hx hy hz ρ`,
///   `I = m/3 · diag(hy² + hz², hx² + hz², hx² + hy²)`.
/// * Sphere of radius `r`: `m = 4/3 π r³ ρ`, `I = 2/5 m r² · 1`.
/// * Convex hull: **for now the box bounding its vertices**, with the box formulas
///   above about the box centre (the scenes put that centre at the origin). The
///   geometry crate is getting `Shape::mass_properties(density)` (exact volume,
///   centre of mass and inertia of the polyhedron); it replaces this arm, and the
///   centre of mass it returns then becomes the body origin's offset.
pub fn mass_properties(shape: &Shape, density: f32) -> (f32, Mat3) {
    match shape {
        Shape::Cuboid(c) => box_mass(c.half_extents(), density),
        Shape::Sphere(s) => {
            let r = s.radius();
            let m = 4.0 / 3.0 * std::f32::consts::PI * r * r * r * density;
            (m, Mat3::from_diagonal(Vec3::splat(0.4 * m * r * r)))
        }
        Shape::ConvexHull(h) => {
            // Bounding box of the vertices: an over-estimate of mass and inertia.
            let (lo, hi) = h
                .vertices()
                .iter()
                .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), &v| {
                    (lo.min(v), hi.max(v))
                });
            box_mass(0.5 * (hi - lo), density)
        }
    }
}

/// `m = 8 hx hy hz ρ`, `I = m/3 · diag(hy² + hz², hx² + hz², hx² + hy²)` (a solid box
/// of half extents `h` about its centre).
fn box_mass(h: Vec3, density: f32) -> (f32, Mat3) {
    let m = 8.0 * h.x * h.y * h.z * density;
    let h2 = h * h;
    let diag = Vec3::new(h2.y + h2.z, h2.x + h2.z, h2.x + h2.y) * (m / 3.0);
    (m, Mat3::from_diagonal(diag))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sepax_pipeline::geometry::{ConvexHull, Cuboid, Sphere};

    #[test]
    fn unit_cube_and_its_hull_agree() {
        let cube = Shape::from(Cuboid::try_from_size(Vec3::ONE).unwrap());
        let hull = Shape::from(ConvexHull::cuboid(Vec3::splat(0.5)).unwrap());
        let (m, i) = mass_properties(&cube, 2.0);
        assert!((m - 2.0).abs() < 1e-6);
        // 1/6 m s² for a cube of side s.
        assert!((i.x_axis.x - 2.0 / 6.0).abs() < 1e-6);
        assert_eq!(mass_properties(&hull, 2.0), (m, i));
    }

    #[test]
    fn sphere() {
        let ball = Shape::from(Sphere::try_new(0.5).unwrap());
        let (m, i) = mass_properties(&ball, 1.0);
        assert!((m - std::f32::consts::PI / 6.0).abs() < 1e-6);
        assert!((i.y_axis.y - 0.4 * m * 0.25).abs() < 1e-6);
    }
}
