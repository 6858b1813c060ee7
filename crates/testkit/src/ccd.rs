//! The twins of continuous collision detection: when do two bodies moving along
//! straight motions over a step overlap, by brute force?
//!
//! A body moves from pose `p0` to `p1` along `Motion::between(p0, p1)` (times 0 to 1,
//! [`Motion::pose_at`]), as a world's CCD body does within a step.
//!
//! * [`first_overlap`]: fine stepping. The first of the times `0, 1/n, …, 1` at which
//!   [`intersects`] says the two shapes overlap. Every time is tested (a sub-step
//!   whose shape AABBs are apart is skipped, which cannot change the answer: shapes
//!   whose boxes are apart do not overlap).
//! * [`first_time_below`]: coarse then refined stepping of any separation function
//!   (the cast oracle tests feed it the f64 oracle's separation).
//! * [`centre_crosses`]: the exact test of one sure kind of crossing: the moving
//!   body's origin passes through the other shape (a ray from its start to its end
//!   origin hits it), which makes the two overlap at that time wherever the origin
//!   lies inside the moving shape (every shape of the scenes is centred on its
//!   origin).

use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::ray::ray_shape;
use sepax_narrowphase::{Motion, intersects};

/// Sub-steps of the fine-stepping twin in the CCD tests and `stress --check`.
pub const SUB_STEPS: u32 = 1000;

/// The index `k` of the first time `k / steps` (`k` in `0..=steps`) at which shape
/// `a` moving from `a0` to `a1` and shape `b` moving from `b0` to `b1` overlap
/// ([`intersects`] at both [`Motion::pose_at`] poses); `None` when they overlap at
/// none of them.
///
/// ```
/// use sepax_geometry::{Cuboid, Pose, Shape};
/// use sepax_testkit::ccd::first_overlap;
/// use glam::Vec3;
///
/// let wall = Shape::from(Cuboid::try_from_half_extents(Vec3::new(0.05, 1.0, 1.0)).unwrap());
/// let cube = Shape::from(Cuboid::try_from_half_extents(Vec3::splat(0.1)).unwrap());
/// let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0));
/// // From x = -5 to 5: the faces meet at x = -0.15, time 0.485.
/// let k = first_overlap(&cube, &at(-5.0), &at(5.0), &wall, &at(0.0), &at(0.0), 1000);
/// assert_eq!(k, Some(485));
/// ```
pub fn first_overlap(
    a: &Shape,
    a0: &Pose,
    a1: &Pose,
    b: &Shape,
    b0: &Pose,
    b1: &Pose,
    steps: u32,
) -> Option<u32> {
    let (motion_a, motion_b) = (Motion::between(a0, a1), Motion::between(b0, b1));
    (0..=steps).find(|&k| {
        let t = k as f32 / steps.max(1) as f32;
        let (pa, pb) = (motion_a.pose_at(a0, t), motion_b.pose_at(b0, t));
        a.aabb(&pa).overlaps(&b.aabb(&pb)) && intersects(a, &pa, b, &pb)
    })
}

/// The first stepped time in `[0, 1]` at which `separation(t) < −slack`: `steps + 1`
/// even times `k / steps`, then, inside the first coarse step that qualifies, `steps`
/// finer ones (a pass thinner than a coarse step can be missed: the tests that use it
/// confirm the other side's hits on their own). `None` when no stepped time qualifies.
///
/// ```
/// use sepax_testkit::ccd::first_time_below;
/// // A gap closing linearly from 1 at t = 0 to -1 at t = 1 crosses 0 at t = 0.5.
/// let t = first_time_below(|t| 1.0 - 2.0 * t as f64, 1e-9, 100).unwrap();
/// assert!(t > 0.5 && t <= 0.5 + 1e-4);
/// ```
pub fn first_time_below(separation: impl Fn(f32) -> f64, slack: f64, steps: usize) -> Option<f32> {
    let coarse = (0..=steps).find(|&k| separation(k as f32 / steps as f32) < -slack)?;
    if coarse == 0 {
        return Some(0.0);
    }
    let t0 = (coarse - 1) as f32 / steps as f32;
    let dt = 1.0 / (steps * steps) as f32;
    (1..=steps)
        .map(|k| t0 + k as f32 * dt)
        .find(|&t| separation(t) < -slack)
}

/// True when the origin of a body moving from `from` to `to` passes through `shape`
/// at `pose` (standing still): the segment between the two origins meets the shape.
pub fn centre_crosses(from: &Pose, to: &Pose, shape: &Shape, pose: &Pose) -> bool {
    let (origin, path) = (from.translation, to.translation - from.translation);
    if path.length_squared() == 0.0 {
        return false;
    }
    ray_shape(shape, pose, origin, path, 1.0).is_some()
}
