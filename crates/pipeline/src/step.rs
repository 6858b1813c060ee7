//! [`CollisionWorld::step`]: one frame, as data.
//!
//! ```text
//! dirty bodies ─► world AABBs (parallel, fixed chunks, collected in order)
//!              ─► bad poses quarantined (proxy removed), others update the broad phase
//!              ─► sweep-and-prune pairs (proxy ids) ─► slot-index keys, sorted
//!                 (kind rule: pairs without a dynamic body dropped)
//!              ─► merge with last step's pair states (linear, both sorted)
//!              ─► per pair, in parallel over fixed chunks: group filter, last step's
//!                 answer if both bodies rest, bounding-sphere test, SAT and manifold
//!                 (each pair owns its cache)
//!              ─► contacts and events in key order (sequential)
//! ```
//!
//! **Determinism.** Every parallel stage computes one independent result per item and
//! writes it to that item's place; chunk boundaries depend on the configured chunk
//! sizes only. Everything order-dependent (broad-phase updates, pair merge, events)
//! runs sequentially in slot or key order. So the report is bit-identical for any
//! thread count.

use crate::pairs::{PairState, pack, unpack};
use crate::world::{Body, CollisionWorld, Hot, Slot};
use crate::{
    BodyHandle, BodyKind, ContactEvent, ContactPair, EndCause, EventKind, MATCH_DISTANCE,
    QuarantineReason, Quarantined, StepReport,
};
use rayon::prelude::*;
use sepax_broadphase::ProxyKind;
use sepax_geometry::Aabb;
use sepax_narrowphase::collide;
use std::time::Instant;

/// What the AABB stage found for one dirty slot.
enum AabbOutcome {
    /// The slot was emptied since it was marked.
    Vacant,
    Valid(Aabb),
    Bad(QuarantineReason),
}

fn aabb_outcome(slot: &Slot, margin: f32) -> AabbOutcome {
    let Some(body) = &slot.body else {
        return AabbOutcome::Vacant;
    };
    let pose = &body.pose;
    if !(pose.translation.is_finite() && pose.rotation.is_finite()) {
        return AabbOutcome::Bad(QuarantineReason::NonFinitePose);
    }
    if !pose.is_valid() {
        return AabbOutcome::Bad(QuarantineReason::NonUnitRotation);
    }
    let aabb = body.shape.aabb(pose).expanded(margin);
    if !aabb.is_valid() {
        return AabbOutcome::Bad(QuarantineReason::NonFiniteAabb);
    }
    AabbOutcome::Valid(aabb)
}

impl CollisionWorld {
    /// Runs one frame and returns its report (also kept in [`report`](Self::report)).
    ///
    /// See [`StepReport`] for the order of contacts and events. A body whose pose is
    /// not finite, whose rotation is not unit length, or whose AABB overflows is left
    /// out of this step (its touching pairs end with `Ended(Quarantined)`) and listed in
    /// `quarantined`; it comes back at the first step after its pose is fixed. A step
    /// that finds more than [`Config::pair_budget`](crate::Config::pair_budget)
    /// candidate pairs keeps the first ones and sets `pair_budget_exceeded`. Nothing
    /// here panics on user data.
    pub fn step(&mut self) -> &StepReport {
        // One hand-over to the world's pool per step: every parallel stage inside runs
        // on that pool without further cross-thread wake-ups.
        let pool = std::sync::Arc::clone(&self.pool);
        pool.install(|| self.step_in_pool());
        &self.report
    }

    fn step_in_pool(&mut self) {
        let start = Instant::now();
        self.step_index += 1;
        let mut report = std::mem::take(&mut self.report);
        // Keep last step's contacts for the resting pairs; reuse the older buffer.
        std::mem::swap(&mut report.contacts, &mut self.prev_contacts);
        report.clear();

        self.update_aabbs(&mut report);
        let t_aabb = Instant::now();

        self.find_candidates();
        report.candidate_pairs = self.candidates.len();
        report.pair_budget_exceeded = self.broad.stats().pair_budget_exceeded;
        let mut ended = Vec::new();
        self.merge_pairs(&mut ended, report.pair_budget_exceeded);
        let t_broad = Instant::now();

        let mut manifolds = std::mem::take(&mut self.manifolds);
        self.narrow_phase(&mut manifolds);
        let t_narrow = Instant::now();

        build_events(
            &mut self.pairs,
            &mut manifolds,
            &ended,
            &self.user_data,
            &mut report,
        );
        self.manifolds = manifolds;
        self.release_pending();
        self.statics_changed = false;
        let t_events = Instant::now();

        report.timings.aabb = t_aabb - start;
        report.timings.broad = t_broad - t_aabb;
        report.timings.narrow = t_narrow - t_broad;
        report.timings.events = t_events - t_narrow;
        report.timings.total = t_events - start;
        self.report = report;
    }

    /// World AABBs of the dirty bodies in parallel, then the broad-phase updates in
    /// slot-list order. Quarantined bodies stay dirty, so they are checked again.
    fn update_aabbs(&mut self, report: &mut StepReport) {
        let dirty = std::mem::take(&mut self.dirty);
        let (slots, margin, chunk) = (&self.slots, self.config.margin, self.config.aabb_chunk);
        let outcomes: Vec<AabbOutcome> = dirty
            .par_iter()
            .with_min_len(chunk)
            .map(|&i| aabb_outcome(&slots[i as usize], margin))
            .collect();
        for (&index, outcome) in dirty.iter().zip(outcomes) {
            let slot = &mut self.slots[index as usize];
            let generation = slot.generation;
            let Some(body) = slot.body.as_mut() else {
                continue;
            };
            match outcome {
                AabbOutcome::Vacant => {}
                AabbOutcome::Valid(aabb) => {
                    body.dirty = false;
                    self.refreshed_at[index as usize] = self.step_index;
                    let hot = &mut self.hot[index as usize];
                    hot.pose = body.pose;
                    hot.shape.clone_from(&body.shape);
                    hot.radius = body.shape.bounding_radius();
                    body.aabb = Some(aabb);
                    let kind = self.kinds[index as usize];
                    place_proxy(
                        body,
                        kind,
                        aabb,
                        index,
                        &mut self.broad,
                        &mut self.proxy_body,
                    );
                }
                AabbOutcome::Bad(reason) => {
                    if let Some(p) = body.proxy.take() {
                        let _ = self.broad.remove(p);
                    }
                    self.dirty.push(index);
                    report.quarantined.push(Quarantined {
                        body: BodyHandle::new(index, generation, self.id),
                        reason,
                    });
                }
            }
        }
        report.quarantined.sort_unstable_by_key(|q| q.body.index());
    }

    /// Sweep-and-prune (in the world's pool), then the pairs as sorted slot keys.
    ///
    /// Kind rule: a pair needs a dynamic body ([`BodyKind::pairs_with`]). The broad
    /// phase never pairs two statics; kinematic bodies are dynamic proxies there, so
    /// their pairs with statics and with each other are dropped here, before they become
    /// candidates: never a pair, no state, no event. With no kinematic body alive the
    /// test is skipped.
    fn find_candidates(&mut self) {
        self.broad.update_pairs();
        self.candidates.clear();
        let kinds = (self.kinematic_bodies > 0).then_some(&self.kinds[..]);
        for &(pa, pb) in self.broad.pairs() {
            let (a, b) = (
                self.proxy_body[pa.0 as usize],
                self.proxy_body[pb.0 as usize],
            );
            if let Some(kinds) = kinds
                && !kinds[a as usize].pairs_with(kinds[b as usize])
            {
                continue;
            }
            self.candidates.push(pack(a.min(b), a.max(b)));
        }
        // Proxy ids usually follow slot indices, so this is nearly sorted already.
        self.candidates.sort_unstable();
    }

    /// Carries last step's pair states over to this step's candidates (both sorted by
    /// key) and lists the touching pairs that are gone (`over_budget`: the candidates
    /// were cut at the pair budget, so a missing pair may have been dropped).
    /// The new states replace `self.pairs`; the old buffer is kept, empty, for reuse.
    fn merge_pairs(&mut self, ended: &mut Vec<(u64, ContactEvent)>, over_budget: bool) {
        let mut old = std::mem::take(&mut self.pairs);
        let mut next = std::mem::take(&mut self.pair_spare);
        next.clear();
        let mut old_iter = old.drain(..).peekable();
        for &key in &self.candidates {
            let mut carried = None;
            while let Some(st) = old_iter.next_if(|st| st.key <= key) {
                if st.key == key {
                    carried = Some(st);
                } else {
                    self.end_gone(st, ended, over_budget);
                }
            }
            // Candidates come from live proxies only: both slots hold live bodies. A
            // carried pair already knows its handles, so only new pairs read `hot` here.
            next.push(carried.unwrap_or_else(|| {
                let (ia, ib) = unpack(key);
                let handle = |i: u32| BodyHandle::new(i, self.hot[i as usize].generation, self.id);
                PairState::new(key, handle(ia), handle(ib))
            }));
        }
        for st in old_iter {
            self.end_gone(st, ended, over_budget);
        }
        self.pairs = next;
        self.pair_spare = old;
    }

    /// A pair that is no longer a candidate: an `Ended` event if it was touching.
    fn end_gone(&self, st: PairState, ended: &mut Vec<(u64, ContactEvent)>, over_budget: bool) {
        if !st.was_touching {
            return;
        }
        let live = |h: BodyHandle| -> Option<&Body> {
            let s = self.slots.get(h.index() as usize)?;
            (s.generation == h.generation()).then_some(s.body.as_ref()?)
        };
        let cause = match (live(st.a), live(st.b)) {
            (Some(a), Some(b)) if a.proxy.is_some() && b.proxy.is_some() => {
                if over_budget {
                    EndCause::PairBudget
                } else {
                    EndCause::Separated
                }
            }
            (Some(_), Some(_)) => EndCause::Quarantined,
            _ => EndCause::Removed,
        };
        ended.push((st.key, ended_event(&st, cause)));
    }

    /// The exact test of every candidate pair, in parallel over fixed chunks.
    /// Fills `manifolds[i]` with the manifold of `self.pairs[i]`.
    fn narrow_phase(&mut self, manifolds: &mut Vec<Option<sepax_narrowphase::Manifold>>) {
        // Every slot is written below, so only the length changes here (no sequential
        // pass over last step's slots).
        manifolds.truncate(self.pairs.len());
        manifolds.resize(self.pairs.len(), None);
        let (hot, chunk) = (&self.hot, self.config.narrow_chunk);
        let context = NarrowContext {
            margin: self.config.margin,
            refreshed: &self.refreshed_at,
            now: self.step_index,
            prev: &self.prev_contacts,
        };
        let pairs = &mut self.pairs;
        {
            pairs
                .par_chunks_mut(chunk)
                .zip(manifolds.par_chunks_mut(chunk))
                .for_each(|(pairs, out)| {
                    for (st, manifold) in pairs.iter_mut().zip(out) {
                        let (ia, ib) = unpack(st.key);
                        let (a, b) = (&hot[ia as usize], &hot[ib as usize]);
                        *manifold = pair_manifold(st, a, b, ia, ib, &context);
                        // The points' predecessors, here in the parallel pass: by id,
                        // else by anchor within MATCH_DISTANCE of the smaller radius.
                        match manifold {
                            Some(m) => {
                                let tolerance = MATCH_DISTANCE * a.radius.min(b.radius);
                                st.matches = st.match_points(m, tolerance);
                            }
                            None => st.forget_points(),
                        }
                    }
                })
        }
    }
}

/// What every pair of the narrow pass reads besides its own state.
struct NarrowContext<'w> {
    margin: f32,
    refreshed: &'w [u64],
    now: u64,
    prev: &'w [ContactPair],
}

/// One pair's manifold: `None` when filtered or apart; last step's answer when neither
/// body changed since it was computed; else the narrow phase with the pair's cache.
fn pair_manifold(
    st: &mut PairState,
    a: &Hot,
    b: &Hot,
    ia: u32,
    ib: u32,
    context: &NarrowContext,
) -> Option<sepax_narrowphase::Manifold> {
    let was_filtered = st.filtered;
    st.filtered = !a.groups.interacts(&b.groups);
    if st.filtered {
        st.has_result = false;
        return None;
    }
    // Neither body changed since last step's answer: same inputs, same bits (a query
    // repeated with the cache it left gives the same answer, see `PairCache`), so copy
    // it.
    let (refreshed, now) = (context.refreshed, context.now);
    let resting = refreshed[ia as usize] < now && refreshed[ib as usize] < now;
    if resting && st.has_result && !was_filtered {
        return context
            .prev
            .get(st.contact as usize)
            .map(|c| c.manifold.clone());
    }
    st.has_result = true;
    // Each shape lies in its bounding sphere: spheres apart by more than the margin
    // mean no contact (the cache keeps its last axis). The radii grow by 1e-4 relative
    // to stay clear of f32 round-off, so the skip never changes an answer.
    let margin = context.margin;
    let reach = (a.radius + b.radius) * 1.0001 + margin;
    if a.pose.translation.distance_squared(b.pose.translation) > reach * reach {
        return None;
    }
    collide(&a.shape, &a.pose, &b.shape, &b.pose, margin, &mut st.cache)
}

fn ended_event(st: &PairState, cause: EndCause) -> ContactEvent {
    ContactEvent {
        a: st.a,
        b: st.b,
        kind: EventKind::Ended(cause),
    }
}

/// Puts a body's AABB into the broad phase (inserting its proxy if it has none).
/// Kinematic bodies move every frame, so they are dynamic proxies; the kind rule of
/// `find_candidates` keeps them from pairing with statics and each other.
fn place_proxy(
    body: &mut Body,
    kind: BodyKind,
    aabb: Aabb,
    index: u32,
    broad: &mut sepax_broadphase::SweepAndPrune,
    proxy_body: &mut Vec<u32>,
) {
    if let Some(p) = body.proxy {
        if broad.update(p, aabb).is_ok() {
            return;
        }
        let _ = broad.remove(p);
        body.proxy = None;
    }
    let kind = match kind {
        BodyKind::Static => ProxyKind::Static,
        BodyKind::Dynamic | BodyKind::Kinematic => ProxyKind::Dynamic,
    };
    // The box was validated above, so insert fails only past u32::MAX proxies; the body
    // then stays out of the broad phase (and so out of every pair).
    if let Ok(p) = broad.insert(aabb, kind) {
        let i = p.0 as usize;
        if proxy_body.len() <= i {
            proxy_body.resize(i + 1, u32::MAX);
        }
        proxy_body[i] = index;
        body.proxy = Some(p);
    }
}

/// Contacts and events in key order: this step's pair states merged with the pairs that
/// ended by leaving the candidate list (both sorted by key). A pair's touch state follows
/// [`Manifold::is_touching`](sepax_narrowphase::Manifold::is_touching): speculative
/// contacts are reported but start no event.
fn build_events(
    next: &mut [PairState],
    manifolds: &mut [Option<sepax_narrowphase::Manifold>],
    ended: &[(u64, ContactEvent)],
    user_data: &[u64],
    report: &mut StepReport,
) {
    let user_data = |h: BodyHandle| user_data[h.index() as usize];
    let mut gone = ended.iter().peekable();
    for (st, manifold) in next.iter_mut().zip(manifolds) {
        while let Some((_, e)) = gone.next_if(|(k, _)| *k < st.key) {
            report.events.push(*e);
        }
        let touching = manifold.as_ref().is_some_and(|m| m.is_touching());
        if touching != st.was_touching {
            let kind = match (touching, st.filtered) {
                (true, _) => EventKind::Started,
                (false, true) => EventKind::Ended(EndCause::Filtered),
                (false, false) => EventKind::Ended(EndCause::Separated),
            };
            report.events.push(ContactEvent {
                a: st.a,
                b: st.b,
                kind,
            });
        }
        st.was_touching = touching;
        let previous = (st.contact != u32::MAX).then_some(st.contact);
        match manifold.take() {
            Some(manifold) => {
                st.contact = report.contacts.len() as u32;
                let previous_points = st.matches;
                report.contacts.push(ContactPair {
                    a: st.a,
                    b: st.b,
                    user_data: [user_data(st.a), user_data(st.b)],
                    manifold,
                    touching,
                    previous,
                    previous_points,
                });
            }
            None => st.contact = u32::MAX,
        }
    }
    report.events.extend(gone.map(|(_, e)| *e));
}
