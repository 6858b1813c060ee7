//! What a step returns: [`StepReport`].

use crate::BodyHandle;
use sepax_narrowphase::Manifold;
use std::time::Duration;

/// A touching pair and its manifold.
///
/// `a.index() < b.index()`; the manifold's normal points **from a to b** and
/// `depth > 0` means penetrating. `persisted[i]` is true when point `i` of the
/// manifold has the same feature id as a point of this pair's manifold in the previous
/// step, so a solver can carry that point's impulse over (warm start).
#[derive(Clone, Debug, PartialEq)]
pub struct ContactPair {
    /// The body with the smaller slot index.
    pub a: BodyHandle,
    /// The other body.
    pub b: BodyHandle,
    /// Normal (a → b), up to 4 points with depths and feature ids.
    pub manifold: Manifold,
    /// Per manifold point: matched with last step's point of the same feature id.
    pub persisted: [bool; 4],
}

/// Whether a pair started or stopped touching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Touching now, not touching (or not paired) at the previous step.
    Started,
    /// Touching at the previous step, not now.
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
    /// One of the bodies has a non-finite pose this step.
    Quarantined,
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
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepTimings {
    /// World AABBs of the moved bodies (parallel) and their hand-over to the broad phase.
    pub aabb: Duration,
    /// Sweep-and-prune, group filter, pair order.
    pub broad: Duration,
    /// SAT and manifolds of every candidate pair (parallel), pair bookkeeping.
    pub narrow: Duration,
    /// Contacts and events in their final order.
    pub events: Duration,
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
    /// Every touching pair (within the margin) with its manifold.
    pub contacts: Vec<ContactPair>,
    /// Pairs that started or stopped touching since the previous step.
    pub events: Vec<ContactEvent>,
    /// Bodies left out of this step because of a bad pose.
    pub quarantined: Vec<Quarantined>,
    /// Pairs whose AABBs overlap (before the group filter).
    pub candidate_pairs: usize,
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
        self.timings = StepTimings::default();
    }
}
