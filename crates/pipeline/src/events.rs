//! Contacts and touch events in key order: settled per chunk inside the narrow pass,
//! joined by the event stage.
//!
//! Input: this step's pair states and, per chunk of the narrow pass, the chunk's
//! manifolds (one slot per pair, in key order), and the pairs that ended by leaving
//! the candidate list (each with its place among the pairs). Output: `contacts` (one
//! per pair with a manifold, in key order) and `events` (in key order, an ended pair's
//! event before the pair of its place).
//!
//! 1. **Settling, in the narrow pass** ([`settle_chunk`]): right after a chunk's
//!    pairs are tested, while their states are in cache, each pair with a manifold
//!    becomes a [`ContactPair`], its touch state is updated and its touch event
//!    written at the front of the chunk's range of a staging list for events. The
//!    contact goes to the report's list when the chunk starts with every earlier
//!    chunk's contacts there (`crate::join`: on one thread every chunk, on two the
//!    caller's run of chunks from the first on), else to the front of the chunk's own
//!    range of a staging list for contacts (the range of its pairs' indices, so no
//!    chunk waits for another).
//! 2. **Joining, in the event stage** ([`build_events`]): a prefix sum over the
//!    chunks' counts gives each chunk the index of its first contact; the staged
//!    contacts of the chunks after those in the list are moved into their places (in
//!    parallel), and the chunks' staged events (few: events come on changes only) are
//!    joined sequentially with the ended pairs' events merged in at their places.
//!
//! **No allocation.** Every list here is a buffer kept by the world from step to
//! step: the two staging lists, the chunks' outcomes, the contact and event lists of
//! the report. A step allocates only when a list must grow past every earlier step's
//! length (tested in `tests/no_allocation.rs`), but for the list of the contacts'
//! parts that the parallel copy cuts (see `place_contacts`).
//!
//! A pair state names its contact before the final index is known, by its chunk and
//! its place among the chunk's contacts ([`ContactIndex`]); the next step reads last
//! step's contact through it. The chunking depends on the pair count only and each
//! result goes to a place fixed by the prefix sums, so the report is the same on any
//! thread count.
//!
//! Settling in the narrow pass rather than in a pass of its own over every pair saves
//! a second read and write of every pair state (80 bytes), and the manifolds stay in
//! a chunk's scratch (in cache) instead of a slot of 224 bytes per candidate pair.

use crate::pairs::PairState;
use crate::prefetch::PREFETCH_PAIRS;
use crate::store::BodyStore;
use crate::{BodyHandle, ContactEvent, ContactPair, EndCause, EventKind, StepReport};
use glam::Vec3;
use rayon::prelude::*;
use sepax_narrowphase::{Feature, Manifold, ManifoldPoints};

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

/// Where each contact of the last step is, for the pair states that name it.
///
/// Chunk `c` of the narrow pass settles its `k`-th contact under the code
/// `c · 2^shift + k`, with `2^shift` the chunk size rounded up to a power of two (the
/// pair state keeps the code); the event stage then moves the chunk's contacts to the
/// chunk's first contact index `first[c]`. So code `x` is the contact
/// `first[x >> shift] + (x & (2^shift − 1))`: a shift and a mask, where the chunk size
/// itself as the unit asked for a division (read for every pair that had a contact,
/// twice a step; `div` was a visible sample in `perf annotate` of the narrow pass).
/// A small gain, at the edge of this machine's noise: `stress --scene soup --bodies
/// 10000 --frames 300`, runs alternated with the division's build (geometric means of
/// the narrow stage's medians), 1 thread −3.7 % (8 runs each), +0.8 % (10), −1.5 % (10);
/// 2 threads −3.5 % (8), −2.0 % (8), −2.0 % (10); 0.3 % more instructions (callgrind,
/// 20 frames). (An earlier try measured no gain.) The codes stay below twice the pair
/// count, so they fit a `u32` as pair indices do.
#[derive(Debug, Default)]
pub(crate) struct ContactIndex {
    /// The code shift of the step that made the contacts ([`code_shift`]).
    shift: u32,
    /// Index of each chunk's first contact.
    first: Vec<u32>,
}

/// The code shift of a narrow pass in chunks of `chunk` pairs: `⌈log2 chunk⌉` (0 for
/// one pair or none), so that a chunk's contact numbers fit below `1 << shift`. A chunk
/// is at most an eighth of the pairs (or 16), so the shift stays below 32 for any pair
/// list that fits in memory.
pub(crate) fn code_shift(chunk: usize) -> u32 {
    chunk.max(1).next_power_of_two().trailing_zeros()
}

/// The code of the first contact of chunk `c` of a narrow pass in chunks of `chunk`
/// pairs (see [`ContactIndex`]): `settle_chunk` adds the contact's number in the chunk.
pub(crate) fn chunk_code(c: usize, chunk: usize) -> u32 {
    // Below twice the pair count: a u32, as pair indices are.
    (c << code_shift(chunk)) as u32
}

impl ContactIndex {
    /// The contact a pair state's code names (`None` for `u32::MAX`: no contact).
    #[inline]
    pub fn contact(&self, code: u32) -> Option<usize> {
        if code == u32::MAX {
            return None;
        }
        let first = *self.first.get((code >> self.shift) as usize)?;
        let within = code & ((1u32 << self.shift) - 1);
        Some(first as usize + within as usize)
    }
}

/// What one chunk of the narrow pass hands to the event stage.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ChunkOutcome {
    /// Contacts staged at the front of the chunk's range.
    pub contacts: usize,
    /// Pairs the narrow phase's warm path answered
    /// ([`QueryPath::kept_feature`](sepax_narrowphase::QueryPath::kept_feature)).
    pub kept: usize,
    /// Touch events staged at the front of the chunk's range of the event staging list.
    pub events: usize,
}

/// A staged touch event: the index of its pair and the event.
pub(crate) type StagedEvent = (usize, ContactEvent);

/// Where a chunk's settled contacts go: the front of the chunk's range of the staging
/// list (chunks in parallel, but for the chunk at the frontier), or the report's list
/// right after the contacts of the chunks before it (chunks in parallel, the chunk
/// that starts with every earlier chunk's contacts in the list: `crate::join`; on one
/// thread every chunk, as the chunks run in key order, so the event stage copies
/// nothing).
pub(crate) enum Settled<'a> {
    Staged(&'a mut [ContactPair]),
    /// The chunk's `k`-th contact goes to index `at + k` of the list, written over
    /// the old contact there, or pushed at its end (`at` is at most its length).
    Placed {
        list: &'a mut Vec<ContactPair>,
        at: usize,
    },
}

impl Settled<'_> {
    /// The slot of the chunk's `k`-th contact, to be written whole (the contacts
    /// before it are written already). The settling writes its fields there one by
    /// one: a contact built first and then moved in was built on the stack and copied
    /// (its manifold twice), 512 bytes a contact.
    #[inline(always)]
    pub(crate) fn slot(&mut self, k: usize) -> &mut ContactPair {
        match self {
            Settled::Staged(staged) => &mut staged[k],
            Settled::Placed { list, at } => {
                let i = *at + k;
                // One push when the list grows (`at + k` is at most its length).
                while list.len() <= i {
                    list.push(placeholder());
                }
                &mut list[i]
            }
        }
    }

    /// Puts the chunk's `k`-th contact.
    #[cfg(test)]
    pub(crate) fn put(&mut self, k: usize, contact: ContactPair) {
        *self.slot(k) = contact;
    }
}

/// Settles one chunk of pairs from pair index `start`, whose contacts are coded from
/// `code` (the chunk's first code, see [`ContactIndex`]; see the [module docs](self)):
/// each manifold of `manifolds` (the chunk's scratch, emptied) becomes a contact in
/// `settled` (see [`Settled`]); each state's touch flag and contact code are updated,
/// reading its last contact through `prev`, and its touch event, if any, goes to the
/// front of `staged_events` (the chunk's range of the event staging list; at most one
/// event a pair). Returns the number of contacts and of events settled. A pair's touch
/// state follows [`Manifold::is_touching`]: speculative contacts are reported but
/// start no event.
pub(crate) fn settle_chunk(
    states: &mut [PairState],
    manifolds: &mut [Option<Manifold>],
    (start, code): (usize, u32),
    (mut settled, staged_events): (Settled, &mut [StagedEvent]),
    bodies: &BodyStore,
    prev: &ContactIndex,
) -> (usize, usize) {
    let user_data = |h: BodyHandle| bodies.user_data(h.index());
    let mut events = 0;
    let mut count = 0;
    for k in 0..states.len() {
        // The user data of the pair a few pairs ahead: a separate array the narrow
        // pass never read, so a cache miss on almost every contact (40% of this
        // function's samples in `perf annotate` of `stress --scene soup --bodies 10000
        // --threads 2`).
        if let Some(ahead) = states.get(k + PREFETCH_PAIRS) {
            bodies.prefetch_user_data(ahead.a.index());
            bodies.prefetch_user_data(ahead.b.index());
        }
        let (i, st, manifold) = (start + k, &mut states[k], &mut manifolds[k]);
        let touching = manifold.as_ref().is_some_and(|m| m.is_touching());
        if touching != st.was_touching {
            let kind = match (touching, st.filtered) {
                (true, _) => EventKind::Started,
                (false, true) => EventKind::Ended(EndCause::Filtered),
                (false, false) => EventKind::Ended(EndCause::Separated),
            };
            let (a, b) = (st.a, st.b);
            staged_events[events] = (i, ContactEvent { a, b, kind });
            events += 1;
        }
        st.was_touching = touching;
        let previous = prev.contact(st.contact).map(|c| c as u32);
        match manifold {
            Some(m) => {
                // The chunk's code plus the contact's number in it (see `ContactIndex`).
                st.contact = code + count as u32;
                // Every field written (the pattern names them all): the slot's old
                // contact is never read.
                let ContactPair {
                    a,
                    b,
                    user_data: data,
                    manifold: points,
                    touching: touches,
                    previous: before,
                    previous_points,
                } = settled.slot(count);
                (*a, *b) = (st.a, st.b);
                *data = [user_data(st.a), user_data(st.b)];
                *points = *m;
                *touches = touching;
                *before = previous;
                *previous_points = st.matches;
                count += 1;
                // The scratch slot is `None` again for the next chunk (the narrow
                // pass writes only the pairs it answers).
                *manifold = None;
            }
            None => st.contact = u32::MAX,
        }
    }
    (count, events)
}

/// Fills `report.contacts` and `report.events` (see the [module docs](self)) from the
/// narrow pass's chunks of `chunk` pairs. `contacts` holds the contacts of the first
/// `joined` chunks (written in chunk order, see `crate::join`); the contacts of the
/// chunks after them are copied from the staging list (on the rayon pool), and the
/// list becomes `report.contacts`. The chunks' staged events are joined with the ended
/// pairs'. Records where each chunk's contacts begin in `index`.
#[inline(never)] // a stage of its own in profiles
pub(crate) fn build_events(
    (staged, staged_events): (&[ContactPair], &[StagedEvent]),
    (chunk, outcomes, joined): (usize, &[ChunkOutcome], usize),
    ended: &[Ended],
    mut contacts: Vec<ContactPair>,
    index: &mut ContactIndex,
    report: &mut StepReport,
) {
    // Each chunk's first contact.
    let chunk = chunk.max(1);
    index.shift = code_shift(chunk);
    index.first.clear();
    let mut total = 0;
    for outcome in outcomes {
        // Contacts are at most the pairs, whose indices fit a u32.
        index.first.push(total as u32);
        total += outcome.contacts;
    }
    if let Some(waiting) = outcomes.get(joined..) {
        // The first `from` entries are this step's; the rest, old contacts to write
        // over (a buffer of an earlier step: no fresh pages every step).
        let from = total - waiting.iter().map(|o| o.contacts).sum::<usize>();
        contacts.truncate(total);
        if contacts.len() < total {
            contacts.resize(total, placeholder());
        }
        let staged = staged.get(joined * chunk..).unwrap_or_default();
        place_contacts(staged, chunk, waiting, &mut contacts[from..]);
    }
    debug_assert_eq!(contacts.len(), total);

    // Events in key order: each ended pair's before the pair of its place.
    report.contacts = contacts;
    let mut gone = ended.iter().peekable();
    let chunk_events = outcomes.iter().enumerate().flat_map(|(c, outcome)| {
        let first = c * chunk;
        &staged_events[first..first + outcome.events]
    });
    for &(i, event) in chunk_events {
        while let Some((_, e)) = gone.next_if(|(place, _)| *place <= i) {
            report.events.push(*e);
        }
        report.events.push(event);
    }
    report.events.extend(gone.map(|(_, e)| *e));
}

/// Copies each chunk's staged contacts (the first `contacts` of its `chunk` slots of
/// `staged`) to `out`, chunk after chunk, on the rayon pool: plain `memcpy`s of whole
/// contacts (a swap read and wrote both lists; with the contact settled whole,
/// alternated with the swapping build, three runs each of `stress --scene soup`, 1
/// thread: events stage medians at 50,000 boxes 1.45–1.48 → 1.28–1.34 ms, at 10,000
/// 0.135–0.138 → 0.123–0.125 ms; on one thread the chunks now write to the report's
/// list directly, see [`Settled`]). Each chunk's part of `out` is cut first (a list of
/// parts, the one allocation of this stage; halving the chunk list recursively with
/// `rayon::join` instead needs no list, but in one alternated set of six `stress
/// --scene soup --bodies 10000 --threads 2` runs it was slower in four, step medians
/// 2.09 → 2.14 ms, so it was not kept).
fn place_contacts(
    staged: &[ContactPair],
    chunk: usize,
    outcomes: &[ChunkOutcome],
    out: &mut [ContactPair],
) {
    let mut parts = Vec::with_capacity(outcomes.len());
    let mut rest = out;
    for outcome in outcomes {
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(outcome.contacts);
        parts.push(head);
        rest = tail;
    }
    (staged.par_chunks(chunk))
        .zip(parts)
        .for_each(|(staged, out)| out.copy_from_slice(&staged[..out.len()]));
}

/// An event slot's filler until a chunk writes it (never seen by the user).
pub(crate) fn placeholder_event() -> StagedEvent {
    let nobody = BodyHandle::new(u32::MAX, 0, 0);
    let kind = EventKind::Started;
    (
        usize::MAX,
        ContactEvent {
            a: nobody,
            b: nobody,
            kind,
        },
    )
}

/// A contact slot's filler until a chunk writes it (never seen by the user).
pub(crate) fn placeholder() -> ContactPair {
    let nobody = BodyHandle::new(u32::MAX, 0, 0);
    ContactPair {
        a: nobody,
        b: nobody,
        user_data: [0; 2],
        manifold: Manifold {
            normal: Vec3::ZERO,
            points: ManifoldPoints::new(),
            feature: Feature::Sphere,
        },
        touching: false,
        previous: None,
        previous_points: [None; 4],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A contact's size is the event stage's cost: every contact is written once when
    /// settled and copied once into the report. (Both copies need `ContactPair: Copy`,
    /// which `build_events` already requires to compile.)
    #[test]
    fn a_contact_is_plain_data_of_fixed_size() {
        assert_eq!(size_of::<Manifold>(), 224);
        assert_eq!(size_of::<ContactPair>(), 288);
    }

    /// Every chunking: chunk `c`'s `k`-th contact, coded as `settle_chunk` codes it,
    /// reads back as the prefix sum of the earlier chunks' contacts plus `k`, and the
    /// codes stay below twice the pair count; `u32::MAX` and a chunk past the list
    /// name no contact.
    #[test]
    fn contact_codes_read_back_as_the_contacts_places() {
        let mut rng = sepax_geometry::rng::Rng::new(31);
        for chunk in [1, 2, 3, 7, 64, 100, 128, 129, 1000] {
            let pairs = 1 + rng.below(3000);
            let chunks = pairs.div_ceil(chunk);
            let counts: Vec<usize> = (0..chunks)
                .map(|c| {
                    let len = chunk.min(pairs - c * chunk);
                    rng.below(len + 1)
                })
                .collect();
            let mut index = ContactIndex {
                shift: code_shift(chunk),
                first: Vec::new(),
            };
            let mut total = 0;
            for &n in &counts {
                index.first.push(total as u32);
                total += n;
            }
            let mut place = 0;
            for (c, &n) in counts.iter().enumerate() {
                let code = chunk_code(c, chunk);
                for k in 0..n {
                    let coded = code + k as u32;
                    assert!((coded as usize) < 2 * pairs, "chunk {chunk}");
                    assert_eq!(index.contact(coded), Some(place), "chunk {chunk}");
                    place += 1;
                }
            }
            assert_eq!(index.contact(u32::MAX), None);
            assert_eq!(index.contact(chunk_code(chunks, chunk)), None);
        }
        assert_eq!((code_shift(0), code_shift(1), code_shift(2)), (0, 0, 1));
        assert_eq!(
            (code_shift(100), code_shift(128), code_shift(129)),
            (7, 7, 8)
        );
    }
}
