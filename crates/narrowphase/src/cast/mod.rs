//! Shape casts: when do two moving convex shapes first touch?
//!
//! Each shape moves with a constant [`Motion`] (linear velocity, and angular velocity
//! about its pose's origin) from its pose at time 0. [`cast`] finds the time of impact
//! by **conservative advancement**: at time `t` the closest points give the distance
//! `d` and the normal `n` (a → b); no point of b can close on a faster than
//! `u = (v_a − v_b) · n + |n × ω_a| r_a + |n × ω_b| r_b` (`r`: how far each shape's core
//! reaches from its origin — a sphere's rotation moves nothing, a capsule's only its
//! segment — and only the part of the spin across `n` moves points along it), so they
//! cannot touch before `t + d / u`, and the query advances to it. With no
//! rotation, `u` is the exact rate at which the distance shrinks and the distance is a
//! convex function of time, so each step is a Newton step that never passes the root:
//! one step when a vertex closes on a face, a few elsewhere.
//!
//! **Triangle meshes.** A convex shape is cast against a mesh (which may translate but
//! not turn) one triangle at a time: the triangles within the shape's reach of its
//! origin's path in the mesh frame (the mesh's BVH), each a flat core of three corners,
//! two-sided, the earliest hit winning. Internal edges get no special treatment here:
//! a hit on a seam may carry the edge's normal (the contact that follows is corrected
//! as usual).
//!
//! Before any distance step, the shapes' bounding spheres (about their origins, which
//! a rotation does not move) give a first time no contact can precede, in closed form:
//! a pair whose spheres never meet within `max_time` is a miss without a GJK query.
//!
//! The reported time is therefore **never after** the first contact: it is the first
//! time found at which the shapes are within [`CAST_TOLERANCE`] (relative to their
//! size) of touching, before the exact time of impact by at most that gap over the
//! closing speed. "Touching" is judged at the poses [`Motion::pose_at`] builds for
//! that time, in f32: they are off the exact motion by a few ulps of the positions
//! ([`cast_rounding`]), and a small shape far from the origin is smaller than that
//! tolerance allows for, so the steps also stop short by that rounding and the gap at
//! a hit may exceed the tolerance by four times it (0.0014 of a size-0.06 sphere 50
//! units out stopped 5e-7 deep before 5 December 2026). The distance steps run warm (each starts from the last simplex).
//! `tests/cast_oracle.rs` checks the times against fine stepping.
//!
//! ```
//! use sepax_geometry::{Cuboid, Pose, Shape};
//! use sepax_narrowphase::{Motion, cast};
//! use glam::Vec3;
//!
//! let wall = Shape::from(Cuboid::try_from_half_extents(Vec3::new(0.05, 2.0, 2.0)).unwrap());
//! let bullet = Shape::from(Cuboid::try_from_half_extents(Vec3::splat(0.1)).unwrap());
//! let start = Pose::from_translation(Vec3::new(-5.0, 0.0, 0.0));
//! let fired = Motion::linear(Vec3::new(100.0, 0.0, 0.0));
//! let hit = cast(&bullet, &start, &fired, &wall, &Pose::IDENTITY, &Motion::ZERO, 1.0)
//!     .unwrap()
//!     .unwrap();
//! // The bullet's face reaches the wall's at x = -0.05: 4.85 m at 100 m/s.
//! assert!((hit.time - 0.0485).abs() < 1e-5);
//! assert!((hit.normal - Vec3::X).length() < 1e-5);
//! ```

mod advance;
mod mesh;

use crate::distance::{Core, LocalClosest, reach};
use crate::error::QueryError;
use crate::query::canonical_swap;
use crate::{PairCache, collide};
use advance::{Body, advance};
use glam::{Quat, Vec3};
use mesh::cast_mesh;
use sepax_geometry::{Pose, Shape};

/// The largest gap, relative to the shapes' size (the smaller bounding radius), at
/// which a cast counts the shapes as touching and stops (plus four times
/// [`cast_rounding`], the f32 rounding of the poses, see the module docs).
pub const CAST_TOLERANCE: f32 = 1e-4;

/// How far the f32 poses [`Motion::pose_at`] builds for a time in `[0, max_time]` can
/// put a point of either shape off its exact motion, summed over both shapes: `2ε` of
/// the largest distance from the origin the shape's pose reaches (`|p| + |v| max_time`)
/// and `4ε` of how far the shape's core reaches from its pose's origin (its bounding
/// radius less a sphere's or a capsule's radius: the part a rotation moves), `ε =
/// f32::EPSILON`. At each time `t` a cast stops short of touching by twice this (for
/// `max_time = t`) and counts a gap of [`CAST_TOLERANCE`] × size plus four times it as
/// touching, so a hit's gap is within four times this of the tolerance. Meshes are
/// counted by their bounding radius. Non-finite inputs give a non-finite value.
///
/// ```
/// use sepax_geometry::{Pose, Shape, Sphere};
/// use sepax_narrowphase::{Motion, cast_rounding};
/// use glam::Vec3;
///
/// let ball = Shape::from(Sphere::try_new(0.5).unwrap());
/// let far = Pose::from_translation(Vec3::new(1000.0, 0.0, 0.0));
/// let near = Pose::IDENTITY;
/// let still = Motion::ZERO;
/// // A sphere's rotation moves nothing: only the translations count.
/// let delta = cast_rounding(&ball, &far, &still, &ball, &near, &still, 1.0);
/// assert!((delta - 2.0 * f32::EPSILON * 1000.0).abs() < 1e-9);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cast_rounding(
    a: &Shape,
    pose_a: &Pose,
    motion_a: &Motion,
    b: &Shape,
    pose_b: &Pose,
    motion_b: &Motion,
    max_time: f32,
) -> f32 {
    let rounding = |shape: &Shape, pose: &Pose, motion: &Motion| {
        pose_rounding(pose, motion, core_reach(shape), max_time as f64)
    };
    (rounding(a, pose_a, motion_a) + rounding(b, pose_b, motion_b)) as f32
}

/// How far a shape's core reaches from its pose's origin: its reach less the radius
/// swept about the core (a mesh: its reach).
fn core_reach(shape: &Shape) -> f64 {
    let radius = Core::of(shape).map_or(0.0, |(_, radius)| radius as f64);
    (reach(shape) - radius).max(0.0)
}

/// One shape's part of [`cast_rounding`], for a core reaching `core_reach`.
fn pose_rounding(pose: &Pose, motion: &Motion, core_reach: f64, max_time: f64) -> f64 {
    let epsilon = f32::EPSILON as f64;
    2.0 * epsilon * pose.translation.as_dvec3().length()
        + rounding_drift(motion) * max_time
        + 4.0 * epsilon * core_reach
}

/// How fast [`pose_rounding`] grows with the time: `2ε` of the linear speed.
pub(super) fn rounding_drift(motion: &Motion) -> f64 {
    2.0 * f32::EPSILON as f64 * motion.linear.as_dvec3().length()
}

/// Most distance steps a cast takes; a cast that has not closed in by then (a
/// grazing pass with rotation) reports the time it reached as the impact, which is
/// still no later than a real one. (128 until 5 December 2026: with the rotation's
/// bound then taken over the whole shape about `|ω|`, a spinning box sliding past
/// another ran out 0.078 short of it, and 3 of 20 seeds of `tests/cast_oracle.rs`'s
/// never-late test held such a cast; with the tighter bound and 512 steps, none of
/// 24 seeds counted does.)
pub const MAX_CAST_STEPS: usize = 512;

/// Constant velocities of a body: its pose at time `t` is [`Motion::pose_at`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Motion {
    /// Velocity of the pose's origin (world frame, units per unit of time).
    pub linear: Vec3,
    /// Angular velocity about the pose's origin (world frame, radians per unit of
    /// time, the axis times the rate).
    pub angular: Vec3,
}

impl Motion {
    /// At rest.
    pub const ZERO: Motion = Motion {
        linear: Vec3::ZERO,
        angular: Vec3::ZERO,
    };

    /// Translation only.
    pub const fn linear(velocity: Vec3) -> Motion {
        Motion {
            linear: velocity,
            angular: Vec3::ZERO,
        }
    }

    /// The motion that takes `from` to `to` in one unit of time: the translation's
    /// difference and the shortest rotation between them. A world's CCD uses it for a
    /// body's step from its last pose to its new one.
    pub fn between(from: &Pose, to: &Pose) -> Motion {
        let turn = (to.rotation * from.rotation.conjugate()).normalize();
        // The shortest way round: q and -q are the same rotation.
        let turn = if turn.w < 0.0 { -turn } else { turn };
        Motion {
            linear: to.translation - from.translation,
            angular: turn.to_scaled_axis(),
        }
    }

    /// True when both velocities are finite.
    pub fn is_valid(&self) -> bool {
        self.linear.is_finite() && self.angular.is_finite()
    }

    /// `pose` moved for time `t`: translated by `linear · t`, turned by the rotation
    /// of angle `|angular| · t` about `angular` (about the pose's origin).
    pub fn pose_at(&self, pose: &Pose, t: f32) -> Pose {
        let turn = Quat::from_scaled_axis(self.angular * t);
        Pose::new(
            pose.translation + self.linear * t,
            (turn * pose.rotation).normalize(),
        )
    }
}

/// Where and when a cast's shapes first touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// Time of impact, in `[0, max_time]`.
    pub time: f32,
    /// Unit world normal at the impact, from a to b.
    pub normal: Vec3,
    /// The point of a touching b at `time`, world frame.
    pub point_a: Vec3,
    /// The point of b touching a at `time`, world frame.
    pub point_b: Vec3,
    /// True when the shapes already touched or overlapped at time 0 (`time` is 0, the
    /// normal and points are those of the penetration, from [`collide`]).
    pub initially_touching: bool,
    /// The gap between the shapes at `time`: at most [`CAST_TOLERANCE`] × the smaller
    /// bounding radius (plus four times [`cast_rounding`]) when the cast closed in;
    /// negative (a penetration depth) when they
    /// already overlapped; larger only when a turning cast ran out of
    /// [`MAX_CAST_STEPS`] (its time is then still no later than a contact, but the
    /// shapes may yet miss).
    pub separation: f32,
}

/// The first time in `[0, max_time]` at which shape a, moving with `motion_a` from
/// `pose_a`, touches shape b, moving with `motion_b` from `pose_b`; `Ok(None)` when
/// they stay apart.
///
/// The time is never after the first contact (see the module docs). Shapes that
/// already touch at time 0 give a hit at time 0 with `initially_touching` set.
///
/// # Errors
/// [`QueryError::InvalidPose`], [`QueryError::InvalidMotion`] (a non-finite velocity),
/// [`QueryError::InvalidTime`] (`max_time` negative or not finite),
/// [`QueryError::NotConvex`] (two meshes), [`QueryError::TurningMesh`] (a mesh with an
/// angular velocity).
///
/// Either shape may be a triangle mesh (translating, not turning): the other is cast
/// against each triangle its sweep can reach, two-sided (see the module docs).
#[allow(clippy::too_many_arguments)]
pub fn cast(
    a: &Shape,
    pose_a: &Pose,
    motion_a: &Motion,
    b: &Shape,
    pose_b: &Pose,
    motion_b: &Motion,
    max_time: f32,
) -> Result<Option<CastHit>, QueryError> {
    if !(pose_a.is_valid() && pose_b.is_valid()) {
        return Err(QueryError::InvalidPose);
    }
    if !(motion_a.is_valid() && motion_b.is_valid()) {
        return Err(QueryError::InvalidMotion);
    }
    if !(max_time.is_finite() && max_time >= 0.0) {
        return Err(QueryError::InvalidTime);
    }
    let mirror = |h: CastHit| CastHit {
        normal: -h.normal,
        point_a: h.point_b,
        point_b: h.point_a,
        ..h
    };
    // A mesh computes first (as in every mesh pair query), mirrored for the other order.
    match (a, b) {
        (Shape::TriMesh(_), Shape::TriMesh(_)) => return Err(QueryError::NotConvex),
        (Shape::TriMesh(m), _) => {
            let other = Body::new(b, pose_b, motion_b);
            return cast_mesh((a, m), pose_a, motion_a, &other, max_time);
        }
        (_, Shape::TriMesh(m)) => {
            let other = Body::new(a, pose_a, motion_a);
            return Ok(cast_mesh((b, m), pose_b, motion_b, &other, max_time)?.map(mirror));
        }
        _ => {}
    }
    let (a, b) = (
        Body::new(a, pose_a, motion_a),
        Body::new(b, pose_b, motion_b),
    );
    // Like every pair query: computed in the canonical order, mirrored for the other.
    Ok(if canonical_swap(a.shape, a.pose, b.shape, b.pose) {
        advance(&b, &a, max_time).map(mirror)
    } else {
        advance(&a, &b, max_time)
    })
}

/// The hit for the closest points `found` (a's frame of `pose_a`) at time `t`.
pub(super) fn world_hit(pose_a: &Pose, found: &LocalClosest, t: f64) -> CastHit {
    let q = pose_a.rotation.as_dquat().normalize();
    let to_world = |p: glam::DVec3| (q * p + pose_a.translation.as_dvec3()).as_vec3();
    CastHit {
        time: t as f32,
        normal: (q * found.normal).as_vec3().normalize(),
        point_a: to_world(found.point_a),
        point_b: to_world(found.point_b),
        initially_touching: false,
        separation: found.gap as f32,
    }
}

/// The hit of shapes that touch or overlap at `time` (posed for it): the normal and the
/// deepest points of their manifold (a margin of a hair, for a pair GJK calls touching
/// and the SAT a hair apart); `initially_touching` when `time` is 0.
pub(super) fn touching_at(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    time: f64,
) -> CastHit {
    let hair = (1e-6 * a.bounding_radius().max(b.bounding_radius())).min(f32::MAX);
    let manifold = collide(a, pose_a, b, pose_b, hair, &mut PairCache::default());
    let deepest = manifold.as_ref().and_then(|m| {
        m.points
            .iter()
            .max_by(|p, q| p.depth.total_cmp(&q.depth))
            .map(|p| (m.normal, p.position, p.depth))
    });
    let (normal, position, depth) = deepest.unwrap_or_else(|| {
        let towards = (pose_b.translation - pose_a.translation).normalize_or(Vec3::X);
        (
            towards,
            (pose_a.translation + pose_b.translation) * 0.5,
            0.0,
        )
    });
    CastHit {
        time: time as f32,
        normal,
        point_a: position + normal * (depth * 0.5),
        point_b: position - normal * (depth * 0.5),
        initially_touching: time == 0.0,
        separation: -depth,
    }
}
