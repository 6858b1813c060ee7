//! [`CollisionWorld`]: body storage behind generational handles, and the getters and
//! setters a physics engine calls between steps.

use crate::pairs::PairState;
use crate::{BodyDesc, BodyHandle, BodyKind, Config, Groups, StepReport, WorldError};
use sepax_broadphase::{ProxyId, SweepAndPrune};
use sepax_geometry::{Aabb, Pose, Shape};
use std::sync::atomic::{AtomicU32, Ordering};

/// The identity of the next world: each world stamps its own on its handles, so a
/// handle from another world is refused (wrapping after 2³² worlds).
static NEXT_WORLD_ID: AtomicU32 = AtomicU32::new(0);

/// One body as the world keeps it.
#[derive(Clone, Debug)]
pub(crate) struct Body {
    pub shape: Shape,
    pub pose: Pose,
    pub groups: Groups,
    /// The broad-phase proxy; `None` before the first step and while quarantined.
    pub proxy: Option<ProxyId>,
    /// The AABB (grown by the margin) handed to the broad phase at the last step.
    pub aabb: Option<Aabb>,
    /// Pose or shape changed since the last step (the body is in `dirty`).
    pub dirty: bool,
}

/// What the step reads per pair, packed small so that the random accesses of the pair
/// merge and the narrow phase stay in cache: a copy of the body's pose and shape as of
/// the last AABB update, its groups and its slot's generation.
/// True when two poses have the same bit patterns (unlike `==`, which equates -0 and +0
/// and never equates NaNs).
fn same_bits(a: &Pose, b: &Pose) -> bool {
    a.translation.to_array().map(f32::to_bits) == b.translation.to_array().map(f32::to_bits)
        && a.rotation.to_array().map(f32::to_bits) == b.rotation.to_array().map(f32::to_bits)
}

/// One cache line each: 32 (pose) + 16 (shape) + 4 + 8 + 4 bytes.
#[derive(Clone, Debug)]
#[repr(align(64))]
pub(crate) struct Hot {
    pub pose: Pose,
    pub shape: Shape,
    /// `shape.bounding_radius()`: pairs whose bounding spheres are apart skip the SAT.
    pub radius: f32,
    pub groups: Groups,
    pub generation: u32,
}

/// A slot: the current generation and the body, if one lives here.
#[derive(Clone, Debug, Default)]
pub(crate) struct Slot {
    pub generation: u32,
    pub body: Option<Body>,
}

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
    pub(crate) id: u32,
    pub(crate) config: Config,
    /// Shared so that `step` can enter it once while borrowing the world mutably.
    pub(crate) pool: std::sync::Arc<rayon::ThreadPool>,
    pub(crate) slots: Vec<Slot>,
    /// Per slot, the data the step reads per pair (see [`Hot`]).
    pub(crate) hot: Vec<Hot>,
    /// Per slot, the kind of the body living there (stored only here, densely, for the
    /// kind rule the step applies to every broad-phase pair).
    pub(crate) kinds: Vec<BodyKind>,
    /// Per slot, the body's user data (dense: the step copies it into every contact).
    pub(crate) user_data: Vec<u64>,
    /// Live kinematic bodies; while there are none the step skips the kind rule.
    pub(crate) kinematic_bodies: usize,
    /// Slots free for reuse now.
    free: Vec<u32>,
    /// Slots freed since the last step: reused only after the step has ended their pairs.
    pub(crate) pending_free: Vec<u32>,
    live: usize,
    /// Slots whose pose or shape changed (or that are quarantined) since the last step.
    pub(crate) dirty: Vec<u32>,
    pub(crate) broad: SweepAndPrune,
    /// Proxy id → slot index.
    pub(crate) proxy_body: Vec<u32>,
    /// Pair states of the last step's candidate pairs, sorted by key.
    pub(crate) pairs: Vec<PairState>,
    /// Buffers reused across steps (no fresh pages every frame): the pair states being
    /// built and this step's manifold per pair.
    pub(crate) pair_spare: Vec<PairState>,
    pub(crate) manifolds: Vec<Option<sepax_narrowphase::Manifold>>,
    /// Last step's contacts (the report's buffers are swapped each step): pairs of two
    /// resting bodies copy their manifold from here.
    pub(crate) prev_contacts: Vec<crate::ContactPair>,
    /// Per slot: the step at which its AABB (pose or shape) was last refreshed.
    pub(crate) refreshed_at: Vec<u64>,
    /// Steps run so far.
    pub(crate) step_index: u64,
    /// Candidate pair keys of the last step (before the group filter), sorted.
    pub(crate) candidates: Vec<u64>,
    /// A static body was inserted, moved, reshaped or removed since the last step.
    pub(crate) statics_changed: bool,
    pub(crate) report: StepReport,
}

impl std::fmt::Debug for CollisionWorld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CollisionWorld")
            .field("id", &self.id)
            .field("config", &self.config)
            .field("bodies", &self.live)
            .field("pairs", &self.pairs.len())
            .finish_non_exhaustive()
    }
}

impl CollisionWorld {
    /// An empty world with its own rayon pool of `config.threads` threads (0: one per
    /// core), and a fresh world identity (handles of other worlds are stale here).
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
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .build()
            .map_err(|e| WorldError::ThreadPool(e.to_string()))?;
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
            pool: std::sync::Arc::new(pool),
            slots: Vec::new(),
            hot: Vec::new(),
            kinds: Vec::new(),
            user_data: Vec::new(),
            kinematic_bodies: 0,
            free: Vec::new(),
            pending_free: Vec::new(),
            live: 0,
            dirty: Vec::new(),
            broad,
            proxy_body: Vec::new(),
            pairs: Vec::new(),
            pair_spare: Vec::new(),
            manifolds: Vec::new(),
            prev_contacts: Vec::new(),
            refreshed_at: Vec::new(),
            step_index: 0,
            candidates: Vec::new(),
            statics_changed: false,
            report: StepReport::default(),
        })
    }

    /// The configuration (margin sanitised, chunks at least 1).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Threads of the world's pool.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Adds a body; it takes part from the next step on. Any pose is accepted: a bad one
    /// is quarantined at each step until fixed. Errors: `TooManyBodies`.
    pub fn insert(&mut self, desc: BodyDesc) -> Result<BodyHandle, WorldError> {
        let hot = Hot {
            pose: desc.pose,
            shape: desc.shape.clone(),
            radius: desc.shape.bounding_radius(),
            groups: desc.groups,
            generation: 0,
        };
        let body = Body {
            shape: desc.shape,
            pose: desc.pose,
            groups: desc.groups,
            proxy: None,
            aabb: None,
            dirty: true,
        };
        match desc.kind {
            BodyKind::Static => self.statics_changed = true,
            BodyKind::Kinematic => self.kinematic_bodies += 1,
            BodyKind::Dynamic => {}
        }
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                let i = u32::try_from(self.slots.len())
                    .ok()
                    .filter(|&i| i < u32::MAX)
                    .ok_or(WorldError::TooManyBodies)?;
                self.slots.push(Slot::default());
                self.hot.push(hot.clone());
                self.kinds.push(desc.kind);
                self.user_data.push(desc.user_data);
                self.refreshed_at.push(0);
                i
            }
        };
        self.kinds[index as usize] = desc.kind;
        self.user_data[index as usize] = desc.user_data;
        let slot = &mut self.slots[index as usize];
        slot.body = Some(body);
        self.hot[index as usize] = Hot {
            generation: slot.generation,
            ..hot
        };
        self.dirty.push(index);
        self.live += 1;
        Ok(BodyHandle::new(index, slot.generation, self.id))
    }

    /// Removes a body. Its touching pairs get an `Ended(Removed)` event at the next
    /// step; the handle is stale at once. Errors: `StaleHandle`.
    pub fn remove(&mut self, handle: BodyHandle) -> Result<(), WorldError> {
        self.body(handle)?;
        let slot = &mut self.slots[handle.index() as usize];
        let body = slot.body.take().ok_or(WorldError::StaleHandle(handle))?;
        slot.generation = slot.generation.wrapping_add(1);
        if let Some(p) = body.proxy {
            // The proxy is ours and alive; an error here would be a broad-phase bug and
            // only means there is nothing to remove.
            let _ = self.broad.remove(p);
        }
        match self.kinds[handle.index() as usize] {
            BodyKind::Static => self.statics_changed = true,
            BodyKind::Kinematic => self.kinematic_bodies -= 1,
            BodyKind::Dynamic => {}
        }
        self.pending_free.push(handle.index());
        self.live -= 1;
        Ok(())
    }

    /// Number of live bodies.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True when no body is alive.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// True when `handle` names a live body.
    pub fn contains(&self, handle: BodyHandle) -> bool {
        self.body(handle).is_ok()
    }

    /// Handles of every live body, in slot order.
    pub fn handles(&self) -> impl Iterator<Item = BodyHandle> + '_ {
        self.slots.iter().enumerate().filter_map(|(i, s)| {
            s.body
                .as_ref()
                .map(|_| BodyHandle::new(i as u32, s.generation, self.id))
        })
    }

    pub(crate) fn body(&self, handle: BodyHandle) -> Result<&Body, WorldError> {
        match self.slots.get(handle.index() as usize) {
            Some(s) if s.generation == handle.generation() && handle.world() == self.id => {
                s.body.as_ref().ok_or(WorldError::StaleHandle(handle))
            }
            _ => Err(WorldError::StaleHandle(handle)),
        }
    }

    fn body_mut(&mut self, handle: BodyHandle) -> Result<&mut Body, WorldError> {
        if handle.world() != self.id {
            return Err(WorldError::StaleHandle(handle));
        }
        match self.slots.get_mut(handle.index() as usize) {
            Some(s) if s.generation == handle.generation() => {
                s.body.as_mut().ok_or(WorldError::StaleHandle(handle))
            }
            _ => Err(WorldError::StaleHandle(handle)),
        }
    }

    /// Marks a body changed so the next step recomputes its AABB.
    fn touch(&mut self, handle: BodyHandle) -> Result<&mut Body, WorldError> {
        let index = handle.index();
        let is_static = self.kinds.get(index as usize) == Some(&BodyKind::Static);
        let body = self.body_mut(handle)?;
        let was_dirty = std::mem::replace(&mut body.dirty, true);
        if !was_dirty {
            self.dirty.push(index);
        }
        if is_static {
            self.statics_changed = true;
        }
        self.body_mut(handle)
    }

    /// Moves a body. Any pose is accepted; a bad one quarantines the body at the next
    /// step. Errors: `StaleHandle`.
    ///
    /// Setting the very same pose again (bit for bit) changes nothing: the body counts
    /// as resting, and its pairs with other resting bodies reuse last step's manifold
    /// at the next step (the answer would be the same bits).
    pub fn set_pose(&mut self, handle: BodyHandle, pose: Pose) -> Result<(), WorldError> {
        let current = self.body(handle)?.pose;
        if same_bits(&current, &pose) {
            return Ok(());
        }
        self.touch(handle)?.pose = pose;
        Ok(())
    }

    /// Replaces a body's shape. Its pair caches stay: a remembered separating axis is
    /// only tried first, and a remembered reference feature (a face index of the old
    /// shape, read as one of the new) is kept only while it is within the narrow phase's
    /// slop of the exact axis, so the answer stays right. Errors: `StaleHandle`.
    pub fn set_shape(&mut self, handle: BodyHandle, shape: Shape) -> Result<(), WorldError> {
        self.touch(handle)?.shape = shape;
        Ok(())
    }

    /// Changes a body's collision groups (applied at the next step; pairs it no longer
    /// collides with end with `Ended(Filtered)`). Errors: `StaleHandle`.
    pub fn set_groups(&mut self, handle: BodyHandle, groups: Groups) -> Result<(), WorldError> {
        self.body_mut(handle)?.groups = groups;
        self.hot[handle.index() as usize].groups = groups;
        Ok(())
    }

    /// Changes a body's user data. Errors: `StaleHandle`.
    pub fn set_user_data(&mut self, handle: BodyHandle, user_data: u64) -> Result<(), WorldError> {
        self.body_mut(handle)?;
        self.user_data[handle.index() as usize] = user_data;
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
        Ok(self.kinds[handle.index() as usize])
    }

    /// The body's collision groups. Errors: `StaleHandle`.
    pub fn groups(&self, handle: BodyHandle) -> Result<Groups, WorldError> {
        Ok(self.body(handle)?.groups)
    }

    /// The body's user data. Errors: `StaleHandle`.
    pub fn user_data(&self, handle: BodyHandle) -> Result<u64, WorldError> {
        self.body(handle)?;
        Ok(self.user_data[handle.index() as usize])
    }

    /// The AABB (grown by the margin) the last step used for this body; `None` before
    /// its first step and while it is quarantined. Errors: `StaleHandle`.
    pub fn aabb(&self, handle: BodyHandle) -> Result<Option<Aabb>, WorldError> {
        let body = self.body(handle)?;
        Ok(body.proxy.and(body.aabb))
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
        self.candidates
            .iter()
            .filter_map(|&k| {
                let (a, b) = crate::pairs::unpack(k);
                Some((self.handle_at(a)?, self.handle_at(b)?))
            })
            .collect()
    }

    /// The handle of the live body in slot `index`.
    pub(crate) fn handle_at(&self, index: u32) -> Option<BodyHandle> {
        let s = self.slots.get(index as usize)?;
        s.body
            .as_ref()
            .map(|_| BodyHandle::new(index, s.generation, self.id))
    }

    /// Slots freed before the step may be reused after it.
    pub(crate) fn release_pending(&mut self) {
        self.free.append(&mut self.pending_free);
    }
}
