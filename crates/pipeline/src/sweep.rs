//! The box a CCD body sweeps in one step: what the broad phase holds for it, so that
//! every body it passes through during the step becomes a candidate pair.
//!
//! A CCD body moves from its pose at the last step, `P0`, to its new one, `P1`, along
//! [`Motion::between`]: its origin on the straight segment `c(t) = c0 + t (c1 − c0)`,
//! turned at a constant rate about a fixed axis by the angle `θ` between the two
//! rotations (`t ∈ [0, 1]`, [`Motion::pose_at`]). Two boxes each hold the whole sweep;
//! the step keeps their intersection, which holds it too:
//!
//! * **The sphere box.** Every point of the shape lies within its bounding radius `r`
//!   of the body's origin (the radius is measured from the local origin), so at any
//!   time within `r` of `c(t)`: the box of the segment `c0 c1` grown by `r` holds the
//!   sweep, whatever the rotation.
//! * **The end boxes, grown.** A body point whose offset from the origin is `y` at
//!   time 0 sits at `c(t) + turn(tθ) y`. Split `y` into its part along the turning
//!   axis (fixed) and the part across it, of length `ρ ≤ r`, which runs along an arc
//!   of angle `θ`. Put the arc symmetric, from angle `−α` to `α` (`α = θ/2`), and
//!   compare the point at angle `uα` with the point at the same `t` on the chord
//!   (`u = 2t − 1`): they differ by `ρ (cos uα − cos α, sin uα − u sin α)`. The first
//!   term lies in `[0, 1 − cos α]`; the second is at most `α − sin α` in size (it is
//!   concave in `u` on `[0, 1]`, zero at both ends, and below `u (α − sin α)` since
//!   `sin uα ≤ uα`). The chord point at time `t` is the straight interpolation
//!   `(1 − t) p0 + t p1` of the point's two end positions, which lies in the union
//!   box of the two end AABBs. So the union box grown by
//!   `r ((1 − cos α) + (α − sin α))` holds the sweep: about `r θ² / 8` for small
//!   turns, where the sphere box would cost the whole radius.
//!
//! Both are computed in f32 and grown by a slack that covers the round-off of the
//! poses the cast evaluates ([`Motion::pose_at`] renormalises a rotation the world
//! accepts up to 1e-3 off unit length, which moves points by up to about `2e-3 r`)
//! and of the coordinates, then by the world's margin; and the result is joined with
//! the body's plain end box, so it always contains the box a step without CCD would
//! have used. A translation alone makes the grown union box the tighter of the two.

use glam::Vec3;
use sepax_geometry::{Aabb, Pose, Shape};
use sepax_narrowphase::Motion;

/// Slack relative to the bounding radius: the rotations the world accepts may be
/// 1e-3 off unit length, which the cast's renormalised poses turn into offsets of up
/// to about `2e-3 r` (see the module docs); twice that.
const RADIUS_SLACK: f32 = 4e-3;
/// Slack relative to the largest coordinate of the box: a few units in the last place
/// of the translations the cast computes.
const COORDINATE_SLACK: f32 = 4.0 * f32::EPSILON;

/// How far, relative to the radius, a body point strays from the straight line
/// between its two end positions when the body turns by `theta` at a constant rate
/// (see the module docs): `(1 − cos α) + (α − sin α)`, `α = θ / 2`.
fn turn_bulge(theta: f32) -> f32 {
    let alpha = 0.5 * theta;
    (1.0 - alpha.cos()) + (alpha - alpha.sin())
}

/// The world box holding `shape` (bounding radius `radius`) at every pose of the
/// motion from `from` to `to` ([`Motion::between`], times 0 to 1), grown by `margin`
/// and joined with `end`, the body's box at `to` as the step computed it (grown by
/// `margin`). `None` when the box is not finite (a motion across most of the f32
/// range): the body is then stepped with its end box only.
pub(crate) fn swept_aabb(
    shape: &Shape,
    radius: f32,
    from: &Pose,
    to: &Pose,
    end: &Aabb,
    margin: f32,
) -> Option<Aabb> {
    let (c0, c1) = (from.translation, to.translation);
    let theta = Motion::between(from, to).angular.length();
    let ends = shape.aabb(from).union(&shape.aabb(to));
    let far = ends.min.abs().max(ends.max.abs()).max_element();
    let slack = RADIUS_SLACK * radius + COORDINATE_SLACK * far;
    let grown = ends.expanded(radius * turn_bulge(theta) + slack);
    let reach = radius + slack;
    let sphere = Aabb::new(
        c0.min(c1) - Vec3::splat(reach),
        c0.max(c1) + Vec3::splat(reach),
    );
    let swept = Aabb::new(grown.min.max(sphere.min), grown.max.min(sphere.max))
        .expanded(margin)
        .union(end);
    swept.is_valid().then_some(swept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;
    use sepax_geometry::rng::Rng;
    use sepax_geometry::{Capsule, Cuboid, Sphere};

    /// The bulge bounds the straying of points on many turns, checked directly:
    /// sample the arc and the chord at the same times.
    #[test]
    fn turn_bulge_bounds_the_arc_against_its_chord() {
        for step in 1..=64 {
            let theta = std::f32::consts::PI * step as f32 / 64.0;
            let bound = turn_bulge(theta) as f64;
            let a = 0.5 * theta as f64;
            let (p0, p1) = ((-a).sin_cos(), a.sin_cos());
            for k in 0..=200 {
                let t = k as f64 / 200.0;
                let phi = -a + t * 2.0 * a;
                let arc = (phi.cos(), phi.sin());
                let chord = ((1.0 - t) * p0.1 + t * p1.1, (1.0 - t) * p0.0 + t * p1.0);
                let stray = ((arc.0 - chord.0).powi(2) + (arc.1 - chord.1).powi(2)).sqrt();
                assert!(
                    stray <= bound * (1.0 + 1e-5),
                    "θ {theta} t {t}: {stray} > {bound}"
                );
            }
        }
    }

    /// Every shape at 200 times of random motions (large turns included) lies in the
    /// swept box: its AABB at `Motion::pose_at(from, t)` is inside.
    #[test]
    fn the_swept_box_holds_the_shape_at_every_time() {
        let mut rng = Rng::new(11);
        let shapes: [Shape; 3] = [
            Cuboid::try_from_half_extents(Vec3::new(0.1, 0.4, 0.05))
                .unwrap()
                .into(),
            Capsule::try_new(0.5, 0.1).unwrap().into(),
            Sphere::try_new(0.3).unwrap().into(),
        ];
        for round in 0..3_000 {
            let shape = &shapes[round % 3];
            let from = Pose::new(
                rng.vec3(Vec3::splat(-50.0), Vec3::splat(50.0)),
                rng.rotation(),
            );
            let turn = if round % 4 == 0 {
                Quat::IDENTITY
            } else {
                Quat::from_axis_angle(rng.unit_vec3(), rng.range(0.0, 3.1))
            };
            let to = Pose::new(
                from.translation + rng.vec3(Vec3::splat(-20.0), Vec3::splat(20.0)),
                (turn * from.rotation).normalize(),
            );
            let end = shape.aabb(&to).expanded(0.01);
            let radius = shape.bounding_radius();
            let swept = swept_aabb(shape, radius, &from, &to, &end, 0.01).unwrap();
            assert!(swept.contains(&end));
            let motion = Motion::between(&from, &to);
            for k in 0..=200 {
                let at = motion.pose_at(&from, k as f32 / 200.0);
                let b = shape.aabb(&at);
                assert!(
                    swept.contains(&b),
                    "round {round} t {k}: {b:?} not in {swept:?}"
                );
            }
        }
    }

    /// A translation keeps the box tight: the union of the end boxes, plus slack.
    #[test]
    fn a_translation_sweeps_the_union_of_the_end_boxes() {
        let cube: Shape = Cuboid::try_from_half_extents(Vec3::splat(0.5))
            .unwrap()
            .into();
        let from = Pose::from_translation(Vec3::ZERO);
        let to = Pose::from_translation(Vec3::new(10.0, 0.0, 0.0));
        let end = cube.aabb(&to);
        let swept = swept_aabb(&cube, cube.bounding_radius(), &from, &to, &end, 0.0).unwrap();
        let want = Aabb::new(Vec3::splat(-0.5), Vec3::new(10.5, 0.5, 0.5));
        assert!(swept.contains(&want));
        assert!((swept.min - want.min).abs().max_element() < 0.01);
        assert!((swept.max - want.max).abs().max_element() < 0.01);
    }

    /// A motion across the f32 range has no finite box: `None`, no panic.
    #[test]
    fn an_overflowing_sweep_is_none() {
        let ball: Shape = Sphere::try_new(1.0).unwrap().into();
        let from = Pose::from_translation(Vec3::splat(-f32::MAX));
        let to = Pose::from_translation(Vec3::splat(f32::MAX));
        let end = ball.aabb(&to);
        assert!(swept_aabb(&ball, 1.0, &from, &to, &end, 0.0).is_none());
    }
}
