//! The narrow pass of the step: every candidate pair's manifold, in parallel over
//! fixed chunks, with box–box pairs batched when
//! [`Config::batch_box_pairs`](crate::Config::batch_box_pairs) is on (the default).
//!
//! Per chunk of [`Config::narrow_chunk`](crate::Config::narrow_chunk) pairs (fewer
//! when the step has few pairs, so every thread gets some: [`chunk_pairs`]), in three
//! sweeps:
//!
//! 1. **Triage**, pair by pair: a pair the groups forbid gets `None`; a pair whose two
//!    bodies both rest copies last step's answer; a pair whose bounding spheres are
//!    apart gets `None`. What is left needs the SAT. With batching on, a box–box pair
//!    is queued for the batch (its [`BoxBoxPair`] and a copy of its cache); any other
//!    pair (every pair, with batching off) runs
//!    [`collide`](sepax_narrowphase::collide) on the spot. The loop asks for the
//!    bodies of the pair [`PREFETCH_PAIRS`] ahead before it reads the pair in hand
//!    (see `prefetch`): the bodies of a pair sit anywhere in the body array.
//! 2. **The box batch**: the queued pairs go through [`collide_box_pairs_scattered`]
//!    together, which tests them 8 at a time in SIMD lanes (see that function's
//!    module), builds each pair's manifold straight in the pair's slot and hands its
//!    cache back one by one.
//! 3. **Point matching**, pair by pair: each manifold's points are matched to last
//!    step's (for warm starting) — a batched pair's as soon as the batch hands it
//!    back, the others' right after their `collide`.
//!
//! (Before these sweeps the chunk's states are carried over from last step's list,
//! `crate::carry`; after them its manifolds are settled into staged contacts and touch
//! events, `crate::events::settle_chunk`. The manifolds live in a scratch of the
//! chunk's task meanwhile.)
//!
//! **Why batch, and why per chunk.** The SAT of a box pair spends most of its
//! arithmetic on b's frame relative to a and on 15 axis separations; the wide kernel
//! does both for 8 pairs at once. Gathering within the chunk keeps the batch small
//! (≤ `narrow_chunk` pairs, on the stack of the task that owns the chunk) and leaves
//! the parallel split as it was.
//!
//! **Margin.** `Config::margin` goes to every query: a pair apart within it comes
//! back as a speculative contact whose depth is minus the true distance (polytope
//! pairs are measured by GJK, warm from the pair's cache, in the batch as one by one;
//! see `sepax_narrowphase::collide`). The bounding-sphere skip never drops one: spheres
//! apart by more than the margin hold shapes apart by more.
//!
//! **Determinism.** `collide_box_pairs_scattered` gives each pair bit for bit the answer of
//! `collide` on that pair alone, whichever bundle or lane it lands in and whichever
//! SIMD level the CPU takes. So the batch changes no bit, and as the chunks are cut
//! by `narrow_chunk` alone, neither does the thread count.

use crate::events::ContactIndex;
use crate::pairs::{self, PairState};
use crate::prefetch::{PREFETCH_PAIRS, prefetch, prefetch_hull_header, prefetch_range};
use crate::store::Body;
use crate::{ContactPair, MATCH_DISTANCE};
use sepax_geometry::{Cuboid, Shape};
use sepax_narrowphase::{
    BoxBoxPair, Manifold, PairCache, collide_box_pairs_scattered, collide_into,
};
use std::cell::Cell;

/// How many pairs ahead the narrow stage asks for a hull's header, and then for the
/// start of its arrays.
const HULL_HEADER_PAIRS: usize = 5;
const HULL_ARRAY_PAIRS: usize = 2;

/// What every pair of the narrow pass reads besides its own state.
pub(crate) struct NarrowContext<'w> {
    pub bodies: &'w [Body],
    pub margin: f32,
    /// Per slot, the step that first saw the current pose and shape.
    pub changed_at: &'w [u64],
    pub now: u64,
    pub prev: &'w [ContactPair],
    /// Where each pair state's last contact is in `prev`.
    pub prev_index: &'w ContactIndex,
    /// Box–box pairs go through the batch ([`Config::batch_box_pairs`](crate::Config)).
    pub batch_boxes: bool,
    /// Some body is a convex hull: ask for hull data ahead ([`prefetch_hull_data`]).
    pub hulls: bool,
}

/// The box–box pairs of one chunk that need the SAT, gathered for
/// [`collide_box_pairs_scattered`]; reused from chunk to chunk by the task that runs them.
pub(crate) struct BoxBatch {
    /// Index of each queued pair within its chunk.
    at: Vec<usize>,
    /// The queued pairs are the first `at.len()`; the slots after them are kept from
    /// earlier batches, to be written over (see [`push`](Self::push)).
    pairs: Vec<BoxBoxPair>,
    caches: Vec<PairCache>,
}

/// A narrow-pass task's buffers: the box batch and the manifold scratch (one slot per
/// pair of a chunk, `None` between chunks). Each thread keeps one set from step to
/// step (`take` hands it out, and it goes back to its thread when the task drops it),
/// so that a step allocates nothing for them once they have grown to the chunk's
/// size: about 50 KB a thread at the default chunk of 128 pairs (the scratch's 128
/// manifold slots, the batch's pairs and caches), held while the thread lives. A
/// thread that runs two tasks at once (a task waiting in the pool picks up another)
/// gives the second fresh buffers; either set may be the one kept.
pub(crate) struct TaskBuffers {
    buffers: Option<(BoxBatch, Vec<Option<Manifold>>)>,
}

thread_local! {
    static SPARE_BUFFERS: Cell<Option<(BoxBatch, Vec<Option<Manifold>>)>> =
        const { Cell::new(None) };
}

impl TaskBuffers {
    /// The calling thread's buffers, or new ones for chunks of `chunk` pairs.
    pub(crate) fn take(chunk: usize) -> TaskBuffers {
        let kept = SPARE_BUFFERS.try_with(Cell::take).ok().flatten();
        let buffers = kept.unwrap_or_else(|| (BoxBatch::for_chunk(chunk), Vec::new()));
        TaskBuffers {
            buffers: Some(buffers),
        }
    }

    /// The batch and the first `pairs` slots of the scratch (grown if needed: slots
    /// are `None` between chunks and written by the pass, so they are only ever
    /// added, never cleared).
    pub(crate) fn parts(&mut self, pairs: usize) -> (&mut BoxBatch, &mut [Option<Manifold>]) {
        let (batch, scratch) = self
            .buffers
            .get_or_insert_with(|| (BoxBatch::for_chunk(pairs), Vec::new()));
        if scratch.len() < pairs {
            scratch.resize(pairs, None);
        }
        (batch, &mut scratch[..pairs])
    }
}

impl Drop for TaskBuffers {
    fn drop(&mut self) {
        if let Some(buffers) = self.buffers.take() {
            // A thread being torn down has no slot left: the buffers are freed.
            let _ = SPARE_BUFFERS.try_with(|spare| spare.set(Some(buffers)));
        }
    }
}

/// Queued box pairs are run once this many wait: the whole default chunk (16 full
/// bundles). Running the batch once per chunk keeps the triage's code and the box
/// test's apart (they do not fit in the L1 instruction cache together); since the
/// batch hands each manifold straight to its slot, there is no scratch of manifolds
/// (224 B each) to push the chunk's data out of the L1 data cache. Measured on the
/// soup scene (`stress --scene soup --bodies 10000 --frames 100 --threads 1`, medians
/// of 15 alternating runs, narrow stage): 16 pairs 2.89 ms, 64 pairs 2.96 ms, 128
/// pairs 2.74 ms (one pair at a time: 2.79 ms).
const BATCH_PAIRS: usize = 128;

/// A step with few pairs is cut into at least this many chunks, so that every thread
/// gets some (the large-world scene's ~120 pairs were one chunk: one thread).
const MIN_CHUNKS: usize = 8;

/// No chunk is cut smaller than this (two full bundles of the box batch), whatever
/// [`MIN_CHUNKS`] asks.
const MIN_CHUNK_PAIRS: usize = 16;

/// The chunk of a step with `pairs` candidate pairs: `configured`
/// ([`Config::narrow_chunk`](crate::Config::narrow_chunk), at least 1), cut down to
/// `⌈pairs / MIN_CHUNKS⌉` but not below [`MIN_CHUNK_PAIRS`] when the pairs are few.
/// It depends on the pair count and the configuration alone, never on the thread
/// count, and no pair's answer depends on its chunk (see the module docs).
pub(crate) fn chunk_pairs(pairs: usize, configured: usize) -> usize {
    let finer = pairs.div_ceil(MIN_CHUNKS).max(MIN_CHUNK_PAIRS);
    configured.min(finer).max(1)
}

/// Fills `out[i]` with the manifold of `states[i]` and updates the pair's cache and
/// point matches: one chunk of the narrow pass (see the [module docs](self)). Returns
/// the number of pairs the narrow phase's warm path answered ([`QueryPath::kept_feature`](sepax_narrowphase::QueryPath::kept_feature)).
pub(crate) fn narrow_chunk(
    states: &mut [PairState],
    out: &mut [Option<Manifold>],
    batch: &mut BoxBatch,
    context: &NarrowContext,
) -> usize {
    batch.clear();
    let mut kept = 0;
    let bodies = context.bodies;
    for i in 0..states.len() {
        if let Some(ahead) = states.get(i + PREFETCH_PAIRS) {
            prefetch(&bodies[ahead.a.index() as usize]);
            prefetch(&bodies[ahead.b.index() as usize]);
        }
        if context.hulls {
            prefetch_hull_data(states, bodies, i);
        }
        let st = &mut states[i];
        let (a, b) = (
            &bodies[st.a.index() as usize],
            &bodies[st.b.index() as usize],
        );
        let manifold = &mut out[i];
        if triage(st, a, b, context, manifold) {
            if let (true, Shape::Cuboid(box_a), Shape::Cuboid(box_b)) =
                (context.batch_boxes, &a.shape, &b.shape)
            {
                batch.push(i, st.cache, (a, b), (box_a, box_b));
                if batch.at.len() == BATCH_PAIRS {
                    batch.run(states, out, context);
                }
                continue;
            }
            let margin = context.margin;
            let (cache, shapes) = (&mut st.cache, (&a.shape, &b.shape));
            let path = collide_into(
                shapes.0, &a.pose, shapes.1, &b.pose, margin, cache, manifold,
            );
            kept += path.kept_feature() as usize;
        }
        match_points(st, manifold, context);
    }
    batch.run(states, out, context);
    kept
}

/// Asks for the hull data of the pairs ahead of pair `i`: a hull's arrays sit behind
/// two pointers (the body's shape, the hull's arrays), so its header a few pairs
/// ahead, the start of the arrays the query scans first once the header is in (see
/// `prefetch`). Measured on `stress --scene hulls --bodies 2000 --frames 300`, eight
/// runs alternated with the build without it: the narrow stage's median 8.18 → 7.05
/// ms on one thread; on two, 3.98 → 3.87 ms in eight runs and 4.27 → 4.27 in six
/// more (within the noise). Box scenes skip it (no hull in the world). With the
/// tables in one buffer (`sepax-geometry`'s `hull/tables.rs`), asking for the plane
/// blocks (the face query's first reads) and the planes too, 8 lines each: 5.16 →
/// 4.91 ms (geometric means of three sets of 6, 6 and 10 alternated runs, 1 thread);
/// the vertices as well: 5.05 ms; the header's first 3 lines instead of 8: +8 %.
#[inline(always)]
fn prefetch_hull_data(states: &[PairState], bodies: &[Body], i: usize) {
    let hulls_at = |ahead: usize| {
        states.get(i + ahead).into_iter().flat_map(|st| {
            [st.a, st.b]
                .into_iter()
                .filter_map(|h| match &bodies[h.index() as usize].shape {
                    Shape::ConvexHull(hull) => Some(hull),
                    _ => None,
                })
        })
    };
    for hull in hulls_at(HULL_HEADER_PAIRS) {
        prefetch_hull_header(hull);
    }
    for hull in hulls_at(HULL_ARRAY_PAIRS) {
        for (start, bytes) in hull.query_arrays() {
            prefetch_range(start, bytes, 8);
        }
    }
}

impl BoxBatch {
    /// Room for one full batch of a chunk of `chunk` pairs, allocated once per task
    /// (pushing into empty vectors regrew them a few times per task every step).
    pub(crate) fn for_chunk(chunk: usize) -> BoxBatch {
        let room = chunk.min(BATCH_PAIRS);
        BoxBatch {
            at: Vec::with_capacity(room),
            pairs: Vec::with_capacity(room),
            caches: Vec::with_capacity(room),
        }
    }

    fn clear(&mut self) {
        self.at.clear();
        self.caches.clear();
    }

    /// Queues pair `at` of the chunk: its cache, its boxes and poses, copied field by
    /// field from the bodies into a slot kept from earlier batches. (A pair built on
    /// the stack and then pushed was read back with wider loads than the stores that
    /// built it, and waited on them: a failed store forward, 39% of the triage loop's
    /// time in `perf annotate` of `stress --scene soup --bodies 10000 --threads 1`.)
    fn push(
        &mut self,
        at: usize,
        cache: PairCache,
        (a, b): (&Body, &Body),
        (box_a, box_b): (&Cuboid, &Cuboid),
    ) {
        let n = self.at.len();
        self.at.push(at);
        self.caches.push(cache);
        match self.pairs.get_mut(n) {
            Some(slot) => {
                slot.a = *box_a;
                slot.pose_a = a.pose;
                slot.b = *box_b;
                slot.pose_b = b.pose;
            }
            None => self.pairs.push(BoxBoxPair {
                a: *box_a,
                pose_a: a.pose,
                b: *box_b,
                pose_b: b.pose,
            }),
        }
    }

    /// Runs the queued pairs through [`collide_box_pairs_scattered`] (each manifold
    /// built in its pair's slot), hands each pair its cache back, matches its points,
    /// and empties the queue.
    fn run(
        &mut self,
        states: &mut [PairState],
        out: &mut [Option<Manifold>],
        context: &NarrowContext,
    ) {
        if self.at.is_empty() {
            return;
        }
        // Each manifold is built in its pair's slot and matched while warm.
        collide_box_pairs_scattered(
            &self.pairs[..self.at.len()],
            context.margin,
            &mut self.caches,
            out,
            &self.at,
            |k, cache, manifold| {
                let st = &mut states[self.at[k]];
                st.cache = *cache;
                match_points(st, manifold, context);
            },
        );
        self.clear();
    }
}

/// The points' predecessors in last step's manifold of the pair (its contact in
/// `context.prev`, none when it had no contact): by id, else by anchor within
/// `MATCH_DISTANCE` of the smaller radius.
fn match_points(st: &mut PairState, manifold: &Option<Manifold>, context: &NarrowContext) {
    let Some(m) = manifold else {
        return;
    };
    let bodies = context.bodies;
    let (a, b) = (
        &bodies[st.a.index() as usize],
        &bodies[st.b.index() as usize],
    );
    let tolerance = MATCH_DISTANCE * a.radius.min(b.radius);
    let prev = (context.prev_index.contact(st.contact))
        .and_then(|c| context.prev.get(c))
        .map_or(&[][..], |c| &c.manifold.points[..]);
    st.matches = pairs::match_points(prev, &m.points, tolerance);
}

/// One pair before the SAT: writes its answer to `out` and returns false when it is
/// known without the SAT — `None` when filtered or the bounding spheres are apart,
/// last step's answer when neither body changed since it was computed; else writes
/// `None` and returns true (the pair needs the SAT).
fn triage(
    st: &mut PairState,
    a: &Body,
    b: &Body,
    context: &NarrowContext,
    out: &mut Option<Manifold>,
) -> bool {
    *out = None;
    let was_filtered = st.filtered;
    st.filtered = !a.groups.interacts(&b.groups);
    if st.filtered {
        st.has_result = false;
        return false;
    }
    // Neither body changed since last step's answer: same inputs, same bits (a query
    // repeated with the cache it left gives the same answer, see `PairCache`), so copy
    // it.
    let (changed_at, now) = (context.changed_at, context.now);
    let (ia, ib) = (st.a.index() as usize, st.b.index() as usize);
    let resting = changed_at[ia] < now && changed_at[ib] < now;
    if resting && st.has_result && !was_filtered {
        let prev = context.prev_index.contact(st.contact);
        if let Some(c) = prev.and_then(|i| context.prev.get(i)) {
            *out = Some(c.manifold);
        }
        return false;
    }
    st.has_result = true;
    // Each shape lies in its bounding sphere: spheres apart by more than the margin
    // mean no contact (the cache keeps its last axis). The radii grow by 1e-4 relative
    // to stay clear of f32 round-off, so the skip never changes an answer.
    let margin = context.margin;
    let reach = (a.radius + b.radius) * 1.0001 + margin;
    if a.pose.translation.distance_squared(b.pose.translation) > reach * reach {
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_pairs_are_cut_into_several_chunks_many_into_configured_ones() {
        for configured in [0, 1, 16, 128, 1000] {
            for pairs in [
                0, 1, 15, 16, 17, 100, 123, 128, 129, 1023, 1024, 1025, 100_000,
            ] {
                let chunk = chunk_pairs(pairs, configured);
                assert!(
                    chunk >= 1 && chunk <= configured.max(1),
                    "{pairs} {configured}"
                );
                if pairs >= MIN_CHUNKS * configured {
                    assert_eq!(chunk, configured.max(1), "{pairs} {configured}");
                }
                // At least `MIN_CHUNKS` chunks unless that would go below the floor.
                let chunks = pairs.div_ceil(chunk);
                assert!(
                    chunks
                        >= MIN_CHUNKS.min(pairs.div_ceil(MIN_CHUNK_PAIRS.min(configured.max(1)))),
                    "{pairs} pairs, {configured}: {chunks} chunks of {chunk}"
                );
            }
        }
        assert_eq!(chunk_pairs(123, 128), 16);
        assert_eq!(chunk_pairs(10_000, 128), 128);
    }
}
