//! Mass and rotational inertia of a shape, about its local origin.
//!
//! The one place the solver learns how heavy a body is: the geometry crate's
//! [`Shape::mass_properties`] (exact volume, centre of mass and inertia of boxes,
//! spheres and convex polyhedra). The bodies of the stacking scenes have their centre
//! of mass at their local origin (boxes and spheres by symmetry; hulls are built with
//! [`ConvexHull::try_from_points_centered`](sepax_pipeline::geometry::ConvexHull::try_from_points_centered),
//! see [`sepax_testkit::stacks`]), so the solver takes lever arms from the body origin.

use glam::Mat3;
use sepax_pipeline::geometry::Shape;

/// Mass `m` and inertia tensor (local frame, about the centre of mass, which the
/// scenes put at the local origin) of `shape` filled with `density`; `None` for a
/// density or a size the geometry crate refuses (it names why).
pub fn mass_properties(shape: &Shape, density: f32) -> Option<(f32, Mat3)> {
    let props = shape.mass_properties(density).ok()?;
    Some((props.mass, props.inertia))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use sepax_pipeline::geometry::{ConvexHull, Cuboid, Sphere};

    #[test]
    fn unit_cube_and_its_hull_agree() {
        let cube = Shape::from(Cuboid::try_from_size(Vec3::ONE).unwrap());
        let hull = Shape::from(ConvexHull::cuboid(Vec3::splat(0.5)).unwrap());
        let (m, i) = mass_properties(&cube, 2.0).unwrap();
        assert!((m - 2.0).abs() < 1e-6);
        // 1/6 m s² for a cube of side s.
        assert!((i.x_axis.x - 2.0 / 6.0).abs() < 1e-6);
        let (mh, ih) = mass_properties(&hull, 2.0).unwrap();
        assert!((mh - m).abs() < 1e-5);
        assert!((ih.x_axis.x - i.x_axis.x).abs() < 1e-5 && ih.x_axis.y.abs() < 1e-6);
    }

    #[test]
    fn sphere() {
        let ball = Shape::from(Sphere::try_new(0.5).unwrap());
        let (m, i) = mass_properties(&ball, 1.0).unwrap();
        assert!((m - std::f32::consts::PI / 6.0).abs() < 1e-6);
        assert!((i.y_axis.y - 0.4 * m * 0.25).abs() < 1e-6);
    }
}
