//! Continuous collision detection: the time of impact of every pair a fast body
//! passes through within a step, [`CcdHit`].
//!
//! A body with the CCD flag ([`BodyDesc::ccd`](crate::BodyDesc::ccd),
//! [`CollisionWorld::set_ccd`](crate::CollisionWorld::set_ccd)) moves, in a step, from
//! the pose it had at the last step to its new pose along [`Motion::between`] (a
//! straight path of its origin and a turn at a constant rate, times 0 to 1). Two
//! things follow:
//!
//! 1. **Its broad-phase box holds the whole sweep** (see [`crate::sweep`]), so every
//!    body it passes through during the step is a candidate pair, not only the ones
//!    its end box overlaps.
//! 2. **After the contacts are known** (this pass, after the event stage), every
//!    candidate pair with a CCD body that the groups allow and that is *not* touching
//!    at the end poses is cast ([`cast`](fn@sepax_narrowphase::cast)): both bodies
//!    from their poses at the last step along their motions (a static body, a body
//!    that did not move, and a body whose last pose is not known stand still at their
//!    pose), up to time 1. A hit is a [`CcdHit`]: when, where and along which normal
//!    the two first touch.
//!
//! A pair that touches at the end poses is reported by the contacts as without CCD
//! (its manifold, a `Started` event if new), never as a hit; a pair that only comes
//! within the margin (speculative contact) is cast too. A pair that touches at the
//! start of the step and moves apart is no hit (its contact ends with the usual
//! event); one that touches at the start and closes further in (a body pushed through
//! a wall from contact) is a hit at time 0.
//!
//! **Order and determinism.** The pass runs in parallel over the narrow phase's
//! chunks of pairs and joins their hits in chunk order, so the hits come sorted by
//! `(a.index(), b.index())` like the contacts, bit-identical for any thread count
//! (`cast` is a pure function of the pair's inputs).
//!
//! **Triangle meshes.** A CCD body passing through a static mesh is cast against the
//! triangles its sweep can reach (two-sided, see
//! [`cast`](fn@sepax_narrowphase::cast)): a bullet through a level's thin wall is a
//! hit like through a box. [`StepReport::ccd_skipped`](crate::StepReport::ccd_skipped)
//! counts any cast that refused its input (none should: poses here are valid, motions
//! finite, meshes static); nothing panics.

use crate::pairs::PairState;
use crate::store::{Body, BodyStore};
use crate::{BodyHandle, BodyKind};
use glam::Vec3;
use rayon::prelude::*;
use sepax_geometry::Pose;
use sepax_narrowphase::{CastHit, Motion, cast};

/// The first touch, within a step, of a pair with a CCD body that does not touch at
/// the end of the step (see [`CollisionWorld::set_ccd`](crate::CollisionWorld::set_ccd)).
///
/// `a.index() < b.index()`, like a contact; the normal points **from a to b**. Times
/// are fractions of the step: the bodies are at their last step's poses at 0 and at
/// their current poses at 1, and between them on the straight motion
/// [`Motion::between`]. The time is **never after** the first contact: a
/// conservative-advancement cast stops when the shapes are within
/// [`CAST_TOLERANCE`](sepax_narrowphase::CAST_TOLERANCE) of their size apart.
///
/// ```
/// use sepax_pipeline::{BodyDesc, CollisionWorld, Config};
/// use sepax_pipeline::geometry::{Cuboid, Pose};
/// use glam::Vec3;
///
/// let mut world = CollisionWorld::new(Config::default()).unwrap();
/// let wall = Cuboid::try_from_half_extents(Vec3::new(0.05, 2.0, 2.0)).unwrap();
/// let wall = world.insert(BodyDesc::fixed(wall, Pose::IDENTITY)).unwrap();
/// let cube = Cuboid::try_from_half_extents(Vec3::splat(0.1)).unwrap();
/// let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0));
/// let bullet = world.insert(BodyDesc { ccd: true, ..BodyDesc::dynamic(cube, at(-3.0)) }).unwrap();
/// world.step();
/// // 6 m in one step, through the wall: no contact at either end, one hit.
/// world.set_pose(bullet, at(3.0)).unwrap();
/// let report = world.step();
/// assert!(report.contacts.is_empty());
/// let hit = &report.ccd_hits[0];
/// assert_eq!((hit.a, hit.b), (wall, bullet));
/// // The bullet's face (x + 0.1) meets the wall's (x = -0.05) at x = -0.15: 2.85 of 6 m.
/// assert!((hit.time - 2.85 / 6.0).abs() < 1e-4);
/// assert!((hit.normal + Vec3::X).length() < 1e-4); // wall → bullet: back along -x
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CcdHit {
    /// The body with the smaller slot index.
    pub a: BodyHandle,
    /// The other body.
    pub b: BodyHandle,
    /// Time of impact within the step, in `[0, 1]`.
    pub time: f32,
    /// Unit world normal at the impact, from a to b.
    pub normal: Vec3,
    /// The point of a touching b at `time`, world frame.
    pub point_a: Vec3,
    /// The point of b touching a at `time`, world frame.
    pub point_b: Vec3,
}

/// What the CCD pass reads besides the pair states.
pub(crate) struct CcdContext<'w> {
    pub bodies: &'w BodyStore,
    pub now: u64,
}

impl CcdContext<'_> {
    /// Where slot `index` starts the step and how it moves: from its last step's pose
    /// along [`Motion::between`] when it moved this step and that pose is known, else
    /// standing still at its pose (static bodies always).
    fn start(&self, index: u32, body: &Body) -> (Pose, Motion) {
        let store = self.bodies;
        let still = (body.pose, Motion::ZERO);
        if store.kind(index) == Some(BodyKind::Static) || !store.changed_in_step(index, self.now) {
            return still;
        }
        match store.from(index) {
            Some(from) => (from, Motion::between(&from, &body.pose)),
            None => still,
        }
    }

    /// The hit of one pair, if it needs a cast and has one; `Err` when the pair is
    /// skipped (a mesh, or a refused cast).
    fn pair(&self, st: &PairState) -> Result<Option<CcdHit>, ()> {
        let store = self.bodies;
        let (ia, ib) = (st.a.index(), st.b.index());
        if st.filtered || st.was_touching || !(store.ccd(ia) || store.ccd(ib)) {
            return Ok(None);
        }
        let (Some(a), Some(b)) = (store.live(ia), store.live(ib)) else {
            return Ok(None);
        };
        let ((pose_a, motion_a), (pose_b, motion_b)) = (self.start(ia, a), self.start(ib, b));
        if motion_a == Motion::ZERO && motion_b == Motion::ZERO {
            // Nothing moved: the end poses are the start poses, and they do not touch.
            return Ok(None);
        }
        if spheres_stay_apart(
            (&pose_a, &motion_a, a.radius),
            (&pose_b, &motion_b, b.radius),
        ) {
            return Ok(None);
        }
        let hit = cast(
            &a.shape, &pose_a, &motion_a, &b.shape, &pose_b, &motion_b, 1.0,
        )
        .map_err(|_| ())?;
        Ok(hit
            .filter(|h| {
                !h.initially_touching || closing(h, (&pose_a, &motion_a), (&pose_b, &motion_b))
            })
            .map(|h| CcdHit {
                a: st.a,
                b: st.b,
                time: h.time,
                normal: h.normal,
                point_a: h.point_a,
                point_b: h.point_b,
            }))
    }
}

/// True when the two bodies' bounding spheres stay apart over the whole step, so no
/// cast can hit (most pairs of two fast bodies whose swept boxes cross).
///
/// Each shape lies within its bounding radius `r` of its origin at every time, and
/// the origins move on straight lines ([`Motion::pose_at`]), so their offset is
/// `d(t) = d0 + t·dv`, smallest at `t* = clamp(−d0·dv / |dv|², 0, 1)`. In f64; the
/// sum of the radii is grown by 2e-4 of itself (twice the cast's relative stopping
/// gap, [`CAST_TOLERANCE`](sepax_narrowphase::CAST_TOLERANCE), so a cast that would
/// stop short of a touch is never skipped) plus the f32 round-off of the positions.
fn spheres_stay_apart(
    (pose_a, a, ra): (&Pose, &Motion, f32),
    (pose_b, b, rb): (&Pose, &Motion, f32),
) -> bool {
    let d0 = pose_b.translation.as_dvec3() - pose_a.translation.as_dvec3();
    let dv = b.linear.as_dvec3() - a.linear.as_dvec3();
    let speed = dv.length_squared();
    let t = if speed > 0.0 {
        (-d0.dot(dv) / speed).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let far = pose_a
        .translation
        .abs()
        .max(pose_b.translation.abs())
        .max_element() as f64
        + (a.linear.abs().max(b.linear.abs()).max_element() as f64);
    let reach = (ra as f64 + rb as f64) * (1.0 + 2e-4) + 8.0 * f32::EPSILON as f64 * far;
    (d0 + dv * t).length() > reach
}

/// True when, at a time-0 hit, b's contact point moves towards a's along the normal:
/// `(v_b(p_b) − v_a(p_a)) · n < 0`, with `v(p) = linear + angular × (p − origin)`.
fn closing(hit: &CastHit, (pose_a, a): (&Pose, &Motion), (pose_b, b): (&Pose, &Motion)) -> bool {
    let velocity =
        |pose: &Pose, m: &Motion, p: Vec3| m.linear + m.angular.cross(p - pose.translation);
    let relative = velocity(pose_b, b, hit.point_b) - velocity(pose_a, a, hit.point_a);
    relative.dot(hit.normal) < 0.0
}

/// The CCD pass over this step's pair states (see the [module docs](self)), in
/// parallel over chunks of `chunk` pairs (one after the other without `parallel`):
/// fills `hits` in key order and returns the number of pairs skipped.
#[inline(never)] // a stage of its own in profiles
pub(crate) fn ccd_hits(
    states: &[PairState],
    (chunk, parallel): (usize, bool),
    context: &CcdContext,
    hits: &mut Vec<CcdHit>,
) -> usize {
    hits.clear();
    let work = |states: &[PairState]| {
        let (mut found, mut skipped) = (Vec::new(), 0);
        for st in states {
            match context.pair(st) {
                Ok(Some(hit)) => found.push(hit),
                Ok(None) => {}
                Err(()) => skipped += 1,
            }
        }
        (found, skipped)
    };
    let per_chunk: Vec<(Vec<CcdHit>, usize)> = if parallel {
        states.par_chunks(chunk).map(work).collect()
    } else {
        states.chunks(chunk).map(work).collect()
    };
    let mut skipped = 0;
    for (found, s) in per_chunk {
        hits.extend(found);
        skipped += s;
    }
    skipped
}
