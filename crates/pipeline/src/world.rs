//! [`CollisionWorld`]: body storage behind generational handles, and the getters and
//! setters a physics engine calls between steps.

use crate::awake::{Crew, install_awake, wake_ahead};
use crate::step::{PairTracker, StepFrame};
use crate::store::{Body, BodyStore};
use crate::{BodyDesc, BodyHandle, BodyKind, Config, Groups, PoseBatch, StepReport, WorldError};
use sepax_broadphase::{ProxyId, SweepAndPrune};
use sepax_geometry::{Aabb, Pose, Shape};
use std::sync::atomic::{AtomicU32, Ordering};

/// The identity of the next world: each world stamps its own on its handles, so a
/// handle from another world is refused (wrapping after 2³² worlds).
static NEXT_WORLD_ID: AtomicU32 = AtomicU32::new(0);

/// A set of bodies that is stepped as a whole: broad phase, narrow phase, events.
///
/// Bodies are inserted from a [`BodyDesc`] and named by a [`BodyHandle`]; every call
/// that takes a handle answers [`WorldError::StaleHandle`] for a removed or foreign
/// handle instead of panicking. Poses and shapes change between steps through
/// [`set_pose`](Self::set_pose) / [`set_shape`](Self::set_shape); only changed bodies
/// get a new AABB at the next [`step`](Self::step).
///
/// ```
/// use sepax_pipeline::{BodyDesc, CollisionWorld, Config};
/// use sepax_pipeline::geometry::{Cuboid, Pose};
/// use glam::Vec3;
///
/// let mut world = CollisionWorld::new(Config::default()).unwrap();
/// let cube = Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap();
/// let a = world.insert(BodyDesc::dynamic(cube, Pose::IDENTITY)).unwrap();
/// let b = world.insert(BodyDesc::dynamic(cube, Pose::from_translation(Vec3::X * 0.9))).unwrap();
/// let report = world.step();
/// assert_eq!(report.contacts.len(), 1);
/// assert_eq!((report.contacts[0].a, report.contacts[0].b), (a, b));
/// world.remove(b).unwrap();
/// assert!(world.pose(b).is_err()); // stale handle
/// ```
pub struct CollisionWorld {
    /// This world's identity, stamped on every handle it issues.
    id: u32,
    config: Config,
    /// The world's own rayon pool; `None` for one thread: its steps run on the
    /// caller's thread, with no pool to hand them to.
    pool: Option<rayon::ThreadPool>,
    /// Every body, once (see [`BodyStore`]).
    bodies: BodyStore,
    /// The broad phase, keyed by slot index: a body is in it from its first valid
    /// step until it is removed or quarantined, and it holds the body's AABB.
    broad: SweepAndPrune,
    /// Pair states of the last step, one per broad-phase pair and in the same order.
    pairs: PairTracker,
    report: StepReport,
    /// Helpers woken for the step to come: the own pool's by `set_pose` / `set_poses`,
    /// or a caller's pool's by [`wake_ahead_in`](Self::wake_ahead_in).
    crew: Option<Crew>,
    /// Which pool `crew` serves: `None` the own pool, else the address of the caller's
    /// pool it was woken in (compared only, never followed).
    crew_pool: Option<usize>,
}

impl std::fmt::Debug for CollisionWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CollisionWorld")
            .field("id", &self.id)
            .field("config", &self.config)
            .field("bodies", &self.bodies.len())
            .field("pairs", &self.broad.pairs().len())
            .finish_non_exhaustive()
    }
}

impl CollisionWorld {
    /// An empty world with its own rayon pool of `config.threads` threads (0: one per
    /// core), and a fresh world identity (handles of other worlds are stale here). With
    /// one thread there is no pool: no thread is spawned, and every step runs on the
    /// thread that calls it.
    ///
    /// Extreme values (see [`Config`]): `threads` above [`Config::MAX_THREADS`] gives
    /// [`WorldError::TooManyThreads`]; a NaN or infinite `margin` gives
    /// [`WorldError::NonFiniteMargin`]; a negative margin counts as 0, zero chunk sizes
    /// as 1; every `pair_budget` is accepted. Errors: [`WorldError::ThreadPool`] when
    /// the pool cannot be built.
    pub fn new(config: Config) -> Result<CollisionWorld, WorldError> {
        if config.threads > Config::MAX_THREADS {
            return Err(WorldError::TooManyThreads(config.threads));
        }
        if !config.margin.is_finite() {
            return Err(WorldError::NonFiniteMargin);
        }
        let pool = match config.threads {
            1 => None,
            threads => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| WorldError::ThreadPool(e.to_string()))?,
            ),
        };
        // A pool that came out with one thread (0 on a one-core machine) is no pool.
        let pool = pool.filter(|pool| pool.current_num_threads() > 1);
        let config = Config {
            margin: config.margin.max(0.0),
            narrow_chunk: config.narrow_chunk.max(1),
            aabb_chunk: config.aabb_chunk.max(1),
            ..config
        };
        let mut broad = SweepAndPrune::new();
        broad.set_pair_budget(config.pair_budget);
        Ok(CollisionWorld {
            id: NEXT_WORLD_ID.fetch_add(1, Ordering::Relaxed),
            config,
            pool,
            bodies: BodyStore::default(),
            broad,
            pairs: PairTracker::default(),
            report: StepReport::default(),
            crew: None,
            crew_pool: None,
        })
    }

    /// The configuration (margin sanitised, chunks at least 1).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Threads of the world's pool (1: no pool, the steps run on the caller's thread).
    pub fn threads(&self) -> usize {
        self.pool
            .as_ref()
            .map_or(1, rayon::ThreadPool::current_num_threads)
    }

    /// Adds a body; it takes part from the next step on. Any pose is accepted: a bad one
    /// is quarantined at each step until fixed. Errors: `TooManyBodies`;
    /// `MeshNotStatic` for a triangle mesh on a dynamic or kinematic body.
    pub fn insert(&mut self, desc: BodyDesc) -> Result<BodyHandle, WorldError> {
        if matches!(desc.shape, Shape::TriMesh(_)) && desc.kind != BodyKind::Static {
            return Err(WorldError::MeshNotStatic);
        }
        let (index, generation) = self.bodies.insert(desc)?;
        Ok(BodyHandle::new(index, generation, self.id))
    }

    /// Removes a body. Its touching pairs get an `Ended(Removed)` event at the next
    /// step; the handle is stale at once. Errors: `StaleHandle`.
    pub fn remove(&mut self, handle: BodyHandle) -> Result<(), WorldError> {
        self.body(handle)?;
        self.bodies.remove(handle.index());
        // Absent when the body never had a valid step or is quarantined.
        let _ = self.broad.remove(ProxyId(handle.index()));
        Ok(())
    }

    /// Number of live bodies.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// True when no body is alive.
    pub fn is_empty(&self) -> bool {
        self.bodies.len() == 0
    }

    /// True when `handle` names a live body.
    pub fn contains(&self, handle: BodyHandle) -> bool {
        self.body(handle).is_ok()
    }

    /// Handles of every live body, in slot order.
    pub fn handles(&self) -> impl Iterator<Item = BodyHandle> + '_ {
        self.bodies
            .iter()
            .map(|(i, b)| BodyHandle::new(i, b.generation, self.id))
    }

    /// The live body `handle` names, or `StaleHandle`.
    fn body(&self, handle: BodyHandle) -> Result<&Body, WorldError> {
        if handle.world() != self.id {
            return Err(WorldError::StaleHandle(handle));
        }
        self.bodies
            .get(handle.index(), handle.generation())
            .ok_or(WorldError::StaleHandle(handle))
    }

    /// Moves a body. Any pose is accepted; a bad one quarantines the body at the next
    /// step. Errors: `StaleHandle`.
    ///
    /// Setting the very same pose again (bit for bit) changes nothing: the body counts
    /// as resting, and its pairs with other resting bodies reuse last step's manifold
    /// at the next step (the answer would be the same bits).
    ///
    /// The first pose that moves a body since the last step wakes the world's own pool
    /// for the step to come (see [`Config::keep_threads_awake`]).
    pub fn set_pose(&mut self, handle: BodyHandle, pose: Pose) -> Result<(), WorldError> {
        match self.try_set_pose(handle, pose) {
            Some(moved) => {
                if moved {
                    self.wake_pool();
                }
                Ok(())
            }
            None => Err(WorldError::StaleHandle(handle)),
        }
    }

    /// Moves many bodies at once: `set_pose` for each `(handle, pose)` in order,
    /// without a `Result` per body. A stale handle is skipped and counted (the other
    /// entries still apply); a pose with the same bits as the body's changes nothing.
    /// See [`PoseBatch`] for the rules and the cost (a few ns a body). The first entry
    /// that moves a body wakes the world's own pool for the step to come, as
    /// [`set_pose`](Self::set_pose) does.
    ///
    /// ```
    /// use sepax_pipeline::{BodyDesc, CollisionWorld, Config};
    /// use sepax_pipeline::geometry::{Pose, Sphere};
    /// use glam::Vec3;
    ///
    /// let mut world = CollisionWorld::new(Config::default()).unwrap();
    /// let ball = Sphere::try_new(0.5).unwrap();
    /// let bodies: Vec<_> = (0..4)
    ///     .map(|i| world.insert(BodyDesc::dynamic(ball, Pose::from_translation(Vec3::X * i as f32))).unwrap())
    ///     .collect();
    /// world.remove(bodies[3]).unwrap();
    /// // The engine's solver output: one pose per body, the same for body 0.
    /// let poses = [0.0, 1.5, 2.5, 3.5].map(|x| Pose::from_translation(Vec3::X * x));
    /// let batch = world.set_poses(bodies.iter().copied().zip(poses));
    /// assert_eq!((batch.moved, batch.unchanged, batch.stale), (2, 1, 1));
    /// assert_eq!(batch.first_stale, Some(bodies[3]));
    /// assert_eq!(world.pose(bodies[1]).unwrap(), poses[1]);
    /// ```
    pub fn set_poses(&mut self, poses: impl IntoIterator<Item = (BodyHandle, Pose)>) -> PoseBatch {
        let mut batch = PoseBatch::default();
        for (handle, pose) in poses {
            match self.try_set_pose(handle, pose) {
                Some(true) => {
                    if batch.moved == 0 {
                        self.wake_pool();
                    }
                    batch.moved += 1;
                }
                Some(false) => batch.unchanged += 1,
                None => {
                    batch.stale += 1;
                    batch.first_stale.get_or_insert(handle);
                }
            }
        }
        batch
    }

    /// A body moved, so a step is coming: wakes the world's own pool now, once per step
    /// (see [`Config::keep_threads_awake`]), so that its threads are up when the step
    /// begins.
    #[inline]
    fn wake_pool(&mut self) {
        if self.crew.is_none()
            && self.config.keep_threads_awake
            && let Some(pool) = &self.pool
        {
            self.crew = Some(wake_ahead(pool));
            self.crew_pool = None;
        }
    }

    /// Says that a [`step_in`](Self::step_in) on `pool` is coming: wakes its threads
    /// now, as the first moved pose wakes the world's own pool for
    /// [`step`](Self::step) (see [`Config::keep_threads_awake`]), so that they are up
    /// when the step begins instead of 50–100 µs after. Call it before setting the
    /// step's poses: its threads then wait for the step while the poses go in. They
    /// wait at most 1 ms (then leave; the step wakes them again), spinning but yielding
    /// their cores to any other runnable thread, and they leave at once when the next
    /// step runs elsewhere (on the world's own pool, or on another pool).
    ///
    /// Nothing is woken when `keep_threads_awake` is off, nor again while this pool's
    /// threads are already woken for the coming step. A resting step (nothing moved)
    /// runs on no pool: the woken threads then leave. The report is the same bits
    /// whether this was called or not.
    ///
    /// Measured with `stress --pool caller` (a world of one thread stepped on the
    /// example's own 2-thread pool): see the figures in the `stress` example's docs.
    ///
    /// ```
    /// use sepax_pipeline::{rayon, BodyDesc, CollisionWorld, Config};
    /// use sepax_pipeline::geometry::{Pose, Sphere};
    /// use glam::Vec3;
    ///
    /// let engine_pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut world = CollisionWorld::new(Config { threads: 1, ..Config::default() }).unwrap();
    /// let ball = Sphere::try_new(0.5).unwrap();
    /// let a = world.insert(BodyDesc::dynamic(ball, Pose::IDENTITY)).unwrap();
    /// world.insert(BodyDesc::dynamic(ball, Pose::from_translation(Vec3::X * 2.0))).unwrap();
    /// world.step_in(&engine_pool);
    /// // Next frame: wake the engine's pool, set the poses, step on it.
    /// world.wake_ahead_in(&engine_pool);
    /// world.set_pose(a, Pose::from_translation(Vec3::X * 1.5)).unwrap();
    /// assert_eq!(world.step_in(&engine_pool).contacts.len(), 1);
    /// ```
    pub fn wake_ahead_in(&mut self, pool: &rayon::ThreadPool) {
        let address = pool_address(pool);
        if !self.config.keep_threads_awake
            || (self.crew.is_some() && self.crew_pool == Some(address))
        {
            return;
        }
        // A crew of another pool leaves when dropped here.
        self.crew = Some(wake_ahead(pool));
        self.crew_pool = Some(address);
    }

    /// `set_pose` without the error: `None` for a stale handle, else whether the pose
    /// changed (see [`BodyStore::set_pose`]).
    #[inline]
    fn try_set_pose(&mut self, handle: BodyHandle, pose: Pose) -> Option<bool> {
        if handle.world() != self.id {
            return None;
        }
        self.bodies
            .set_pose(handle.index(), handle.generation(), pose)
    }

    /// Moves a body without a motion: like [`set_pose`](Self::set_pose), but a CCD
    /// body does not sweep from its old pose at the next step (it jumps: a respawn,
    /// a portal, a reset), and in that step's casts the body stands still at its new
    /// pose.
    /// For a body without the CCD flag in a world without CCD bodies it is
    /// `set_pose`. Errors: `StaleHandle`.
    ///
    /// `set_pose` itself is a motion: the world knows poses, not velocities, so a CCD
    /// body moved with `set_pose` sweeps the straight path from its pose at the last
    /// step to the new one, however far that is.
    pub fn teleport(&mut self, handle: BodyHandle, pose: Pose) -> Result<(), WorldError> {
        self.set_pose(handle, pose)?;
        self.bodies.forget_from(handle.index());
        Ok(())
    }

    /// Turns continuous collision detection on or off for a body
    /// ([`BodyDesc::ccd`]). Errors: `StaleHandle`.
    ///
    /// **What it does.** At each step in which the body moved, its broad-phase box
    /// holds its whole motion since the last step (the straight path of
    /// [`Motion::between`](crate::narrowphase::Motion::between) its two poses, turns
    /// included: [`aabb`](Self::aabb) returns that box), so every body it passed
    /// through is a candidate pair; each such pair that does not touch at the end of
    /// the step is cast and its time of impact reported in
    /// [`StepReport::ccd_hits`] (see [`CcdHit`](crate::CcdHit)). Pairs touching at the
    /// end are contacts as without CCD. A body's first step after its insertion or a
    /// [`teleport`](Self::teleport) has no sweep (nothing to sweep from). The world
    /// starts remembering last-step poses when its first body gets the flag: a body
    /// that was moved between the last step and that moment (its last-step pose is
    /// already overwritten) has no sweep in the next step either; set the flag before
    /// the pose. The flag has no effect on a static body (a static body that is moved
    /// jumps).
    ///
    /// **What it costs.** Per CCD body that moves: a swept box (two shape boxes) and,
    /// at the next step, its plain box back; its larger box makes more candidate
    /// pairs, and boxes that leave their fat box every step make the broad phase
    /// re-sort more often. Per step with any CCD body: one pass over the candidate
    /// pairs, and per pair of a CCD body not touching at the end, a shape cast (a few
    /// GJK distance queries; [`StepTimings::ccd`](crate::StepTimings::ccd) has the
    /// time). Once any body had the flag, the world keeps every body's last-step pose
    /// (up to 48 bytes a slot, a copy per moved body per step). Bodies without the flag in
    /// a world without any flagged body pay nothing.
    ///
    /// Against a static triangle mesh there is no cast yet: such pairs are counted in
    /// [`StepReport::ccd_skipped`].
    pub fn set_ccd(&mut self, handle: BodyHandle, ccd: bool) -> Result<(), WorldError> {
        self.body(handle)?;
        self.bodies.set_ccd(handle.index(), ccd);
        Ok(())
    }

    /// True when the body has the CCD flag. Errors: `StaleHandle`.
    pub fn ccd(&self, handle: BodyHandle) -> Result<bool, WorldError> {
        self.body(handle)?;
        Ok(self.bodies.ccd(handle.index()))
    }

    /// Replaces a body's shape. Its pair caches stay: a remembered separating axis is
    /// only tried first, and a remembered reference feature (a face index of the old
    /// shape, read as one of the new) is kept only while it is within the narrow phase's
    /// slop of the exact axis, so the answer stays right. Errors: `StaleHandle`;
    /// `MeshNotStatic` for a triangle mesh on a body that is not static (the body keeps
    /// its shape).
    pub fn set_shape(&mut self, handle: BodyHandle, shape: Shape) -> Result<(), WorldError> {
        self.body(handle)?;
        if matches!(shape, Shape::TriMesh(_)) && self.kind(handle)? != BodyKind::Static {
            return Err(WorldError::MeshNotStatic);
        }
        self.bodies.set_shape(handle.index(), shape);
        Ok(())
    }

    /// Changes a body's collision groups (applied at the next step; pairs it no longer
    /// collides with end with `Ended(Filtered)`). Errors: `StaleHandle`.
    pub fn set_groups(&mut self, handle: BodyHandle, groups: Groups) -> Result<(), WorldError> {
        self.body(handle)?;
        self.bodies.set_groups(handle.index(), groups);
        Ok(())
    }

    /// Changes a body's user data. Errors: `StaleHandle`.
    pub fn set_user_data(&mut self, handle: BodyHandle, user_data: u64) -> Result<(), WorldError> {
        self.body(handle)?;
        self.bodies.set_user_data(handle.index(), user_data);
        Ok(())
    }

    /// The body's pose as last set. Errors: `StaleHandle`.
    pub fn pose(&self, handle: BodyHandle) -> Result<Pose, WorldError> {
        Ok(self.body(handle)?.pose)
    }

    /// The body's shape. Errors: `StaleHandle`.
    pub fn shape(&self, handle: BodyHandle) -> Result<&Shape, WorldError> {
        Ok(&self.body(handle)?.shape)
    }

    /// Static, dynamic or kinematic. Errors: `StaleHandle`.
    pub fn kind(&self, handle: BodyHandle) -> Result<BodyKind, WorldError> {
        self.body(handle)?;
        self.bodies
            .kind(handle.index())
            .ok_or(WorldError::StaleHandle(handle))
    }

    /// The body's collision groups. Errors: `StaleHandle`.
    pub fn groups(&self, handle: BodyHandle) -> Result<Groups, WorldError> {
        Ok(self.body(handle)?.groups)
    }

    /// The body's user data. Errors: `StaleHandle`.
    pub fn user_data(&self, handle: BodyHandle) -> Result<u64, WorldError> {
        self.body(handle)?;
        Ok(self.bodies.user_data(handle.index()))
    }

    /// The AABB (grown by the margin) the last step used for this body; `None` before
    /// its first step and while it is quarantined. For a CCD body that moved in the
    /// last step, the box of its whole motion (see [`set_ccd`](Self::set_ccd)).
    /// Errors: `StaleHandle`.
    pub fn aabb(&self, handle: BodyHandle) -> Result<Option<Aabb>, WorldError> {
        self.body(handle)?;
        Ok(self.broad.aabb(ProxyId(handle.index())).ok())
    }

    /// Runs one frame and returns its report (also kept in [`report`](Self::report)).
    ///
    /// See [`StepReport`] for the order of contacts and events. A body whose pose is
    /// not finite, whose rotation is not unit length, or whose AABB overflows is left
    /// out of this step (its touching pairs end with `Ended(Quarantined)`) and listed in
    /// `quarantined`; it comes back at the first step after its pose is fixed. A step
    /// that finds more than [`Config::pair_budget`](crate::Config::pair_budget)
    /// candidate pairs keeps the first ones and sets `pair_budget_exceeded`. Nothing
    /// here panics on user data.
    ///
    /// A step in which nothing changed since the last one (no pose with new bits, no
    /// insert, remove, `set_shape`, `set_groups` or `set_user_data`) costs O(contacts)
    /// on the calling thread: the report is the last one, each contact continuing
    /// itself (`previous = Some(i)`, every point matched to itself), no events.
    pub fn step(&mut self) -> &StepReport {
        self.step_on(None)
    }

    /// [`step`](Self::step) on a rayon pool of the caller's (an engine that already
    /// has one), instead of the world's own pool: every parallel stage of the step runs
    /// on `pool`. The report is bit-identical to `step`'s, whatever the pool's thread
    /// count (the work is cut into chunks by size, never by thread count). Calling it
    /// from a thread of `pool` itself is fine (the step then runs there directly).
    ///
    /// The world's own pool is still built by [`new`](Self::new) with
    /// [`Config::threads`] threads (they sleep while unused), unless that is 1, so a
    /// world stepped only here is best created with `threads: 1`: it spawns no thread.
    /// The rayon version is the one this crate re-exports as
    /// [`sepax_pipeline::rayon`](crate::rayon).
    ///
    /// ```
    /// use sepax_pipeline::{rayon, BodyDesc, CollisionWorld, Config};
    /// use sepax_pipeline::geometry::{Pose, Sphere};
    /// use glam::Vec3;
    ///
    /// let engine_pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    /// let mut world = CollisionWorld::new(Config { threads: 1, ..Config::default() }).unwrap();
    /// let ball = Sphere::try_new(0.5).unwrap();
    /// world.insert(BodyDesc::dynamic(ball, Pose::IDENTITY)).unwrap();
    /// world.insert(BodyDesc::dynamic(ball, Pose::from_translation(Vec3::X * 0.9))).unwrap();
    /// assert_eq!(world.step_in(&engine_pool).contacts.len(), 1);
    /// ```
    pub fn step_in(&mut self, pool: &rayon::ThreadPool) -> &StepReport {
        self.step_on(Some(pool))
    }

    /// One step on `pool`, or on the world's own pool, or, for a world of one thread
    /// (no pool), on the calling thread.
    fn step_on(&mut self, pool: Option<&rayon::ThreadPool>) -> &StepReport {
        let mut report = std::mem::take(&mut self.report);
        // The helpers woken ahead serve a step on the pool they were woken in (dropped,
        // they leave).
        let crew = (self.crew.take()).filter(|_| self.crew_pool == pool.map(pool_address));
        let on_own_pool = pool.is_none();
        let pool = pool.or(self.pool.as_ref());
        // Without a pool no stage may touch rayon (outside a pool that would be the
        // global one): the broad phase is told so, the other stages by `parallel`.
        self.broad.set_parallel(pool.is_some());
        let frame = StepFrame {
            bodies: &mut self.bodies,
            broad: &mut self.broad,
            pairs: &mut self.pairs,
            config: &self.config,
            world: self.id,
            parallel: pool.is_some(),
        };
        if frame.is_resting() {
            // Nothing changed: last step's report, without waking a pool.
            frame.repeat(&mut report);
        } else if let Some(pool) = pool {
            // One hand-over to the pool per step, whose other threads stay awake until
            // it ends (see `awake`).
            let awake = self.config.keep_threads_awake;
            match awake {
                true => install_awake(pool, crew, || frame.run(&mut report)),
                false => pool.install(|| frame.run(&mut report)),
            }
            if awake && on_own_pool {
                // The threads wait for the next step (at most 1 ms): a caller stepping
                // back to back finds them awake (see `Config::keep_threads_awake`).
                self.crew = Some(wake_ahead(pool));
                self.crew_pool = None;
            }
        } else {
            // One thread: the same chunks in order, here (waking a pool thread took
            // 50–100 µs on the 2-core machine of `awake`'s figures).
            frame.run(&mut report);
        }
        self.report = report;
        &self.report
    }

    /// The bodies and the broad phase, for the scene queries.
    pub(crate) fn parts(&self) -> (&BodyStore, &SweepAndPrune) {
        (&self.bodies, &self.broad)
    }

    /// The report of the last step (empty before the first).
    pub fn report(&self) -> &StepReport {
        &self.report
    }

    /// The candidate pairs of the last step: every pair whose AABBs overlap, at least one
    /// body dynamic (so no static–static, kinematic–static or kinematic–kinematic pair,
    /// see [`BodyKind`]), before the group filter; sorted by `(a.index(), b.index())`.
    /// Pairs with a body removed since the step are left out.
    pub fn candidate_pairs(&self) -> Vec<(BodyHandle, BodyHandle)> {
        self.broad
            .pairs()
            .iter()
            .filter_map(|&(a, b)| Some((self.handle_at(a.0)?, self.handle_at(b.0)?)))
            .collect()
    }

    /// The handle of the live body in slot `index`.
    pub(crate) fn handle_at(&self, index: u32) -> Option<BodyHandle> {
        let body = self.bodies.live(index)?;
        Some(BodyHandle::new(index, body.generation, self.id))
    }
}

/// A pool's identity while it stays where it is: its address (two pools alive at once
/// never share one; a pool moved or rebuilt in between only costs a woken crew).
fn pool_address(pool: &rayon::ThreadPool) -> usize {
    std::ptr::from_ref(pool).addr()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BodyDesc;
    use crate::awake::tests::pool;
    use glam::Vec3;
    use sepax_geometry::Sphere;

    /// Two touching balls in a world of `threads`, stepped once on `pool`.
    fn world(threads: usize, pool: &rayon::ThreadPool) -> (CollisionWorld, BodyHandle) {
        let config = Config {
            threads,
            ..Config::default()
        };
        let mut world = CollisionWorld::new(config).unwrap();
        let ball = Sphere::try_new(0.5).unwrap();
        let a = world
            .insert(BodyDesc::dynamic(ball, Pose::IDENTITY))
            .unwrap();
        let at = Pose::from_translation(Vec3::X * 0.9);
        world.insert(BodyDesc::dynamic(ball, at)).unwrap();
        assert_eq!(world.step_in(pool).contacts.len(), 1);
        (world, a)
    }

    fn watch(world: &CollisionWorld) -> crate::awake::CrewWatch {
        world.crew.as_ref().expect("a crew is woken").watch()
    }

    /// `wake_ahead_in` wakes the pool once for the coming step: again, or a moved pose
    /// (which would wake the world's own pool), keeps that crew; the step on the pool
    /// takes it and stops it. Woken in another pool, or before a step on the world's
    /// own pool, the crew serves no step and is stopped.
    #[test]
    fn a_crew_woken_in_a_callers_pool_serves_only_a_step_there() {
        let (engine, other) = (pool(2), pool(2));
        let (mut world, a) = world(2, &engine);
        let moved = |x: f32| Pose::from_translation(Vec3::X * x);

        world.wake_ahead_in(&engine);
        let first = watch(&world);
        world.wake_ahead_in(&engine);
        world.set_pose(a, moved(0.1)).unwrap();
        assert!(watch(&world).same(&first), "woken again or replaced");
        assert!(!first.stopped());
        assert_eq!(world.step_in(&engine).contacts.len(), 1);
        assert!(world.crew.is_none() && first.stopped());

        world.wake_ahead_in(&other);
        let elsewhere = watch(&world);
        world.set_pose(a, moved(0.2)).unwrap();
        world.step_in(&engine);
        assert!(elsewhere.stopped() && !elsewhere.served_a_step());

        world.wake_ahead_in(&engine);
        let then_own = watch(&world);
        world.set_pose(a, moved(0.3)).unwrap();
        world.step();
        assert!(then_own.stopped() && !then_own.served_a_step());
    }

    /// A step on the world's own pool wakes its threads for the next step as it ends:
    /// the next step on that pool is served by that crew and stops it; a resting step
    /// (nothing moved) and a step on a caller's pool stop it and wake none; with
    /// `keep_threads_awake` off no step wakes any.
    #[test]
    fn a_step_on_the_own_pool_wakes_its_threads_for_the_next() {
        let engine = pool(2);
        let moved = |x: f32| Pose::from_translation(Vec3::X * x);
        for awake in [true, false] {
            let config = Config {
                threads: 2,
                keep_threads_awake: awake,
                ..Config::default()
            };
            let mut world = CollisionWorld::new(config).unwrap();
            let ball = Sphere::try_new(0.5).unwrap();
            let a = world.insert(BodyDesc::dynamic(ball, moved(0.0))).unwrap();
            world.insert(BodyDesc::dynamic(ball, moved(0.9))).unwrap();
            assert_eq!(world.step().contacts.len(), 1);
            if !awake {
                assert!(world.crew.is_none());
                continue;
            }
            // The crew serves the next step unless it may have left (more than half
            // its idle limit since it was woken, on a loaded machine): some of 50
            // back-to-back steps must find it.
            let mut served = 0;
            for round in 0..50 {
                let woken = watch(&world);
                assert!(world.crew_pool.is_none() && !woken.stopped());
                world.set_pose(a, moved(0.01 * (round + 1) as f32)).unwrap();
                assert!(watch(&world).same(&woken), "woken again or replaced");
                assert_eq!(world.step().contacts.len(), 1);
                assert!(woken.stopped());
                served += woken.served_a_step() as usize;
                assert!(!watch(&world).same(&woken));
            }
            assert!(
                served > 0,
                "no step was served by the crew woken at the last one"
            );
            let next = watch(&world);
            assert!(!next.stopped());

            // Nothing moved: the resting step runs on no pool and wakes none.
            assert_eq!(world.step().contacts.len(), 1);
            assert!(next.stopped() && !next.served_a_step() && world.crew.is_none());

            world.set_pose(a, moved(0.2)).unwrap();
            world.step();
            let before_engine = watch(&world);
            world.set_pose(a, moved(0.3)).unwrap();
            assert_eq!(world.step_in(&engine).contacts.len(), 1);
            assert!(before_engine.stopped() && !before_engine.served_a_step());
            assert!(world.crew.is_none());
        }
    }

    /// With `keep_threads_awake` off nothing is woken.
    #[test]
    fn no_crew_when_threads_may_sleep() {
        let engine = pool(2);
        let config = Config {
            threads: 1,
            keep_threads_awake: false,
            ..Config::default()
        };
        let mut world = CollisionWorld::new(config).unwrap();
        world.wake_ahead_in(&engine);
        assert!(world.crew.is_none());
    }
}
