//! The scenes in a [`CollisionWorld`] (feature `world`): the one adapter between the
//! plain data of [`scenes`](crate::scenes) and the pipeline.
//!
//! Body `i` of a scene becomes a [`BodyDesc`] with the body's shape, pose and kind,
//! [`Groups::ALL`], `user_data = i`, and the body's CCD flag.
//!
//! ```
//! use sepax_pipeline::{CollisionWorld, Config};
//! use sepax_testkit::scenes;
//!
//! let scene = scenes::soup(500, 7);
//! let mut world = CollisionWorld::new(Config::default()).unwrap();
//! let handles = scene.populate(&mut world).unwrap();
//! for frame in 0..3 {
//!     scene.apply(&mut world, &handles, frame).unwrap();
//!     world.step();
//! }
//! assert!(!world.report().contacts.is_empty());
//! ```

use crate::scenes::{Scene, SceneKind};
use sepax_pipeline::{
    BodyDesc, BodyHandle, BodyKind, CollisionWorld, Groups, StepReport, WorldError,
};

impl From<SceneKind> for BodyKind {
    fn from(kind: SceneKind) -> BodyKind {
        match kind {
            SceneKind::Static => BodyKind::Static,
            SceneKind::Dynamic => BodyKind::Dynamic,
        }
    }
}

impl Scene {
    /// Body `i` at frame 0 as the world takes it. Panics if `i` is out of range (a
    /// programming error, not user data).
    pub fn body_desc(&self, i: usize) -> BodyDesc {
        let body = &self.bodies[i];
        BodyDesc {
            shape: body.shape.clone(),
            pose: body.pose,
            kind: body.kind.into(),
            groups: Groups::ALL,
            user_data: i as u64,
            ccd: body.ccd,
        }
    }

    /// Inserts every body; the handles come back in scene order.
    pub fn populate(&self, world: &mut CollisionWorld) -> Result<Vec<BodyHandle>, WorldError> {
        (0..self.len())
            .map(|i| world.insert(self.body_desc(i)))
            .collect()
    }

    /// Sets the pose of every moving body for `frame` (as a physics engine would after
    /// its solver), in one [`CollisionWorld::set_poses`] batch. `handles` are the ones
    /// [`populate`](Self::populate) returned (bodies past its end are left alone).
    /// Errors: `StaleHandle` with the first stale handle (the other poses are set).
    pub fn apply(
        &self,
        world: &mut CollisionWorld,
        handles: &[BodyHandle],
        frame: u32,
    ) -> Result<(), WorldError> {
        let poses = self
            .mover_poses(frame)
            .filter_map(|(i, pose)| Some((*handles.get(i)?, pose)));
        match world.set_poses(poses).first_stale {
            None => Ok(()),
            Some(h) => Err(WorldError::StaleHandle(h)),
        }
    }
}

/// The touching pairs `(a, b)` (slot indices, `a < b`, sorted) among `bodies` by brute
/// force, the twin of a step's verdicts: every pair the kind rule allows (not
/// static–static; kinematic only with dynamic) asked of the narrow phase's `contact`
/// at margin 0.
pub fn brute_force_touching(world: &CollisionWorld, bodies: &[BodyHandle]) -> Vec<(u32, u32)> {
    let mut want = Vec::new();
    for (i, &a) in bodies.iter().enumerate() {
        for &b in &bodies[i + 1..] {
            let (ka, kb) = (world.kind(a).unwrap(), world.kind(b).unwrap());
            if !(ka == BodyKind::Dynamic || kb == BodyKind::Dynamic) {
                continue;
            }
            let (sa, sb) = (world.shape(a).unwrap(), world.shape(b).unwrap());
            let (pa, pb) = (world.pose(a).unwrap(), world.pose(b).unwrap());
            if sepax_pipeline::narrowphase::contact(sa, &pa, sb, &pb, 0.0).is_some() {
                let (x, y) = (a.index(), b.index());
                want.push((x.min(y), x.max(y)));
            }
        }
    }
    want.sort_unstable();
    want
}

/// The touching pairs of a step's report, sorted, as [`brute_force_touching`] gives
/// them.
pub fn reported_touching(report: &StepReport) -> Vec<(u32, u32)> {
    let mut got: Vec<(u32, u32)> = report
        .contacts
        .iter()
        .filter(|c| c.touching)
        .map(|c| (c.a.index(), c.b.index()))
        .collect();
    got.sort_unstable();
    got
}

/// The first hit of a ray among `bodies` by brute force, `(t, slot index)`, ties to the
/// lower index: the twin of `CollisionWorld::cast_ray`, one `ray_shape` per body.
pub fn brute_force_ray(
    world: &CollisionWorld,
    bodies: &[BodyHandle],
    origin: glam::Vec3,
    dir: glam::Vec3,
    max_t: f32,
) -> Option<(f32, u32)> {
    let mut best: Option<(f32, u32)> = None;
    for &h in bodies {
        let (shape, pose) = (world.shape(h).unwrap(), world.pose(h).unwrap());
        if let Some(hit) = sepax_pipeline::ray::ray_shape(shape, &pose, origin, dir, max_t)
            && best.is_none_or(|(t, i)| hit.t < t || (hit.t == t && h.index() < i))
        {
            best = Some((hit.t, h.index()));
        }
    }
    best
}

/// The bodies among `bodies` whose world AABB overlaps `region`, in the given order:
/// the twin of `CollisionWorld::query_aabb`.
pub fn brute_force_region(
    world: &CollisionWorld,
    bodies: &[BodyHandle],
    region: &sepax_pipeline::geometry::Aabb,
) -> Vec<BodyHandle> {
    bodies
        .iter()
        .copied()
        .filter(|&h| {
            let (shape, pose) = (world.shape(h).unwrap(), world.pose(h).unwrap());
            shape.aabb(&pose).overlaps(region)
        })
        .collect()
}
