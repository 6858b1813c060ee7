//! Shape casts: when do two moving convex shapes first touch?
//!
//! Each shape moves with a constant [`Motion`] (linear velocity, and angular velocity
//! about its pose's origin) from its pose at time 0. [`cast`] finds the time of impact
//! by **conservative advancement**: at time `t` the closest points give the distance
//! `d` and the normal `n` (a → b); no point of b can close on a faster than
//! `u = (v_a − v_b) · n + |ω_a| r_a + |ω_b| r_b` (`r`: the shapes' bounding radii), so
//! they cannot touch before `t + d / u`, and the query advances to it. With no
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
//! closing speed. The distance steps run warm (each starts from the last simplex).
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

use crate::distance::LocalClosest;
use crate::error::QueryError;
use crate::query::canonical_swap;
use crate::{PairCache, collide};
use advance::{Body, advance};
use glam::{Quat, Vec3};
use mesh::cast_mesh;
use sepax_geometry::{Pose, Shape};

/// The largest gap, relative to the shapes' size (the smaller bounding radius), at
/// which a cast counts the shapes as touching and stops.
pub const CAST_TOLERANCE: f32 = 1e-4;

/// Most distance steps a cast takes; a cast that has not closed in by then (a
/// grazing pass with rotation) reports the time it reached as the impact, which is
/// still no later than a real one.
pub const MAX_CAST_STEPS: usize = 128;

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
    /// bounding radius when the cast closed in; negative (a penetration depth) when they
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
