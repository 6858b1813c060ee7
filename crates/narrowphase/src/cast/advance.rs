//! Conservative advancement (see the [module docs](super)).

#[cfg(doc)]
use super::cast_rounding;
use super::{
    CAST_TOLERANCE, CastHit, MAX_CAST_STEPS, Motion, core_reach, pose_rounding, rounding_drift,
    touching_at, world_hit,
};
use crate::PairCache;
use crate::distance::{Core, Frame64, LocalClosest, local_closest, pair_scale, reach};
use glam::{DVec3, Vec3};
use sepax_geometry::{Pose, Shape};

/// One moving shape: the shape, its core and radius, its start pose and motion.
pub(super) struct Body<'s> {
    pub shape: &'s Shape,
    pub pose: &'s Pose,
    pub motion: &'s Motion,
    core: Core<'s>,
    radius: f32,
    /// How far its furthest point lies from its origin (f64: finite for any shape).
    reach: f64,
    /// How far its core's furthest point lies from its origin: the reach less the
    /// radius swept about the core (a sphere's core is its centre, a capsule's its
    /// segment), the part a rotation moves.
    core_reach: f64,
}

impl<'s> Body<'s> {
    /// A checked convex shape (meshes are refused before).
    pub fn new(shape: &'s Shape, pose: &'s Pose, motion: &'s Motion) -> Body<'s> {
        let (core, radius) = Core::of(shape).expect("meshes are refused before");
        Body {
            shape,
            pose,
            motion,
            core,
            radius,
            reach: reach(shape),
            core_reach: core_reach(shape),
        }
    }

    /// Triangle `corners` (mesh-local) of the mesh `shape`, moving with the mesh.
    pub fn triangle(
        shape: &'s Shape,
        corners: [Vec3; 3],
        pose: &'s Pose,
        motion: &'s Motion,
    ) -> Body<'s> {
        let triangle_reach = corners
            .iter()
            .map(|c| c.as_dvec3().length())
            .fold(0.0, f64::max);
        Body {
            shape,
            pose,
            motion,
            core: Core::Triangle(corners),
            radius: 0.0,
            reach: triangle_reach,
            core_reach: triangle_reach,
        }
    }

    /// How far its furthest point lies from its origin.
    pub fn reach(&self) -> f64 {
        self.reach
    }

    /// Whether its rotation moves any point (`|ω| × reach > 0`): else it only
    /// translates.
    fn turns(&self) -> bool {
        self.motion.angular.length() as f64 * self.reach > 0.0
    }

    /// Fastest the shape's support along the fixed world direction `n` (unit) can move
    /// because of the rotation: a core point `x` (about the origin) moves along `n` at
    /// `(ω × x)·n = x·(n × ω)`, at most `|n × ω|` times the core's reach; the ball swept
    /// about the core turns into itself. (A sphere's rotation moves nothing; a shape
    /// turning about `n` slides along itself.)
    fn turning_along(&self, n: DVec3) -> f64 {
        n.cross(self.motion.angular.as_dvec3()).length() * self.core_reach
    }

    /// A bound on how far the f32 rounding of the pose [`Motion::pose_at`] builds for
    /// any time up to `t` (the time itself rounded to f32 too) moves a point of the
    /// shape's core from the exact motion (see [`cast_rounding`]): `2ε` of the largest
    /// translation reached (each coordinate rounded twice, `|p + v t|` and `v t`) and
    /// `4ε` of the core's reach for the rotation (a unit quaternion rounded to f32 turns
    /// by a few ε).
    fn rounding(&self, t: f64) -> f64 {
        pose_rounding(self.pose, self.motion, self.core_reach, t)
    }

    fn pose_at(&self, t: f64) -> Pose {
        self.motion.pose_at(self.pose, t as f32)
    }
}

/// Conservative advancement in the given order (checked input).
///
/// At time `t` with gap `d > 0` along the unit normal `n` (a → b, world), every point
/// of b projects on the fixed `n` at least `d` beyond every point of a. That lead
/// shrinks no faster than `u = (v_a − v_b) · n + |n × ω_a| R_a + |n × ω_b| R_b` (`R`: the
/// cores' reaches, see [`Body::turning_along`]), so the shapes stay apart until
/// `t + d / u`; the cast advances to `t + (d − τ/2 − 2δ) / (u + δ')` (τ the tolerance,
/// δ the poses' rounding at time `t` and δ' its growth a unit of time, see
/// [`cast_rounding`]: it lands just short of touching at the poses a caller builds for
/// that time, which are off the exact motion by up to their own δ) and stops once
/// `d ≤ τ + 4δ`. `u ≤ 0` proves they never close along `n`: no hit. So does an advance
/// past `max_time`.
///
/// Without rotation, b only translates in a's frame: the relative frame is computed
/// once and each step moves b's origin by `t r` (`r`, b's velocity relative to a's, in
/// a's frame), and `u = −r · n` exactly.
#[allow(clippy::too_many_arguments)]
pub(super) fn advance(ma: &Body, mb: &Body, max_time: f32) -> Option<CastHit> {
    let (a, b) = (ma.shape, mb.shape);
    let (motion_a, motion_b) = (ma.motion, mb.motion);
    let base = CAST_TOLERANCE as f64 * ma.reach.min(mb.reach);
    // The poses' rounding δ at time t, and the tolerance and how far short of touching
    // a step aims there; δ grows by `drift` a unit of time as the translations do.
    let rounding = |t: f64| ma.rounding(t) + mb.rounding(t);
    let tolerance = |t: f64| base + 4.0 * rounding(t);
    let short = |t: f64| 0.5 * tolerance(t);
    let drift = rounding_drift(motion_a) + rounding_drift(motion_b);
    let turning = ma.turns() || mb.turns();
    let start = Frame64::new(ma.pose, mb.pose);
    let qa = ma.pose.rotation.as_dquat().normalize();
    let relative = qa.conjugate() * (motion_b.linear - motion_a.linear).as_dvec3();
    let mut cache = PairCache::default();
    // Nothing can touch before the bounding spheres do.
    let mut t = spheres_meet(ma, mb, max_time as f64, short(max_time as f64))?;
    // The last closest points found, and their time.
    let mut last: Option<(LocalClosest, f64)> = None;
    for _ in 0..MAX_CAST_STEPS {
        let frame = match turning {
            true => Frame64::new(&ma.pose_at(t), &mb.pose_at(t)),
            false => Frame64 {
                trans: start.trans + relative * t,
                ..start
            },
        };
        let scale = pair_scale(a, b, &frame);
        let found = local_closest(
            &ma.core, ma.radius, &mb.core, mb.radius, &frame, &mut cache, scale,
        );
        let Some(found) = found else {
            // Touching: at the start, or by round-off past a contact the last step was
            // within a hair of.
            return Some(match last {
                Some((closest, _)) if t > 0.0 => touching(world_hit(&ma.pose_at(t), &closest, t)),
                _ => touching_at(a, &ma.pose_at(t), b, &mb.pose_at(t), t),
            });
        };
        let found = match found.gap <= tolerance(t) {
            // Confirmed at the poses a caller builds for time t (f32, rounded).
            true if !turning => {
                let (pa, pb) = (ma.pose_at(t), mb.pose_at(t));
                let frame = Frame64::new(&pa, &pb);
                let scale = pair_scale(a, b, &frame);
                let exact = local_closest(
                    &ma.core, ma.radius, &mb.core, mb.radius, &frame, &mut cache, scale,
                );
                match exact {
                    None => return Some(touching(world_hit(&pa, &found, t))),
                    Some(exact) if exact.gap <= tolerance(t) => {
                        return Some(world_hit(&pa, &exact, t));
                    }
                    Some(exact) => exact,
                }
            }
            true => return Some(world_hit(&ma.pose_at(t), &found, t)),
            false => found,
        };
        // `n` is in a's frame at time t: a's rotation then, for the world velocities.
        let closing = match turning {
            true => {
                let q = ma.pose_at(t).rotation.as_dquat().normalize();
                let n = q * found.normal;
                (motion_a.linear - motion_b.linear).as_dvec3().dot(n)
                    + ma.turning_along(n)
                    + mb.turning_along(n)
            }
            false => -relative.dot(found.normal),
        };
        last = Some((found, t));
        if closing <= 0.0 {
            return None;
        }
        // Short of touching at the rounded poses of both ends: the lead shrinks by
        // `closing · dt` and the rounding at the far end is `drift · dt` larger.
        t += (found.gap - short(t)) / (closing + drift);
        if t > max_time as f64 {
            return None;
        }
    }
    // Out of steps (a grazing, turning pass): the last time measured is still no
    // later than a real contact; its separation says how far apart they were.
    last.map(|(closest, at)| world_hit(&ma.pose_at(at), &closest, at))
}

/// A hit found touching (GJK's gap below its threshold): separation 0.
fn touching(hit: CastHit) -> CastHit {
    CastHit {
        separation: 0.0,
        ..hit
    }
}

/// The first time in `[0, max_time]` at which the shapes' bounding spheres (about
/// their origins, radius the reach, which no rotation changes) come within `gap`: the
/// least root of `|p + t v| = R` with `p`, `v` the offset and relative velocity of the
/// origins, `R` the sum of the reaches and `gap`; 0 when they are already that close;
/// `None` when they never are in time (the shapes cannot touch either).
fn spheres_meet(a: &Body, b: &Body, max_time: f64, gap: f64) -> Option<f64> {
    let p = b.pose.translation.as_dvec3() - a.pose.translation.as_dvec3();
    let v = (b.motion.linear - a.motion.linear).as_dvec3();
    let reach = a.reach + b.reach + gap;
    let c = p.length_squared() - reach * reach;
    if c <= 0.0 {
        return Some(0.0);
    }
    // |p + t v|² = R²: t² |v|² + 2 t p·v + c = 0; approaching needs p·v < 0.
    let (vv, pv) = (v.length_squared(), p.dot(v));
    let discriminant = pv * pv - vv * c;
    if pv >= 0.0 || discriminant < 0.0 {
        return None;
    }
    // The smaller root, in the form that does not cancel: c / (−p·v + √disc).
    let t = c / (-pv + discriminant.sqrt());
    (t <= max_time).then_some(t)
}
