//! The AABB stage's arithmetic: each changed body's world AABB (grown by the margin),
//! or why it has none; boxes four at a time.
//!
//! A box with rotation `R` and half extents `h` spans `|R| h` about its centre on the
//! world axes (`|R|`: `R` with every entry made positive). For boxes the stage runs
//! that product on 4 bodies at once in `Vec4` lanes (lane `k` = body `k`):
//! the rotation matrix from the quaternions, its absolute value, `|R| h`, then
//! `t ∓ |R| h ∓ margin`. Every lane does exactly the operations of the scalar
//! [`Shape::aabb`] (`Mat3::from_quat`, the column sums of `Mat3 * Vec3` added left to
//! right, then [`Aabb::expanded`]) in the same order, and no product is fused into an
//! add, so the bits are the scalar form's (tested below). (A one-body form in 3-wide
//! `Mat3A`/`Vec3A` ran fewer instructions than the scalar one but measured about 60%
//! slower in this stage; the 4-body lanes measured about 30% faster than the scalar
//! one, on the soup scene at 10,000 boxes, one thread.)
//!
//! A CCD body that moved since the last step gets its swept box instead
//! ([`crate::sweep`]), computed last in the task, from the box above.
//!
//! Validation stays per body and scalar: [`Pose::is_valid`] before, [`Aabb::is_valid`]
//! after, with the same verdicts as before.

use crate::prefetch::{prefetch_hull_header, prefetch_range};
use crate::store::{Body, BodyStore};
use crate::sweep::swept_aabb;
use crate::{BodyKind, QuarantineReason};
use glam::{Vec3, Vec4};
use sepax_geometry::{Aabb, Pose, Shape};

/// How many bodies ahead the stage asks for a hull's header, and then for its vertex
/// blocks.
const HULL_HEADER_BODIES: usize = 6;
const HULL_BLOCK_BODIES: usize = 3;

/// A step with few changed bodies is cut into at least this many tasks, so that every
/// thread gets some (a soup of 1,000 boxes was one task of the default 1,024 bodies:
/// one thread).
const MIN_TASKS: usize = 8;

/// No task is cut smaller than this, whatever [`MIN_TASKS`] asks: 100 bodies cut into
/// two tasks of 64 made the large world's step slower (`stress --scene large-world
/// --threads 2`, four alternated runs: 37 → 46 µs; at 256 it stays 37).
const MIN_TASK_BODIES: usize = 256;

/// The task size of a step with `changed` changed bodies: `configured`
/// ([`Config::aabb_chunk`](crate::Config::aabb_chunk)), cut down to
/// `⌈changed / MIN_TASKS⌉` but not below [`MIN_TASK_BODIES`] when the bodies are few.
/// Each body's outcome is its own, whatever task computes it.
pub(crate) fn chunk_bodies(changed: usize, configured: usize) -> usize {
    let finer = changed.div_ceil(MIN_TASKS).max(MIN_TASK_BODIES);
    configured.min(finer).max(1)
}

/// What the AABB stage found for one changed slot.
#[derive(Clone, Copy, Debug)]
pub(crate) enum AabbOutcome {
    /// The slot was emptied since it was marked.
    Vacant,
    Valid(Aabb, BodyKind),
    /// A CCD body's box over its motion in this step (it holds the `Valid` box).
    Swept(Aabb, BodyKind),
    Bad(QuarantineReason),
}

/// Fills `out[k]` with the outcome of slot `slots[k]` (one task of the stage).
pub(crate) fn aabb_outcomes(
    bodies: &BodyStore,
    slots: &[u32],
    margin: f32,
    out: &mut [AabbOutcome],
) {
    let mut lanes = BoxLanes::default();
    let hulls = bodies.any_hulls();
    for (k, &index) in slots.iter().enumerate() {
        if hulls {
            prefetch_hull_blocks(bodies, slots, k);
        }
        let (Some(kind), Some(body)) = (bodies.kind(index), bodies.live(index)) else {
            out[k] = AabbOutcome::Vacant;
            continue;
        };
        let pose = &body.pose;
        if !pose.is_valid() {
            let finite = pose.translation.is_finite() && pose.rotation.is_finite();
            out[k] = AabbOutcome::Bad(if finite {
                QuarantineReason::NonUnitRotation
            } else {
                QuarantineReason::NonFinitePose
            });
            continue;
        }
        match &body.shape {
            Shape::Cuboid(c) => {
                lanes.push(k, kind, body, c.half_extents());
                if lanes.len == 4 {
                    lanes.flush(margin, out);
                }
            }
            shape => out[k] = checked(shape.aabb(pose).expanded(margin), kind),
        }
    }
    lanes.flush(margin, out);
    if bodies.any_ccd() {
        for (k, &index) in slots.iter().enumerate() {
            if let AabbOutcome::Valid(end, kind) = out[k] {
                out[k] = sweep(bodies, index, end, kind, margin);
            }
        }
    }
}

/// Asks for the hull data of the slots ahead of `slots[k]`: a hull's vertex blocks sit
/// behind two pointers (the body's shape, the hull's arrays), so its header a few
/// bodies ahead, its blocks once the header is in (see `prefetch`). Measured on
/// `stress --scene hulls --bodies 2000 --frames 300`, eight runs alternated with the
/// build without it: the stage's median 0.83 → 0.36 ms on one thread, 0.40 → 0.21 ms
/// on two (six more runs on two: 0.42 → 0.24 ms).
#[inline(always)]
fn prefetch_hull_blocks(bodies: &BodyStore, slots: &[u32], k: usize) {
    let hull_at = |ahead: usize| match slots.get(k + ahead).and_then(|&i| bodies.live(i)) {
        Some(Body {
            shape: Shape::ConvexHull(hull),
            ..
        }) => Some(hull),
        _ => None,
    };
    if let Some(hull) = hull_at(HULL_HEADER_BODIES) {
        prefetch_hull_header(hull);
    }
    if let Some(hull) = hull_at(HULL_BLOCK_BODIES) {
        let blocks = hull.vertex_blocks();
        prefetch_range(blocks.as_ptr().cast(), size_of_val(blocks), 8);
    }
}

/// The outcome of a body whose end box `end` is valid: `Swept` for a moving CCD body
/// whose last step's pose is known and differs, else `Valid` (also when the swept box
/// would overflow).
fn sweep(bodies: &BodyStore, index: u32, end: Aabb, kind: BodyKind, margin: f32) -> AabbOutcome {
    let valid = AabbOutcome::Valid(end, kind);
    let (true, false, Some(from), Some(body)) = (
        bodies.ccd(index),
        kind == BodyKind::Static,
        bodies.from(index),
        bodies.live(index),
    ) else {
        return valid;
    };
    if from == body.pose {
        return valid;
    }
    match swept_aabb(&body.shape, body.radius, &from, &body.pose, &end, margin) {
        Some(swept) => AabbOutcome::Swept(swept, kind),
        None => valid,
    }
}

/// `Valid` when the box is finite (a huge translation may overflow), else `Bad`.
fn checked(aabb: Aabb, kind: BodyKind) -> AabbOutcome {
    if aabb.is_valid() {
        AabbOutcome::Valid(aabb, kind)
    } else {
        AabbOutcome::Bad(QuarantineReason::NonFiniteAabb)
    }
}

/// Up to 4 valid boxes waiting for [`box_aabbs`].
struct BoxLanes {
    len: usize,
    /// Where each lane's outcome goes, and its body's kind.
    at: [(usize, Option<BodyKind>); 4],
    poses: [Pose; 4],
    half_extents: [Vec3; 4],
}

impl Default for BoxLanes {
    fn default() -> BoxLanes {
        BoxLanes {
            len: 0,
            at: [(0, None); 4],
            poses: [Pose::IDENTITY; 4],
            half_extents: [Vec3::ONE; 4],
        }
    }
}

impl BoxLanes {
    fn push(&mut self, at: usize, kind: BodyKind, body: &Body, half_extents: Vec3) {
        self.at[self.len] = (at, Some(kind));
        self.poses[self.len] = body.pose;
        self.half_extents[self.len] = half_extents;
        self.len += 1;
    }

    /// Computes the waiting lanes (unused lanes hold the last ones' inputs or the
    /// identity) and writes their outcomes.
    fn flush(&mut self, margin: f32, out: &mut [AabbOutcome]) {
        if self.len == 0 {
            return;
        }
        let (aabbs, valid) = box_aabbs(&self.poses, &self.half_extents, margin);
        for (k, &(at, kind)) in self.at[..self.len].iter().enumerate() {
            if let Some(kind) = kind {
                out[at] = if valid[k] {
                    AabbOutcome::Valid(aabbs[k], kind)
                } else {
                    AabbOutcome::Bad(QuarantineReason::NonFiniteAabb)
                };
            }
        }
        self.len = 0;
    }
}

/// `f(0..4)` in 4 lanes.
#[inline(always)]
fn lanes(f: impl Fn(usize) -> f32) -> Vec4 {
    Vec4::new(f(0), f(1), f(2), f(3))
}

/// The world AABBs of 4 boxes (pose, half extents), grown by `margin`: bit for bit
/// `Shape::Cuboid(..).aabb(pose).expanded(margin)` per lane (see the module docs),
/// and per lane that box's [`Aabb::is_valid`] (finite, `min <= max`), tested in the
/// lanes.
fn box_aabbs(poses: &[Pose; 4], half_extents: &[Vec3; 4], margin: f32) -> ([Aabb; 4], [bool; 4]) {
    let (x, y) = (
        lanes(|k| poses[k].rotation.x),
        lanes(|k| poses[k].rotation.y),
    );
    let (z, w) = (
        lanes(|k| poses[k].rotation.z),
        lanes(|k| poses[k].rotation.w),
    );
    // Mat3::from_quat, term by term.
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, xy, xz) = (x * x2, x * y2, x * z2);
    let (yy, yz, zz) = (y * y2, y * z2, z * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    let one = Vec4::ONE;
    // Columns (x_axis, y_axis, z_axis), entry r of each, made positive.
    let x_axis = [(one - (yy + zz)).abs(), (xy + wz).abs(), (xz - wy).abs()];
    let y_axis = [(xy - wz).abs(), (one - (xx + zz)).abs(), (yz + wx).abs()];
    let z_axis = [(xz + wy).abs(), (yz - wx).abs(), (one - (xx + yy)).abs()];
    let (hx, hy) = (lanes(|k| half_extents[k].x), lanes(|k| half_extents[k].y));
    let hz = lanes(|k| half_extents[k].z);
    // |R| h as Mat3 * Vec3 sums it: x_axis * h.x, + y_axis * h.y, + z_axis * h.z.
    let reach: [Vec4; 3] =
        std::array::from_fn(|r| x_axis[r] * hx + y_axis[r] * hy + z_axis[r] * hz);
    let t = [
        lanes(|k| poses[k].translation.x),
        lanes(|k| poses[k].translation.y),
        lanes(|k| poses[k].translation.z),
    ];
    let m = Vec4::splat(margin);
    let lo: [Vec4; 3] = std::array::from_fn(|r| (t[r] - reach[r]) - m);
    let hi: [Vec4; 3] = std::array::from_fn(|r| (t[r] + reach[r]) + m);
    let ok = |r: usize| lo[r].is_finite_mask() & hi[r].is_finite_mask() & !lo[r].cmpgt(hi[r]);
    let valid = (ok(0) & ok(1) & ok(2)).bitmask();
    let (min, max) = (lo.map(|v| v.to_array()), hi.map(|v| v.to_array()));
    let aabbs = std::array::from_fn(|k| {
        Aabb::new(
            Vec3::new(min[0][k], min[1][k], min[2][k]),
            Vec3::new(max[0][k], max[1][k], max[2][k]),
        )
    });
    (aabbs, std::array::from_fn(|k| valid & (1 << k) != 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;
    use sepax_geometry::Cuboid;

    /// Few changed bodies are cut into 8 tasks of at least 256; many go in tasks of the
    /// configured size; no task is empty or larger than configured.
    #[test]
    fn few_bodies_are_cut_for_every_thread() {
        assert_eq!(chunk_bodies(1_000, 1024), 256);
        assert_eq!(chunk_bodies(4_000, 1024), 500);
        assert_eq!(chunk_bodies(10_000, 1024), 1024);
        assert_eq!(chunk_bodies(100, 1024), 256);
        assert_eq!(chunk_bodies(0, 1024), 256);
        assert_eq!(chunk_bodies(1_000, 1), 1);
        assert_eq!(chunk_bodies(1_000, 0), 1);
    }

    /// The 4-lane box AABBs equal the scalar `Shape::aabb(..).expanded(..)` bit for bit,
    /// with the same validity verdict, on random rotations (normalised and slightly off
    /// unit length), translations up to f32::MAX and half extents from 1e-30 to 1e38
    /// (some boxes overflow to infinity), margins 0 and 0.05.
    #[test]
    fn box_lanes_match_the_scalar_aabb_bitwise() {
        let mut seed = 0x2545_f491_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let bits = |a: &Aabb| {
            (
                a.min.to_array().map(f32::to_bits),
                a.max.to_array().map(f32::to_bits),
            )
        };
        let mut invalid = 0;
        for round in 0..5_000 {
            let scale = [1.0, 1e-30, 1e6, 3.0, 1e38][round % 5];
            let far = [0.0, 1.0, 1e4, 1e30, f32::MAX][(round / 5) % 5];
            let margin = [0.0, 0.05][round % 2];
            let mut poses = [Pose::IDENTITY; 4];
            let mut half = [Vec3::ONE; 4];
            for k in 0..4 {
                let q = Quat::from_xyzw(next() - 0.5, next() - 0.5, next() - 0.5, next() - 0.5);
                let q = if round % 3 == 0 {
                    q * 1.0004
                } else {
                    q.normalize()
                };
                let t = (Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 2.0) * far;
                poses[k] = Pose::new(t, q);
                half[k] = Vec3::new(next() + 1e-3, next() + 1e-3, next() + 1e-3) * scale;
            }
            let (wide, valid) = box_aabbs(&poses, &half, margin);
            for k in 0..4 {
                let shape = Shape::Cuboid(Cuboid::try_from_half_extents(half[k]).unwrap());
                let scalar = shape.aabb(&poses[k]).expanded(margin);
                assert_eq!(bits(&wide[k]), bits(&scalar), "round {round} lane {k}");
                assert_eq!(valid[k], scalar.is_valid(), "round {round} lane {k}");
                invalid += usize::from(!valid[k]);
            }
        }
        assert!(invalid > 100, "some boxes must overflow: {invalid}");
    }
}
