//! What a step returns: [`StepReport`].

use crate::{BodyHandle, CcdHit};
use sepax_narrowphase::Manifold;
use std::time::Duration;

/// A pair in contact (touching, or within the margin) and its manifold.
///
/// `a.index() < b.index()`; the manifold's normal points **from a to b** and
/// `depth > 0` means penetrating. Each point carries its anchors in a's and b's local
/// frames (see [`ManifoldPoint`](sepax_narrowphase::ManifoldPoint)).
///
/// **Warm starting without a map.** `previous` is the index of this pair in the previous
/// step's [`StepReport::contacts`] (when it was in contact then), and
/// `previous_points[i]` the index, in that previous manifold, of the point that point
/// `i` continues: the same feature id, or else the nearest previous point whose anchor
/// on a lies within [`MATCH_DISTANCE`] × the smaller body's bounding radius. A solver
/// that keeps its accumulated impulses in an array parallel to `contacts` copies them
/// over with these two indices.
///
/// ```
/// use sepax_pipeline::{BodyDesc, CollisionWorld, Config};
/// use sepax_pipeline::geometry::{Cuboid, Pose};
/// use glam::Vec3;
///
/// let mut world = CollisionWorld::new(Config::default()).unwrap();
/// let cube = Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap();
/// world.insert(BodyDesc { user_data: 7, ..BodyDesc::fixed(cube, Pose::IDENTITY) }).unwrap();
/// world.insert(BodyDesc::dynamic(cube, Pose::from_translation(Vec3::Y * 0.99))).unwrap();
///
/// // One impulse per manifold point, parallel to `contacts`.
/// let mut impulses: Vec<[f32; 4]> = Vec::new();
/// for frame in 0..3 {
///     world.step();
///     // Read the report through a shared borrow: the world's getters stay usable.
///     let report = world.report();
///     let mut next = vec![[0.0f32; 4]; report.contacts.len()];
///     for (slot, pair) in next.iter_mut().zip(&report.contacts) {
///         assert_eq!(pair.user_data[0], 7);
///         assert!(world.pose(pair.b).is_ok());
///         if let Some(prev) = pair.previous {
///             for (i, matched) in pair.previous_points.iter().enumerate() {
///                 if let Some(j) = matched {
///                     slot[i] = impulses[prev as usize][*j as usize]; // warm start
///                 }
///             }
///         }
///         // ... the solver adds to slot[i] here ...
///         slot.iter_mut().for_each(|v| *v += 1.0);
///     }
///     impulses = next;
/// }
/// assert_eq!(impulses[0][0], 3.0); // carried over two steps
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPair {
    /// The body with the smaller slot index.
    pub a: BodyHandle,
    /// The other body.
    pub b: BodyHandle,
    /// The `user_data` of a and of b, as they were at this step.
    pub user_data: [u64; 2],
    /// Normal (a → b), up to 4 points with depths, feature ids and anchors.
    pub manifold: Manifold,
    /// True when some point has `depth >= 0`; false when every point is a speculative
    /// gap within [`Config::margin`](crate::Config::margin). Touch events follow this flag.
    pub touching: bool,
    /// Index of this pair in the previous step's `contacts`, if it was there.
    pub previous: Option<u32>,
    /// Per point of `manifold`: the index of the point it continues in the previous
    /// step's manifold of this pair (`None`: a new point, start its impulse at 0).
    pub previous_points: [Option<u8>; 4],
}

/// Points of consecutive manifolds with different feature ids are still matched when
/// their anchors on a are closer than this fraction of the smaller bounding radius.
pub const MATCH_DISTANCE: f32 = 0.02;

impl ContactPair {
    /// True when point `i` continues a point of the previous step's manifold.
    pub fn persisted(&self, i: usize) -> bool {
        self.previous_points.get(i).is_some_and(|m| m.is_some())
    }
}

/// Whether a pair started or stopped touching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Touching now (some manifold point at `depth >= 0`), not touching (or not paired)
    /// at the previous step. A pair that only comes within the margin (speculative
    /// points) has no event until it touches.
    Started,
    /// Touching at the previous step, not now (apart, or only within the margin).
    Ended(EndCause),
}

/// Why a pair stopped touching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndCause {
    /// The shapes came apart.
    Separated,
    /// One of the bodies was removed.
    Removed,
    /// Their groups no longer let them collide.
    Filtered,
    /// One of the bodies is quarantined this step (any [`QuarantineReason`]: a
    /// non-finite pose, a rotation that is not unit length, or an AABB that overflows).
    Quarantined,
    /// The step found more candidate pairs than
    /// [`Config::pair_budget`](crate::Config::pair_budget) and this pair was not among
    /// the ones kept (it may still touch: it comes back with `Started` at a step within
    /// the budget).
    PairBudget,
}

/// A contact event of a pair `(a, b)`, `a.index() < b.index()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ContactEvent {
    /// The body with the smaller slot index.
    pub a: BodyHandle,
    /// The other body.
    pub b: BodyHandle,
    /// Started or ended, and why.
    pub kind: EventKind,
}

/// Why a body was left out of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuarantineReason {
    /// The pose has a NaN or infinite component.
    NonFinitePose,
    /// The rotation is not a unit quaternion (within 1e-3).
    NonUnitRotation,
    /// The pose is finite but the world AABB is not (coordinates near `f32::MAX`).
    NonFiniteAabb,
}

/// A body left out of this step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Quarantined {
    /// The body.
    pub body: BodyHandle,
    /// What is wrong with it.
    pub reason: QuarantineReason,
}

/// Wall-clock time of each stage of the last step.
///
/// A step in which nothing changed (see [`CollisionWorld::step`](crate::CollisionWorld::step))
/// runs no stage but the broad phase's O(1) check: its time is all in `broad` and
/// `total`, the others are zero.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepTimings {
    /// World AABBs of the moved bodies (parallel) and their hand-over to the broad phase.
    pub aabb: Duration,
    /// Sweep-and-prune (pairs and their diff against the last step), and planning the
    /// carry-over of the pair states (where the added and removed pairs are).
    pub broad: Duration,
    /// Per candidate pair (parallel): its state carried over from last step's list,
    /// the group filter, then SAT and manifold (box–box pairs batched), the match of
    /// the points to last step's, and its contact staged with its touch event.
    pub narrow: Duration,
    /// The staged contacts moved to their final places (parallel), over the contact
    /// buffer of two steps ago, and the events joined in key order.
    pub events: Duration,
    /// The CCD pass (parallel): a walk over the pairs and a cast per pair of a CCD
    /// body not touching at the end of the step; zero while no body has the CCD flag.
    /// (The CCD bodies' swept boxes are counted in `aabb` and `broad`.)
    pub ccd: Duration,
    /// The whole step.
    pub total: Duration,
}

/// The result of [`CollisionWorld::step`](crate::CollisionWorld::step).
///
/// **Order.** `contacts` and `events` are sorted by `(a.index(), b.index())`; a pair
/// has at most one event per step. `quarantined` is sorted by slot index. The content
/// is bit-identical for any number of threads.
#[derive(Clone, Debug, Default)]
pub struct StepReport {
    /// Every pair in contact with its manifold: touching pairs and, with a margin,
    /// speculative ones (see [`ContactPair::touching`]).
    pub contacts: Vec<ContactPair>,
    /// Pairs that started or stopped touching since the previous step.
    pub events: Vec<ContactEvent>,
    /// Bodies left out of this step because of a bad pose.
    pub quarantined: Vec<Quarantined>,
    /// Pairs whose AABBs overlap (before the group filter); at most
    /// [`Config::pair_budget`](crate::Config::pair_budget).
    pub candidate_pairs: usize,
    /// True when this step found more candidate pairs than
    /// [`Config::pair_budget`](crate::Config::pair_budget): only the first ones (in the
    /// broad phase's order, the same for any thread count) were kept and tested, and
    /// the touching pairs that were dropped ended with
    /// [`EndCause::PairBudget`].
    pub pair_budget_exceeded: bool,
    /// Pairs the narrow phase answered by its warm path: a hull–hull or box–hull pair
    /// whose face or edge pair from the previous step was proven to stay, so only that
    /// feature was measured and clipped
    /// ([`QueryPath::Kept`](sepax_narrowphase::QueryPath::Kept); the answer is the full
    /// test's, bit for bit), or its face contact's points worked out again from last
    /// clip's features ([`QueryPath::Replayed`](sepax_narrowphase::QueryPath::Replayed)).
    /// A profiling aid: resting hulls should mostly land here.
    pub kept_pairs: usize,
    /// The time of impact of each pair a CCD body passed through within the step
    /// without touching at its end (see [`CcdHit`] and
    /// [`CollisionWorld::set_ccd`](crate::CollisionWorld::set_ccd)), sorted
    /// by `(a.index(), b.index())`. Empty while no body has the
    /// [CCD flag](crate::BodyDesc::ccd).
    pub ccd_hits: Vec<CcdHit>,
    /// Candidate pairs of a CCD body whose cast refused its input (none should: poses
    /// in a step are valid, motions finite and meshes static); counted, never a panic.
    pub ccd_skipped: usize,
    /// Timings of the stages.
    pub timings: StepTimings,
}

impl StepReport {
    /// Total number of manifold points over all contacts.
    pub fn contact_points(&self) -> usize {
        self.contacts.iter().map(|c| c.manifold.points.len()).sum()
    }

    pub(crate) fn clear(&mut self) {
        self.contacts.clear();
        self.events.clear();
        self.quarantined.clear();
        self.candidate_pairs = 0;
        self.pair_budget_exceeded = false;
        self.kept_pairs = 0;
        self.ccd_hits.clear();
        self.ccd_skipped = 0;
        self.timings = StepTimings::default();
    }
}
