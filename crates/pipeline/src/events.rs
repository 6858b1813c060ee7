//! The event stage of the step: contacts and touch events in key order, in parallel.
//!
//! Input: this step's pair states and manifolds (one per pair, in key order) and the
//! pairs that ended by leaving the candidate list (each with its place among the
//! pairs). Output: `contacts` (one per pair with a manifold, in key order) and
//! `events` (in key order, an ended pair's event before the pair of its place).
//!
//! In parallel over the narrow pass's chunks (fixed by
//! [`Config::narrow_chunk`](crate::Config::narrow_chunk) and the pair count, see
//! `narrow::chunk_pairs`):
//!
//! 1. the narrow pass has counted each chunk's manifolds while they were in cache; a
//!    prefix sum gives each chunk the index of its first contact, and the contact
//!    list is cut into one slice per chunk;
//! 2. each chunk moves its manifolds into its slice of contacts (the pair state keeps
//!    the contact's index for the next step) and lists its touch events.
//!
//! Then, sequentially, the chunks' event lists (short: events come on changes only)
//! are joined, with the ended pairs' events merged in at their places. The chunking
//! depends on the pair count only, and each result goes to a place fixed by the
//! prefix sums, so the report is the same on any thread count.

use crate::narrow::ChunkCounts;
use crate::pairs::PairState;
use crate::store::BodyStore;
use crate::{BodyHandle, ContactEvent, ContactPair, EndCause, EventKind, StepReport};
use glam::Vec3;
use rayon::prelude::*;
use sepax_narrowphase::{Feature, Manifold};
use smallvec::SmallVec;

/// An ended pair's event and its place among this step's pairs: the number of pairs
/// whose key is below the ended pair's, so the event goes right before pair `place`.
pub(crate) type Ended = (usize, ContactEvent);

/// The event of a pair that ended for `cause`.
pub(crate) fn ended_event(st: &PairState, cause: EndCause) -> ContactEvent {
    ContactEvent {
        a: st.a,
        b: st.b,
        kind: EventKind::Ended(cause),
    }
}

/// Fills `report.contacts` and `report.events` (see the [module docs](self)), with
/// `chunks`: the chunk size and the number of manifolds in each chunk. A pair's
/// touch state follows [`Manifold::is_touching`]: speculative contacts are reported
/// but start no event. `contacts` is a spare buffer whose old entries are overwritten
/// in place (no fresh pages every frame); it becomes `report.contacts`.
#[inline(never)] // a stage of its own in profiles
pub(crate) fn build_events(
    states: &mut [PairState],
    manifolds: &mut [Option<Manifold>],
    (chunk, counts): (usize, &[ChunkCounts]),
    ended: &[Ended],
    bodies: &BodyStore,
    mut contacts: Vec<ContactPair>,
    report: &mut StepReport,
) {
    // Pass 1: each chunk's slice of the contact list.
    let total = counts.iter().map(|c| c.manifolds).sum();
    contacts.truncate(total);
    if contacts.len() < total {
        contacts.resize(total, placeholder());
    }
    let mut slices = Vec::with_capacity(counts.len());
    let (mut rest, mut first) = (&mut contacts[..], 0);
    for count in counts.iter().map(|c| c.manifolds) {
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(count);
        slices.push((first, head));
        (rest, first) = (tail, first + count);
    }

    // Pass 2: contacts in place, events per chunk.
    let chunk_events: Vec<Vec<(usize, ContactEvent)>> = states
        .par_chunks_mut(chunk)
        .zip(manifolds.par_chunks_mut(chunk))
        .zip(slices)
        .enumerate()
        .map(|(c, ((states, manifolds), (first, out)))| {
            let start = c * chunk;
            settle_chunk(states, manifolds, start, first, out, bodies)
        })
        .collect();

    // Events in key order: each ended pair's before the pair of its place.
    report.contacts = contacts;
    let mut gone = ended.iter().peekable();
    for (i, event) in chunk_events.into_iter().flatten() {
        while let Some((_, e)) = gone.next_if(|(place, _)| *place <= i) {
            report.events.push(*e);
        }
        report.events.push(event);
    }
    report.events.extend(gone.map(|(_, e)| *e));
}

/// One chunk of pass 2: pairs from index `start`, their contacts from index `first`
/// into `out`. Returns the chunk's touch events with their pairs' indices.
fn settle_chunk(
    states: &mut [PairState],
    manifolds: &mut [Option<Manifold>],
    start: usize,
    first: usize,
    out: &mut [ContactPair],
    bodies: &BodyStore,
) -> Vec<(usize, ContactEvent)> {
    let user_data = |h: BodyHandle| bodies.user_data(h.index());
    let mut events = Vec::new();
    let mut out = out.iter_mut();
    let mut next_contact = first as u32;
    for (i, (st, manifold)) in (start..).zip(states.iter_mut().zip(manifolds)) {
        let touching = manifold.as_ref().is_some_and(|m| m.is_touching());
        if touching != st.was_touching {
            let kind = match (touching, st.filtered) {
                (true, _) => EventKind::Started,
                (false, true) => EventKind::Ended(EndCause::Filtered),
                (false, false) => EventKind::Ended(EndCause::Separated),
            };
            let (a, b) = (st.a, st.b);
            events.push((i, ContactEvent { a, b, kind }));
        }
        st.was_touching = touching;
        let previous = (st.contact != u32::MAX).then_some(st.contact);
        match manifold {
            Some(m) => {
                st.contact = next_contact;
                next_contact += 1;
                // Field by field, the manifold swapped in: one pass over its bytes
                // where building a whole `ContactPair` and moving it took three.
                let slot = out.next().expect("counted in pass 1");
                slot.a = st.a;
                slot.b = st.b;
                slot.user_data = [user_data(st.a), user_data(st.b)];
                std::mem::swap(&mut slot.manifold, m);
                slot.touching = touching;
                slot.previous = previous;
                slot.previous_points = st.matches;
                // The slot's old manifold, swapped out, goes.
                *manifold = None;
            }
            None => st.contact = u32::MAX,
        }
    }
    events
}

/// A contact slot's filler until pass 2 writes it (never seen by the user).
fn placeholder() -> ContactPair {
    let nobody = BodyHandle::new(u32::MAX, 0, 0);
    ContactPair {
        a: nobody,
        b: nobody,
        user_data: [0; 2],
        manifold: Manifold {
            normal: Vec3::ZERO,
            points: SmallVec::new(),
            feature: Feature::Sphere,
        },
        touching: false,
        previous: None,
        previous_points: [None; 4],
    }
}
