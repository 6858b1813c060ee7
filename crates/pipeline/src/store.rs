//! The body store: every fact about a body, kept once, per slot.
//!
//! A body lives in a slot; its index is the body's key everywhere (handles, the broad
//! phase's proxy ids, pair keys), so no id map exists. Per slot, in the layout the
//! step reads:
//!
//! * [`Body`], one cache line: pose, shape, bounding radius, groups and the slot's
//!   generation — what the narrow pass reads for both bodies of every pair;
//! * the kind (`None` for a vacant slot) and the user data, read when a body is
//!   inserted, looked up, or copied into a contact;
//! * `changed_at`: the step that first sees the body's current pose and shape. It is
//!   the one "changed" tracker: a body is *resting* at step `n` when
//!   `changed_at < n`, and the slots marked for the next step are queued once each
//!   (the queue is the step's work list, not a second truth).
//!
//! * the CCD flag, and while any body of the world has had it, the pose each body had
//!   at the last step it took part in (`from`): the start of its motion in the next
//!   step (see [`crate::ccd`]). A world that never used CCD keeps no such pose.
//!
//! The world AABB of a body is not stored here: the broad phase keeps it under the
//! body's key (see `CollisionWorld::aabb`).
//!
//! Slots freed by a removal are reused only after the next step, which first ends
//! the removed body's pairs.

use crate::prefetch::prefetch;
use crate::{BodyDesc, BodyKind, Groups, WorldError};
use sepax_geometry::{Pose, Shape};

/// True when two poses have the same bit patterns (unlike `==`, which equates -0 and +0
/// and never equates NaNs).
/// The rotation's four floats compare as one 16-byte block, the translation's three
/// apart (the pose's padding is never read). The form matters: with the seven floats
/// gathered in one array the compiler went through the stack, and `set_poses` of
/// 10,000 bodies took 106 µs against 46 now (`cargo bench --bench poses --
/// set_poses_10k/batch/moved`; `unchanged` 114 → 38 µs).
#[inline]
fn same_bits(a: &Pose, b: &Pose) -> bool {
    let rotation = |p: &Pose| p.rotation.to_array().map(f32::to_bits);
    let translation = |p: &Pose| p.translation.to_array().map(f32::to_bits);
    rotation(a) == rotation(b) && translation(a) == translation(b)
}

/// What the step reads per body and pair: one cache line each, 32 (pose) + 16 (shape)
/// + 4 + 8 + 4 bytes.
#[derive(Clone, Debug)]
#[repr(align(64))]
pub(crate) struct Body {
    pub pose: Pose,
    pub shape: Shape,
    /// `shape.bounding_radius()`: pairs whose bounding spheres are apart skip the SAT.
    pub radius: f32,
    pub groups: Groups,
    /// The slot's generation: the body's if one lives here, else the next body's.
    pub generation: u32,
}

/// The bodies of a world, one entry per slot in every array.
#[derive(Debug, Default)]
pub(crate) struct BodyStore {
    bodies: Vec<Body>,
    /// `None` for a vacant slot.
    kinds: Vec<Option<BodyKind>>,
    user_data: Vec<u64>,
    /// The step that first sees the current pose and shape (see the module docs).
    changed_at: Vec<u64>,
    /// Slots with `changed_at == now + 1`, each once, in the order they were marked.
    queued: Vec<u32>,
    /// Steps begun so far.
    now: u64,
    /// Slots free for reuse now.
    free: Vec<u32>,
    /// Slots freed since the last step: reused only after it.
    pending_free: Vec<u32>,
    live: usize,
    /// Something besides a same-bits pose changed since the last step began: a body
    /// inserted, removed, moved or reshaped, its groups or user data set.
    edited: bool,
    /// Per slot: the body asked for CCD.
    ccd: Vec<bool>,
    /// Live bodies with the CCD flag.
    ccd_live: usize,
    /// Live bodies whose shape is a convex hull.
    hulls_live: usize,
    /// Per slot, once any body asked for CCD (empty before): the pose the body had at
    /// the last step it took part in with a valid pose, `None` when it has not taken
    /// part since it was inserted or teleported, or was quarantined.
    from: Vec<Option<Pose>>,
}

impl BodyStore {
    /// Puts a body in a free slot (or a new one) and marks it changed. Returns its slot
    /// and generation. Errors: `TooManyBodies`.
    pub fn insert(&mut self, desc: BodyDesc) -> Result<(u32, u32), WorldError> {
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                let i = u32::try_from(self.bodies.len())
                    .ok()
                    .filter(|&i| i < u32::MAX)
                    .ok_or(WorldError::TooManyBodies)?;
                self.bodies.push(Body {
                    pose: desc.pose,
                    shape: desc.shape.clone(),
                    radius: 0.0,
                    groups: desc.groups,
                    generation: 0,
                });
                self.kinds.push(None);
                self.user_data.push(0);
                self.changed_at.push(0);
                self.ccd.push(false);
                if !self.from.is_empty() {
                    self.from.push(None);
                }
                i
            }
        };
        let i = index as usize;
        self.hulls_live += usize::from(is_hull(&desc.shape));
        let body = &mut self.bodies[i];
        body.radius = desc.shape.bounding_radius();
        body.pose = desc.pose;
        body.shape = desc.shape;
        body.groups = desc.groups;
        self.kinds[i] = Some(desc.kind);
        self.user_data[i] = desc.user_data;
        self.live += 1;
        self.set_ccd(index, desc.ccd);
        if let Some(from) = self.from.get_mut(i) {
            *from = None;
        }
        self.mark_changed(index);
        Ok((index, self.bodies[i].generation))
    }

    /// Empties a live slot (bumping its generation); it is reused after the next step.
    /// Returns the kind the body had.
    pub fn remove(&mut self, index: u32) -> Option<BodyKind> {
        let i = index as usize;
        let kind = self.kinds.get_mut(i)?.take()?;
        let body = &mut self.bodies[i];
        body.generation = body.generation.wrapping_add(1);
        self.hulls_live -= usize::from(is_hull(&body.shape));
        self.ccd_live -= usize::from(std::mem::take(&mut self.ccd[i]));
        self.pending_free.push(index);
        self.live -= 1;
        self.edited = true;
        Some(kind)
    }

    /// The body in slot `index` if the slot is live and of `generation`.
    pub fn get(&self, index: u32, generation: u32) -> Option<&Body> {
        let i = index as usize;
        let body = self.bodies.get(i)?;
        (self.kinds[i].is_some() && body.generation == generation).then_some(body)
    }

    /// The body in slot `index` if one lives there.
    pub fn live(&self, index: u32) -> Option<&Body> {
        let i = index as usize;
        self.kinds.get(i)?.and(Some(&self.bodies[i]))
    }

    /// Every live body with its slot, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &Body)> {
        self.bodies
            .iter()
            .zip(&self.kinds)
            .enumerate()
            .filter_map(|(i, (b, k))| k.and(Some((i as u32, b))))
    }

    /// The kind of the body in slot `index` (`None`: vacant).
    pub fn kind(&self, index: u32) -> Option<BodyKind> {
        *self.kinds.get(index as usize)?
    }

    /// The user data of slot `index` (meaningful for live slots).
    pub fn user_data(&self, index: u32) -> u64 {
        self.user_data[index as usize]
    }

    /// Asks for the user data of slot `index` (see `prefetch`; no effect on a slot
    /// out of range).
    #[inline(always)]
    pub fn prefetch_user_data(&self, index: u32) {
        if let Some(value) = self.user_data.get(index as usize) {
            prefetch(value);
        }
    }

    /// Sets the user data of a live slot.
    pub fn set_user_data(&mut self, index: u32, user_data: u64) {
        self.user_data[index as usize] = user_data;
        self.edited = true;
    }

    /// Sets the groups of a live slot (no change mark: the AABB stays valid).
    pub fn set_groups(&mut self, index: u32, groups: Groups) {
        self.bodies[index as usize].groups = groups;
        self.edited = true;
    }

    /// Sets the pose of slot `index` if a body of `generation` lives there: `None` for
    /// a stale slot, `Some(false)` when the pose has the same bits as the stored one
    /// (nothing changes, the body keeps resting), `Some(true)` when it was stored and
    /// the body marked changed.
    #[inline]
    pub fn set_pose(&mut self, index: u32, generation: u32, pose: Pose) -> Option<bool> {
        let i = index as usize;
        let body = self.bodies.get_mut(i)?;
        if body.generation != generation || self.kinds[i].is_none() {
            return None;
        }
        if same_bits(&body.pose, &pose) {
            return Some(false);
        }
        body.pose = pose;
        self.mark_changed(index);
        Some(true)
    }

    /// Sets the CCD flag of a live slot (no change mark: it takes effect at the next
    /// step the body moves in). The first flag set in the world starts keeping every
    /// body's last-step pose.
    pub fn set_ccd(&mut self, index: u32, ccd: bool) {
        let flag = &mut self.ccd[index as usize];
        if *flag == ccd {
            return;
        }
        *flag = ccd;
        if ccd {
            self.ccd_live += 1;
            if self.from.is_empty() {
                self.start_keeping_poses();
            }
        } else {
            self.ccd_live -= 1;
        }
        self.edited = true;
    }

    /// Starts keeping last-step poses: a live body that has not changed since the last
    /// step still has the pose that step saw (it took part with it: a body left out
    /// for a bad pose is marked changed again), the others start with none.
    fn start_keeping_poses(&mut self) {
        self.from = (0..self.bodies.len())
            .map(|i| {
                let unchanged = self.kinds[i].is_some() && self.changed_at[i] <= self.now;
                unchanged.then_some(self.bodies[i].pose)
            })
            .collect();
    }

    /// The CCD flag of slot `index` (false for a vacant slot).
    pub fn ccd(&self, index: u32) -> bool {
        self.ccd.get(index as usize).is_some_and(|&c| c)
    }

    /// True when a live body has the CCD flag.
    pub fn any_ccd(&self) -> bool {
        self.ccd_live > 0
    }

    /// True when a live body is a convex hull (the stages then ask for hull data
    /// ahead, see `prefetch`).
    pub fn any_hulls(&self) -> bool {
        self.hulls_live > 0
    }

    /// The pose slot `index` had at the last step it took part in, if the world keeps
    /// such poses and the body has one (see the field's docs).
    pub fn from(&self, index: u32) -> Option<Pose> {
        *self.from.get(index as usize)?
    }

    /// The last-step poses of every slot (empty while no body ever asked for CCD).
    pub fn froms(&self) -> &[Option<Pose>] {
        &self.from
    }

    /// Records, after a step, the pose slot `index` took part with (`None`: it was
    /// left out). Nothing while the world keeps no such poses.
    pub fn set_from(&mut self, index: u32, pose: Option<Pose>) {
        if let Some(from) = self.from.get_mut(index as usize) {
            *from = pose;
        }
    }

    /// Forgets where slot `index` was: its next step starts its motion afresh (a
    /// teleport).
    pub fn forget_from(&mut self, index: u32) {
        self.set_from(index, None);
    }

    /// Sets the shape of a live slot and marks it changed.
    pub fn set_shape(&mut self, index: u32, shape: Shape) {
        let body = &mut self.bodies[index as usize];
        self.hulls_live =
            self.hulls_live + usize::from(is_hull(&shape)) - usize::from(is_hull(&body.shape));
        body.radius = shape.bounding_radius();
        body.shape = shape;
        self.mark_changed(index);
    }

    /// Marks slot `index` for the next step (once).
    #[inline]
    pub fn mark_changed(&mut self, index: u32) {
        self.edited = true;
        let next = self.now + 1;
        let stamp = &mut self.changed_at[index as usize];
        if *stamp != next {
            *stamp = next;
            self.queued.push(index);
        }
    }

    /// True when the pose or shape of slot `index` changed since the last step began.
    pub fn changed_since_step(&self, index: u32) -> bool {
        self.changed_at[index as usize] > self.now
    }

    /// Steps begun so far: the current step's number while a step runs.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// True when slot `index` changed for step `step` (its stamp is that step's).
    pub fn changed_in_step(&self, index: u32, step: u64) -> bool {
        self.changed_at[index as usize] == step
    }

    /// Begins a step: returns the slots marked for it, in the order they were marked
    /// (marks made from now on are for the next step, queued in `recycled`, emptied:
    /// the list the last step returned, so that marking allocates nothing once the
    /// lists have grown).
    pub fn begin_step(&mut self, mut recycled: Vec<u32>) -> Vec<u32> {
        self.now += 1;
        self.edited = false;
        recycled.clear();
        std::mem::replace(&mut self.queued, recycled)
    }

    /// True when nothing changed since the last step began but poses set again with
    /// the same bits: the next step sees exactly the bodies the last one saw.
    pub fn at_rest(&self) -> bool {
        !self.edited
    }

    /// Ends a step: slots freed before it may be reused.
    pub fn end_step(&mut self) {
        self.free.append(&mut self.pending_free);
    }

    /// What the narrow pass reads: the bodies, their `changed_at` stamps and the
    /// current step (a body is resting when its stamp is below it).
    pub fn narrow_view(&self) -> (&[Body], &[u64], u64) {
        (&self.bodies, &self.changed_at, self.now)
    }

    /// Number of live bodies.
    pub fn len(&self) -> usize {
        self.live
    }
}

/// Whether `shape` is a convex hull.
fn is_hull(shape: &Shape) -> bool {
    matches!(shape, Shape::ConvexHull(_))
}

#[cfg(test)]
mod tests {
    use super::same_bits;
    use glam::{Quat, Vec3};
    use sepax_geometry::Pose;

    /// Every one of the seven floats counts, by its bits: +0 and −0 differ, a NaN
    /// equals itself.
    #[test]
    fn same_bits_compares_every_float_by_its_bits() {
        let floats = [0.5, -0.0, 2.0, 0.0, f32::NAN, 0.25, 1.0];
        let pose = |f: [f32; 7]| {
            Pose::new(
                Vec3::new(f[0], f[1], f[2]),
                Quat::from_xyzw(f[3], f[4], f[5], f[6]),
            )
        };
        assert!(same_bits(&pose(floats), &pose(floats)));
        for k in 0..7 {
            let mut other = floats;
            other[k] = f32::from_bits(other[k].to_bits() ^ 0x8000_0000);
            assert!(!same_bits(&pose(floats), &pose(other)), "float {k}");
        }
    }

    /// `CollisionWorld::set_ccd` documents up to 48 bytes a slot for the last-step
    /// poses (48 where glam's quaternion is 16-byte aligned, as on x86-64).
    #[test]
    fn a_kept_pose_is_at_most_48_bytes() {
        assert!(std::mem::size_of::<Option<sepax_geometry::Pose>>() <= 48);
    }

    /// The live hull count follows inserts, removals, slot reuse and shape changes.
    #[test]
    fn any_hulls_follows_the_live_bodies() {
        use super::BodyStore;
        use crate::BodyDesc;
        use glam::Vec3;
        use sepax_geometry::{ConvexHull, Pose, Shape, Sphere};
        let cube: Vec<Vec3> = (0..8)
            .map(|i| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2) as f32))
            .collect();
        let hull = Shape::from(ConvexHull::try_from_points(&cube).unwrap());
        let ball = Shape::from(Sphere::try_new(0.5).unwrap());
        let mut store = BodyStore::default();
        let (s, _) = store
            .insert(BodyDesc::dynamic(ball.clone(), Pose::IDENTITY))
            .unwrap();
        assert!(!store.any_hulls());
        let (h, _) = store
            .insert(BodyDesc::dynamic(hull.clone(), Pose::IDENTITY))
            .unwrap();
        assert!(store.any_hulls());
        store.set_shape(h, ball.clone());
        assert!(!store.any_hulls());
        store.set_shape(s, hull.clone());
        assert!(store.any_hulls());
        store.remove(s);
        assert!(!store.any_hulls());
        // A removed hull's slot, reused by a sphere after a step, counts nothing.
        store.begin_step(Vec::new());
        store.end_step();
        let (reused, _) = store
            .insert(BodyDesc::dynamic(ball, Pose::IDENTITY))
            .unwrap();
        assert_eq!(reused, s);
        assert!(!store.any_hulls());
        store
            .insert(BodyDesc::dynamic(hull, Pose::IDENTITY))
            .unwrap();
        assert!(store.any_hulls());
    }
}
