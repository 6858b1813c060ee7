//! The grid-cell sweep over the cell's boxes gathered first: the pairs of the sweep
//! through positions (`sweep::sweep_cell`, kept as the tests' twin) in its order, from
//! a contiguous copy of the cell's entries.
//!
//! A cell lists positions into the full sweep's sorted entries, about one in every
//! `cells` of them, so a forward walk through the sorted entries themselves reads
//! a different cache line at every step (a stride of some 30 entries on the
//! 10,000-box soup's 6 × 6 grid) and the next position through the cell's list first.
//! Here the cell's entries are copied, in the cell's order, into a buffer of the
//! thread (the cell's sentinel last), and each box walks the boxes after it in
//! that copy: the same tests on the same values in the same order, so the same pairs
//! in the same order, and the budget stops it at the same pair (tested against
//! `sweep_cell` on random cells below).
//!
//! Measured on `stress --scene soup --bodies 10000 --frames 150`, one thread, the
//! cells' part of each full sweep timed alone (13 sweeps a run, three runs each):
//! 1.49–1.58 ms a sweep through the positions, 1.04–1.24 ms over the copy. Four boxes
//! at a time in `Vec4` lanes (five lists of `f32`, `min_a` and the four `bc` lanes,
//! a run ending at its first lane out of reach) took 1.27–1.38 ms against 1.55–1.65
//! through the positions in three runs of its own: the lanes' loads and the gather
//! into five lists cost as many instructions as the compares saved (callgrind), so
//! it was not kept.

use crate::budget::Sink;
use crate::sweep::{Entry, sweep_keeping};
use std::cell::RefCell;

thread_local! {
    /// The cell being swept, copied (kept per thread: a full sweep allocates nothing
    /// once it has grown).
    static CELL_OF_THREAD: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// The pairs of the boxes `all[idx[..]]` of grid cell `cell` (`idx` increasing,
/// ending with the position of `all`'s sentinel), each reported only in the cell of
/// its overlap's lower corner, appended to `out` over a copy of the cell's entries
/// (see the [module docs](self)). Returns false when the pair budget ran out.
pub(crate) fn sweep_gathered_cell(
    all: &[Entry],
    idx: &[u32],
    cell: [u16; 2],
    out: &mut Sink,
) -> bool {
    debug_assert!(
        idx.last()
            .is_some_and(|&i| all[i as usize].min_a == f32::INFINITY)
    );
    CELL_OF_THREAD.with_borrow_mut(|run| {
        run.clear();
        run.extend(idx.iter().map(|&i| all[i as usize]));
        // Reported only in the cell of the overlap's lower corner (see `crate::grid`).
        let in_cell = |ep: &Entry, eq: &Entry| {
            eq.cell[0].max(ep.cell[0]) == cell[0] && eq.cell[1].max(ep.cell[1]) == cell[1]
        };
        sweep_keeping(run, 0..run.len() - 1, in_cell, out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::sweep::{pack_bc, sweep_cell};
    use sepax_geometry::rng::Rng;

    /// A random cell: boxes on a small lattice of coordinates (so that equal bounds,
    /// the ties of the closed-interval test, come often) with random cells at or
    /// below `cell`, sorted on `min_a` as a grid cell's list is, with the sentinel.
    fn random_cell(rng: &mut Rng, n: usize, cell: [u16; 2]) -> (Vec<Entry>, Vec<u32>) {
        let coordinate = |rng: &mut Rng| rng.below(24) as f32 * 0.25;
        let mut all: Vec<Entry> = (0..n)
            .map(|i| {
                let (a0, b0, c0) = (coordinate(rng), coordinate(rng), coordinate(rng));
                let extent = |rng: &mut Rng| rng.below(8) as f32 * 0.25;
                let (a1, b1, c1) = (a0 + extent(rng), b0 + extent(rng), c0 + extent(rng));
                Entry {
                    bc: pack_bc(b0, b1, c0, c1),
                    min_a: a0,
                    max_a: a1,
                    cell: [
                        rng.below(cell[0] as usize + 1) as u16,
                        rng.below(cell[1] as usize + 1) as u16,
                    ],
                    id: i as u32,
                }
            })
            .collect();
        all.sort_by(|x, y| x.min_a.total_cmp(&y.min_a));
        all.push(Entry::SENTINEL);
        // Every box of `all` in the cell but a few, as a cell lists some of the boxes.
        let idx = (0..all.len() as u32)
            .filter(|&i| i as usize == n || rng.below(5) != 0)
            .collect();
        (all, idx)
    }

    fn pairs_of(
        sweep: fn(&[Entry], &[u32], [u16; 2], &mut Sink) -> bool,
        (all, idx): (&[Entry], &[u32]),
        cell: [u16; 2],
        limit: usize,
    ) -> (Vec<u64>, bool) {
        let budget = Budget::new(limit);
        let mut sink = Sink::new(&budget);
        let finished = sweep(all, idx, cell, &mut sink);
        (sink.finish(), finished)
    }

    /// The sweep over the copy gives the sweep through the positions' pairs in its
    /// order, on cells of every size and with budgets that stop it part way.
    #[test]
    fn the_copy_gives_the_sweeps_pairs_in_order() {
        let mut rng = Rng::new(20261203);
        let mut pairs_seen = 0;
        for round in 0..4_000 {
            let n = rng.below(60);
            let cell = [rng.below(3) as u16, rng.below(3) as u16];
            let (all, idx) = random_cell(&mut rng, n, cell);
            let limit = match round % 3 {
                0 => rng.below(8),
                _ => usize::MAX,
            };
            let scalar = pairs_of(sweep_cell, (&all, &idx), cell, limit);
            let copied = pairs_of(sweep_gathered_cell, (&all, &idx), cell, limit);
            assert_eq!(copied, scalar, "round {round}: {n} boxes, cell {cell:?}");
            pairs_seen += scalar.0.len();
        }
        assert!(
            pairs_seen > 10_000,
            "too few pairs to compare: {pairs_seen}"
        );
    }
}
