//! The report's contact list filled in key order by chunks that run in parallel.
//!
//! The narrow pass's chunks settle their contacts as they finish
//! (`crate::events::settle_chunk`); the report wants them in key order, that is in
//! chunk order, and a chunk knows where its contacts go only once every chunk before
//! it has counted its own. So the list has a *frontier*: `joined`, the number of
//! chunks whose contacts are in it, all of them the first chunks.
//!
//! - A chunk that starts at the frontier (every chunk before it is in the list) holds
//!   the list while it settles and writes its contacts right after those placed so
//!   far: nobody else can reach the frontier before it is done. Then it moves the
//!   frontier on.
//! - Any other chunk settles into its own range of the staging list. After the pass,
//!   the event stage copies the chunks from the frontier on into their places in
//!   parallel (`crate::events::build_events`).
//!
//! On two threads the caller's thread takes the chunks from the first one on in order
//! (rayon splits the range in halves and the caller keeps the left one), so about
//! half the contacts go straight into the list, and half the staging writes and half
//! the copies of the event stage are saved. The list is a buffer of an earlier step:
//! its old contacts are written over, never cleared first.
//!
//! Measured on the 2-core machine (`stress --scene soup --bodies 10000 --threads 2
//! --frames 300`, alternated runs, geometric means of the medians): the events stage
//! about halves (0.045–0.086 → 0.024–0.043 ms); the step 1.604 → 1.512 ms in one set of
//! twelve and 1.373 → 1.370 in one of eight (the VM's noise is of that size). Two
//! forms that were tried first were no faster: the waiting chunks copied into the
//! list within the pass by whichever chunk moved the frontier up to them (the copies
//! then ran on one thread at the end of the pass: 1.387 against 1.360 ms in ten), and
//! the list emptied first with placeholders written over its tail before the copy.
//!
//! The list holds the same contacts in the same order for any thread count and any
//! finishing order: each chunk's contacts are those of its pairs, and they enter the
//! list in chunk order only (the golden hash test steps 1, 2 and 4 threads).

use crate::ContactPair;
use crate::events::Settled;
use std::sync::Mutex;

/// The report's contact list while the parallel chunks of a narrow pass settle (see
/// the [module docs](self)).
pub(crate) struct ContactJoin<'s> {
    frontier: Mutex<Frontier<'s>>,
}

struct Frontier<'s> {
    /// The number of chunks whose contacts are in `list`: the first ones.
    joined: usize,
    /// Their contacts, the first entries of `list` (the entries after them are old
    /// contacts, written over as the list fills).
    placed: usize,
    /// The report's list; `None` while a chunk writes to it.
    list: Option<&'s mut Vec<ContactPair>>,
}

impl<'s> ContactJoin<'s> {
    /// Takes `list`, whose entries are old contacts to be written over (a buffer of
    /// an earlier step: no fresh pages every step, and no pass that clears it).
    pub fn new(list: &'s mut Vec<ContactPair>) -> ContactJoin<'s> {
        ContactJoin {
            frontier: Mutex::new(Frontier {
                joined: 0,
                placed: 0,
                list: Some(list),
            }),
        }
    }

    /// Settles chunk `c` through `settle`, which puts the chunk's contacts where the
    /// [`Settled`] it gets says and returns the number of contacts it put: into the
    /// list after the contacts placed so far when the chunk starts at the frontier,
    /// else into `staged`, the chunk's range of the staging list.
    pub fn settle<T>(
        &self,
        c: usize,
        staged: &mut [ContactPair],
        settle: impl FnOnce(Settled) -> (usize, T),
    ) -> (usize, T) {
        let direct = {
            let mut frontier = self.lock();
            match frontier.joined == c {
                true => frontier.list.take().map(|list| (list, frontier.placed)),
                false => None,
            }
        };
        let Some((list, at)) = direct else {
            return settle(Settled::Staged(staged));
        };
        let settled = settle(Settled::Placed {
            list: &mut *list,
            at,
        });
        let mut frontier = self.lock();
        frontier.joined = c + 1;
        frontier.placed = at + settled.0;
        frontier.list = Some(list);
        settled
    }

    /// The number of chunks whose contacts are in the list (the first ones) and the
    /// number of those contacts (the list's first entries).
    pub fn joined(self) -> (usize, usize) {
        let frontier = self
            .frontier
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        (frontier.joined, frontier.placed)
    }

    /// The frontier's lock. A panic in a chunk (a bug) reaches the step through rayon
    /// before anyone reads the list, so a poisoned lock's data is taken as it is.
    fn lock(&self) -> std::sync::MutexGuard<'_, Frontier<'s>> {
        self.frontier.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::placeholder;
    use rayon::prelude::*;

    fn contact(tag: u32) -> ContactPair {
        let mut c = placeholder();
        c.previous = Some(tag);
        c
    }

    /// Chunks run on the pool, in order and in reverse: the list holds the first
    /// `joined` chunks' contacts whole, in chunk order, and every later chunk's
    /// contacts are at the front of its staged range.
    #[test]
    fn the_list_holds_the_first_chunks_in_order_and_the_rest_are_staged() {
        let chunk = 5;
        let mut seed = 0x2545_f491_u32;
        for round in 0..200 {
            let chunks = 1 + round % 23;
            // Each chunk settles a pseudo-random count of its slots.
            let counts: Vec<usize> = (0..chunks)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 17;
                    seed ^= seed << 5;
                    seed as usize % (chunk + 1)
                })
                .collect();
            let tag = |c: usize, k: usize| (c * chunk + k) as u32;
            let settle_chunk = |c: usize, mut settled: Settled| {
                for k in 0..counts[c] {
                    settled.put(k, contact(tag(c, k)));
                }
                (counts[c], ())
            };
            for order in ["pool", "in order", "reverse"] {
                // Old contacts to write over: fewer or more than this step's.
                let mut list = vec![contact(u32::MAX); round % 40];
                let mut staged = vec![placeholder(); chunks * chunk];
                let join = ContactJoin::new(&mut list);
                let mut slots: Vec<(usize, &mut [ContactPair])> =
                    staged.chunks_mut(chunk).enumerate().collect();
                match order {
                    "pool" => slots.par_iter_mut().for_each(|(c, slots)| {
                        join.settle(*c, slots, |s| settle_chunk(*c, s));
                    }),
                    "in order" => {
                        for (c, slots) in &mut slots {
                            join.settle(*c, slots, |s| settle_chunk(*c, s));
                        }
                    }
                    _ => {
                        for (c, slots) in slots.iter_mut().rev() {
                            join.settle(*c, slots, |s| settle_chunk(*c, s));
                        }
                    }
                }
                let (joined, placed) = join.joined();
                match order {
                    "in order" => assert_eq!(joined, chunks),
                    // Chunk 0 runs last, at the frontier; the others ran before it.
                    "reverse" => assert_eq!(joined, 1),
                    _ => {}
                }
                let got: Vec<u32> = list.iter().map(|c| c.previous.unwrap()).collect();
                let expected: Vec<u32> = (0..joined)
                    .flat_map(|c| (0..counts[c]).map(move |k| tag(c, k)))
                    .collect();
                assert_eq!(placed, expected.len());
                assert_eq!(got[..placed], expected, "{order}, {chunks} chunks");
                // The entries after them are the untouched old ones.
                assert!(got[placed..].iter().all(|&t| t == u32::MAX));
                assert_eq!(got.len(), placed.max(round % 40));
                for c in joined..chunks {
                    for k in 0..counts[c] {
                        assert_eq!(staged[c * chunk + k].previous, Some(tag(c, k)));
                    }
                }
            }
        }
    }
}
