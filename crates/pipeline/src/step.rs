//! [`CollisionWorld::step`](crate::CollisionWorld::step): one frame, as data.
//!
//! ```text
//! changed bodies ─► world AABBs (parallel, fixed chunks, boxes 4 at a time in SIMD
//!                   lanes, written in order: crate::aabbs)
//!                ─► bad poses quarantined (proxy removed), others update the broad
//!                   phase under their slot index (in parallel parts when every changed
//!                   body is already in it with a valid box, slots in increasing
//!                   order; else one by one, in the order the bodies were marked)
//!                ─► sweep-and-prune: this frame's pairs in slot keys, sorted, with the
//!                   pairs added and removed since the last frame (kind rule applied)
//!                ─► the carry-over planned from those lists (crate::carry)
//!                ─► per pair, in parallel over fixed chunks: its state carried over
//!                   from last step's list (crate::carry), group filter, last step's
//!                   answer if both bodies rest, bounding-sphere test; then the SAT and
//!                   manifold one pair at a time, or box–box pairs batched through the
//!                   SIMD box test with Config::batch_box_pairs (each pair owns its
//!                   cache: crate::narrow); then the chunk's contacts written to the
//!                   report's list if every earlier chunk's are there (crate::join),
//!                   else staged in its own range, and its touch events listed
//!                   (crate::events)
//!                ─► contacts and events in key order: the staged contacts moved to
//!                   their places (parallel, the same chunks), the events joined
//!                   (crate::events)
//!                ─► with CCD bodies: a cast per pair of a CCD body that does not
//!                   touch at the end (parallel, the same chunks: crate::ccd), and
//!                   each changed body's pose kept as the start of its next motion
//! ```
//!
//! A CCD body that moved gets its swept box in the broad phase (crate::sweep); at the
//! next step its box is set back to its plain one if it did not move again.
//!
//! Each stage is a function of its own (`#[inline(never)]`), so a profiler shows the
//! same split as [`StepTimings`](crate::StepTimings).
//!
//! **Determinism.** Every parallel stage computes one independent result per item and
//! writes it to a place fixed before the stage runs (the item's index, or an offset
//! from a prefix sum over chunks; the narrow pass's contacts go to the report's list
//! in chunk order only, whichever chunk finishes first: crate::join); chunk
//! boundaries depend on the configured chunk sizes and the item counts only, never on
//! the thread count. The parallel broad-phase update writes each box to its own slot.
//! What stays sequential (the broad-phase updates when they cannot go in parallel,
//! joining the events of the chunks) runs in marking or key order. So the report is
//! bit-identical for any thread count.

use crate::aabbs::{AabbOutcome, aabb_outcomes, chunk_bodies};
use crate::carry::CarryPlan;
use crate::ccd::{CcdContext, ccd_hits};
use crate::events::{
    ChunkOutcome, ContactIndex, Ended, Settled, StagedEvent, build_events, chunk_code, ended_event,
    placeholder, placeholder_event, settle_chunk,
};
use crate::join::ContactJoin;
use crate::narrow::{NarrowContext, TaskBuffers, chunk_pairs, narrow_chunk};
use crate::pairs::PairState;
use crate::store::BodyStore;
use crate::{BodyHandle, BodyKind, Config, ContactPair, EndCause, Quarantined, StepReport};
use rayon::prelude::*;
use sepax_broadphase::{ProxyId, SweepAndPrune};
use sepax_geometry::Aabb;
use std::time::Instant;

/// What the step keeps from one frame to the next besides the bodies and the broad
/// phase: one state per broad-phase pair, in the broad phase's order, and buffers.
#[derive(Debug, Default)]
pub(crate) struct PairTracker {
    /// One per pair of the broad phase's last frame, in its order.
    states: Vec<PairState>,
    /// Buffers reused across steps (no fresh pages every frame): the pair states being
    /// built, the carry-over's plan, the AABB stage's outcomes and the contacts staged
    /// by the narrow pass's chunks (one slot per pair, see [`crate::events`]).
    spare: Vec<PairState>,
    plan: CarryPlan,
    aabb_outcomes: Vec<AabbOutcome>,
    staged: Vec<ContactPair>,
    /// The touch events staged by the narrow pass's chunks (one slot per pair), what
    /// each chunk staged, and the events of the pairs that left the candidate list.
    staged_events: Vec<StagedEvent>,
    outcomes: Vec<ChunkOutcome>,
    ended: Vec<Ended>,
    /// Last step's contacts (the report's buffers are swapped each step): pairs of two
    /// resting bodies copy their manifold from here.
    prev_contacts: Vec<ContactPair>,
    /// Where the pair states' contact codes point in `prev_contacts`.
    contact_index: ContactIndex,
    /// This step's changed slots (the AABB stage's work list), kept for the end of the
    /// step.
    pub changed: Vec<u32>,
    /// Slots whose broad-phase box is a CCD sweep (set by the last step): while one
    /// is, no step is a resting one, and a slot here that does not move again gets
    /// its plain box back at the next step.
    pub swept: Vec<u32>,
}

/// Everything one step reads and writes, borrowed from the world.
pub(crate) struct StepFrame<'w> {
    pub bodies: &'w mut BodyStore,
    pub broad: &'w mut SweepAndPrune,
    pub pairs: &'w mut PairTracker,
    pub config: &'w Config,
    /// The world's identity, for the handles of new pairs and quarantined bodies.
    pub world: u32,
    /// The stages run their chunks on the current rayon pool; else one after the
    /// other on the calling thread (a world of one thread), the same chunks.
    pub parallel: bool,
}

impl StepFrame<'_> {
    /// The whole frame, timed per stage, into `report` (cleared first).
    pub fn run(mut self, report: &mut StepReport) {
        let start = Instant::now();
        // Keep last step's contacts for the resting pairs; reuse the older buffer.
        // The older buffer is overwritten in place by the event stage.
        std::mem::swap(&mut report.contacts, &mut self.pairs.prev_contacts);
        let mut contacts = std::mem::take(&mut report.contacts);
        report.clear();

        self.update_aabbs(report);
        let t_aabb = Instant::now();

        self.broad.update_pairs();
        report.candidate_pairs = self.broad.pairs().len();
        report.pair_budget_exceeded = self.broad.stats().pair_budget_exceeded;
        let mut ended = std::mem::take(&mut self.pairs.ended);
        ended.clear();
        self.carry_pairs(&mut ended, report.pair_budget_exceeded);
        let t_broad = Instant::now();

        let chunk = chunk_pairs(self.broad.pairs().len(), self.config.narrow_chunk);
        let joined = self.narrow_phase(chunk, &mut contacts);
        let outcomes = &self.pairs.outcomes;
        report.kept_pairs = outcomes.iter().map(|o| o.kept).sum();
        let t_narrow = Instant::now();

        build_events(
            (&self.pairs.staged, &self.pairs.staged_events),
            (chunk, outcomes, joined),
            &ended,
            contacts,
            &mut self.pairs.contact_index,
            report,
        );
        self.pairs.ended = ended;
        let t_events = Instant::now();

        if self.bodies.any_ccd() {
            let context = CcdContext {
                bodies: self.bodies,
                now: self.bodies.now(),
            };
            report.ccd_skipped = ccd_hits(
                &self.pairs.states,
                (self.config.narrow_chunk, self.parallel),
                &context,
                &mut report.ccd_hits,
            );
        }
        self.keep_start_poses();
        self.bodies.end_step();
        let t_ccd = Instant::now();

        report.timings.aabb = t_aabb - start;
        report.timings.broad = t_broad - t_aabb;
        report.timings.narrow = t_narrow - t_broad;
        report.timings.events = t_events - t_narrow;
        report.timings.ccd = t_ccd - t_events;
        report.timings.total = t_ccd - start;
    }

    /// World AABBs of the changed bodies in parallel, then the broad-phase updates in
    /// the order the bodies were marked. Quarantined bodies are marked again, so they
    /// are checked again at the next step.
    #[inline(never)] // a stage of its own in profiles
    fn update_aabbs(&mut self, report: &mut StepReport) {
        let changed = (self.bodies).begin_step(std::mem::take(&mut self.pairs.changed));
        let chunk = chunk_bodies(changed.len(), self.config.aabb_chunk);
        let (bodies, margin) = (&*self.bodies, self.config.margin);
        let mut outcomes = std::mem::take(&mut self.pairs.aabb_outcomes);
        // Every slot is written below: only the length matters.
        outcomes.truncate(changed.len());
        outcomes.resize(changed.len(), AabbOutcome::Vacant);
        let work =
            |(slots, out): (&[u32], &mut [AabbOutcome])| aabb_outcomes(bodies, slots, margin, out);
        if self.parallel {
            (changed.par_chunks(chunk))
                .zip(outcomes.par_chunks_mut(chunk))
                .for_each(work);
        } else {
            changed
                .chunks(chunk)
                .zip(outcomes.chunks_mut(chunk))
                .for_each(work);
        }
        let unswept = std::mem::take(&mut self.pairs.swept);
        if !self.update_boxes_in_parallel(&changed, &outcomes) {
            self.place_outcomes(&changed, &outcomes, report);
        }
        self.pairs.aabb_outcomes = outcomes;
        self.unsweep(&unswept, margin);
        self.pairs.changed = changed;
        report.quarantined.sort_unstable_by_key(|q| q.body.index());
    }

    /// The common frame's broad-phase update in parallel: when every changed body has
    /// a valid box and is in the broad phase already, and the changed slots come in
    /// increasing order (bodies posed in order), their boxes go in through
    /// [`SweepAndPrune::update_sorted`], which checks all of that in its parallel
    /// parts. Returns false, having changed nothing, when it does not apply (new,
    /// vacant, quarantined or swept bodies: their outcome reads as a NaN box, which is
    /// refused; slots out of order).
    fn update_boxes_in_parallel(&mut self, changed: &[u32], outcomes: &[AabbOutcome]) -> bool {
        let entry = |k: usize| {
            let aabb = match outcomes[k] {
                AabbOutcome::Valid(aabb, _) => aabb,
                _ => Aabb::new(glam::Vec3::NAN, glam::Vec3::NAN),
            };
            (ProxyId(changed[k]), aabb)
        };
        self.broad.update_sorted(changed.len(), entry) == Ok(true)
    }

    /// The broad-phase update body by body, in the order the bodies were marked: box
    /// updates, insertions of new bodies, and removals of quarantined ones.
    fn place_outcomes(
        &mut self,
        changed: &[u32],
        outcomes: &[AabbOutcome],
        report: &mut StepReport,
    ) {
        for (&index, &outcome) in changed.iter().zip(outcomes) {
            let key = ProxyId(index);
            match outcome {
                AabbOutcome::Vacant => {}
                AabbOutcome::Valid(aabb, kind) => place_proxy(self.broad, key, kind, aabb),
                AabbOutcome::Swept(aabb, kind) => {
                    place_proxy(self.broad, key, kind, aabb);
                    self.pairs.swept.push(index);
                }
                AabbOutcome::Bad(reason) => {
                    let _ = self.broad.remove(key);
                    self.bodies.mark_changed(index);
                    if let Some(body) = self.bodies.live(index) {
                        report.quarantined.push(Quarantined {
                            body: BodyHandle::new(index, body.generation, self.world),
                            reason,
                        });
                    }
                }
            }
        }
    }

    /// Gives the bodies swept at the last step that did not move since their plain
    /// box back (in the order they were swept, after this step's changed bodies).
    fn unsweep(&mut self, swept: &[u32], margin: f32) {
        let now = self.bodies.now();
        for &index in swept {
            let Some(body) = self.bodies.live(index) else {
                continue;
            };
            let key = ProxyId(index);
            if self.bodies.changed_in_step(index, now) || !self.broad.contains(key) {
                continue;
            }
            let _ = self
                .broad
                .update(key, body.shape.aabb(&body.pose).expanded(margin));
        }
    }

    /// Keeps, for the next step's motions, the pose each changed body took part in
    /// this step with (`None`: quarantined); nothing while the world keeps no such
    /// poses (no body ever asked for CCD).
    fn keep_start_poses(&mut self) {
        if self.bodies.froms().is_empty() {
            return;
        }
        for &index in &self.pairs.changed {
            let pose = self
                .bodies
                .live(index)
                .filter(|_| self.broad.contains(ProxyId(index)))
                .map(|b| b.pose);
            self.bodies.set_from(index, pose);
        }
    }

    /// Plans the carry-over of last step's pair states to this step's pairs from the
    /// broad phase's diff indices (see [`crate::carry`]; the states are moved by the
    /// narrow pass, chunk by chunk) and lists the touching pairs that are gone
    /// (`over_budget`: the pairs were cut at the pair budget, so a missing pair may
    /// have been dropped), in key order, each with its place among the new pairs.
    #[inline(never)] // a stage of its own in profiles
    fn carry_pairs(&mut self, ended: &mut Vec<Ended>, over_budget: bool) {
        let broad = &*self.broad;
        let (added_at, removed_at) = (broad.pairs_added_at(), broad.pairs_removed_at());
        self.pairs.plan.locate(added_at, removed_at);
        let added = broad.pairs_added();
        for (k, &i) in self.pairs.plan.removed_at().iter().enumerate() {
            // The states are last frame's pairs, in its order, so every removed index
            // is in range (`get` only so that a broken invariant cannot panic here).
            let Some(st) = self.pairs.states.get(i) else {
                continue;
            };
            if !st.was_touching {
                continue;
            }
            // Its place among the new pairs: the kept pairs before it (`i − k`, the
            // old pairs before it less the removed ones) and the added pairs below it
            // (a short list).
            let key = st.key();
            let place = i - k + added.partition_point(|p| *p < key);
            self.end_gone(st, place, ended, over_budget);
        }
    }

    /// The `Ended` event of a touching pair that is no longer a candidate, placed
    /// before pair `place` of this step's pairs (the first with a larger key).
    fn end_gone(&self, st: &PairState, place: usize, ended: &mut Vec<Ended>, over_budget: bool) {
        let live = |h: BodyHandle| self.bodies.get(h.index(), h.generation()).is_some();
        let in_broad = |h: BodyHandle| self.broad.contains(ProxyId(h.index()));
        let cause = if !(live(st.a) && live(st.b)) {
            EndCause::Removed
        } else if !(in_broad(st.a) && in_broad(st.b)) {
            EndCause::Quarantined
        } else if over_budget {
            EndCause::PairBudget
        } else {
            EndCause::Separated
        };
        ended.push((place, ended_event(st, cause)));
    }

    /// The exact test of every candidate pair, in parallel over fixed chunks of
    /// `chunk` pairs (box–box pairs batched within each chunk, see [`crate::narrow`]).
    /// Each chunk takes its pairs' states over from last step's list (an added pair
    /// gets a fresh state, any other pair its own: [`CarryPlan::carry_chunk`]), tests
    /// them into a manifold scratch of its own, then settles them (their contacts
    /// written to `contacts`, the report's list, when every chunk before it is there
    /// already, else staged in the chunk's range of the staging list: see
    /// [`ContactJoin`]; touch flags and events: [`settle_chunk`]), all while the
    /// chunk's states are in cache. What each chunk settled goes to `pairs.outcomes`.
    /// Returns the number of chunks whose contacts are in `contacts` (all, on one
    /// thread: `usize::MAX`).
    ///
    /// Carrying and settling inside the pass rather than in passes of their own saves
    /// two reads and writes of every state (80 bytes a pair) per step.
    #[inline(never)] // a stage of its own in profiles
    fn narrow_phase(&mut self, chunk: usize, contacts: &mut Vec<ContactPair>) -> usize {
        let mut old = std::mem::take(&mut self.pairs.states);
        let mut states = std::mem::take(&mut self.pairs.spare);
        let pairs = self.broad.pairs();
        let plan = &self.pairs.plan;
        // When no pair came or went, last step's list is this step's, updated in place
        // (the spare list, unread, stays the spare): no copy of every state. `stress
        // --scene hull-pile --bodies 2001 --frames 200`, five runs alternated with the
        // carrying build, geometric means: step 1.093 → 1.044 ms on 1 thread, 0.602 →
        // 0.574 ms on 2 (callgrind: the copies were 102 of 5,093 instructions a pair).
        let in_place = plan.keeps_every_state(old.len(), pairs.len());
        if in_place {
            std::mem::swap(&mut old, &mut states);
        }
        let mut staged = std::mem::take(&mut self.pairs.staged);
        let mut staged_events = std::mem::take(&mut self.pairs.staged_events);
        let mut outcomes = std::mem::take(&mut self.pairs.outcomes);
        // Every state is written below, so only the lengths change here (no sequential
        // pass over last step's slots); a staged slot is written before it is read.
        let fill = PairState::new(BodyHandle::new(0, 0, 0), BodyHandle::new(0, 0, 0));
        states.truncate(pairs.len());
        states.resize(pairs.len(), fill);
        // The staging list serves the parallel chunks only (see `Settled`).
        if self.parallel {
            staged.truncate(pairs.len());
            if staged.len() < pairs.len() {
                staged.resize(pairs.len(), placeholder());
            }
        }
        staged_events.truncate(pairs.len());
        staged_events.resize(pairs.len(), placeholder_event());
        // Pairs come from live proxies only: both slots hold live bodies.
        let (store, world) = (&*self.bodies, self.world);
        let handle = |p: ProxyId| {
            let generation = store.live(p.0).map_or(0, |b| b.generation);
            BodyHandle::new(p.0, generation, world)
        };
        let fresh = |(a, b): (ProxyId, ProxyId)| PairState::new(handle(a), handle(b));
        let (bodies, changed_at, now) = self.bodies.narrow_view();
        let prev_index = &self.pairs.contact_index;
        let context = NarrowContext {
            bodies,
            margin: self.config.margin,
            changed_at,
            now,
            prev: &self.pairs.prev_contacts,
            prev_index,
            batch_boxes: self.config.batch_box_pairs,
            hulls: self.bodies.any_hulls(),
        };
        let joined;
        // The batch buffers and the manifold scratch are cleared per chunk: which
        // task's buffers a chunk uses changes nothing. A task takes its thread's
        // buffers (kept from earlier steps, see `TaskBuffers`).
        let buffers = || TaskBuffers::take(chunk);
        // A chunk's test: its states carried over, its pairs tested into its task's
        // scratch; then its settling (see `settle_chunk`).
        let test = |buffers: &mut TaskBuffers, c: usize, states: &mut [PairState]| {
            if !in_place {
                plan.carry_chunk(&old, pairs, c * chunk, states, &fresh);
            }
            let (batch, scratch) = buffers.parts(states.len());
            narrow_chunk(states, scratch, batch, &context)
        };
        let settle =
            |buffers: &mut TaskBuffers, c: usize, slots: ChunkSlots<'_>, settled: Settled<'_>| {
                let (states, events) = slots;
                let (_, scratch) = buffers.parts(states.len());
                settle_chunk(
                    states,
                    scratch,
                    (c * chunk, chunk_code(c, chunk)),
                    (settled, events),
                    store,
                    prev_index,
                )
            };
        let outcome = |kept, (contacts, events)| ChunkOutcome {
            contacts,
            kept,
            events,
        };
        if self.parallel {
            // A chunk that starts with every chunk before it in the report's list
            // writes to it; any other is staged in its range, for the event stage
            // to copy (`ContactJoin`).
            let join = ContactJoin::new(contacts);
            (states.par_chunks_mut(chunk))
                .zip(staged_events.par_chunks_mut(chunk))
                .zip(staged.par_chunks_mut(chunk))
                .enumerate()
                .map_init(buffers, |buffers, (c, ((states, events), staged))| {
                    let kept = test(buffers, c, states);
                    let settled = join.settle(c, staged, |settled| {
                        settle(buffers, c, (states, events), settled)
                    });
                    outcome(kept, settled)
                })
                .collect_into_vec(&mut outcomes);
            joined = join.joined().0;
        } else {
            // In key order, each chunk writing its contacts into the report's list
            // after the earlier chunks' (over the buffer's old entries).
            joined = usize::MAX;
            let mut buffers = buffers();
            outcomes.clear();
            let mut placed = 0;
            let chunks = (states.chunks_mut(chunk)).zip(staged_events.chunks_mut(chunk));
            for (c, (states, events)) in chunks.enumerate() {
                let kept = test(&mut buffers, c, states);
                let list = &mut *contacts;
                let settled = Settled::Placed { list, at: placed };
                let settled = settle(&mut buffers, c, (states, events), settled);
                placed += settled.0;
                outcomes.push(outcome(kept, settled));
            }
            contacts.truncate(placed);
        }
        self.pairs.states = states;
        self.pairs.spare = old;
        self.pairs.staged = staged;
        self.pairs.staged_events = staged_events;
        self.pairs.outcomes = outcomes;
        joined
    }
}

/// One chunk of the narrow pass as its settling gets it: its pair states and its
/// range of the staged events.
type ChunkSlots<'s> = (&'s mut [PairState], &'s mut [StagedEvent]);

/// Puts a body's AABB into the broad phase under its slot index (inserting its proxy
/// if it has none).
fn place_proxy(broad: &mut SweepAndPrune, key: ProxyId, kind: BodyKind, aabb: Aabb) {
    if broad.update(key, aabb).is_ok() {
        return;
    }
    // The box was validated above, so this fails only if the slot index is u32::MAX;
    // the body then stays out of the broad phase (and so out of every pair).
    let _ = broad.insert(key, aabb, kind);
}
