//! The pair budget: a bound on the candidate pairs one `update_pairs` collects.
//!
//! Without it the pair lists grow with the pairs: 5,000 boxes at one point are 12.5M
//! pairs (8.2 GB through a world), 200,000 abort on a 4 GB allocation in the sweep.
//! With a budget of `B` pairs, no pair list of the broad phase grows past `B`.
//!
//! **What is kept.** The pairs found first in the sweep's own order, which is fixed by
//! the data (the sorted boxes, the grid cells, then the big boxes, then the statics in
//! proxy order), never by the thread count: a pass is a list of tasks, and the kept
//! pairs are the first `B` of their outputs concatenated in task order.
//!
//! **How, in parallel.** Tasks run at once and share one counter: each [`Sink`] adds
//! what it pushed to the counter every [`FLUSH`] pairs (and whenever its own output
//! alone passes the budget left when it started), and stops as soon as the counter
//! passes `B`. If the counter
//! never passes `B`, no task stopped and the output is complete. If it does, which
//! tasks got how far depends on timing, so that output is dropped and the pass runs
//! again on one thread, in task order, where it stops at the same place every time.
//! Either way the lists hold at most `B` pairs plus one unflushed [`FLUSH`] per task
//! in flight before they are cut to `B`, and the time spent is about that of
//! finding `B` pairs, not all of them.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Pairs a [`Sink`] pushes between two updates of the shared counter.
pub(crate) const FLUSH: usize = 1024;

/// The shared counter of one pass.
#[derive(Debug)]
pub(crate) struct Budget {
    limit: usize,
    used: AtomicUsize,
}

impl Budget {
    /// A fresh counter for a pass that may keep `limit` pairs.
    pub fn new(limit: usize) -> Budget {
        Budget {
            limit,
            used: AtomicUsize::new(0),
        }
    }

    /// True once more than `limit` pairs were reported to the counter.
    #[inline]
    pub fn exceeded(&self) -> bool {
        self.used.load(Ordering::Relaxed) > self.limit
    }

    /// Adds `n` pairs; true while the total stays within the limit.
    #[inline]
    fn add(&self, n: usize) -> bool {
        let before = self.used.fetch_add(n, Ordering::Relaxed);
        before.saturating_add(n) <= self.limit
    }
}

/// One task's output under a shared [`Budget`].
pub(crate) struct Sink<'a> {
    pub out: Vec<u64>,
    budget: &'a Budget,
    /// Units (pairs, or cached candidates) counted by this task, and not yet reported.
    counted: usize,
    unflushed: usize,
    /// The budget left when the task started: more than this alone is over budget.
    room: usize,
}

impl<'a> Sink<'a> {
    /// An empty output counted against `budget`.
    pub fn new(budget: &'a Budget) -> Sink<'a> {
        Sink::appending_to(Vec::new(), budget)
    }

    /// An output that appends to `out`, counted against `budget`.
    fn appending_to(out: Vec<u64>, budget: &'a Budget) -> Sink<'a> {
        let used = budget.used.load(Ordering::Relaxed);
        Sink {
            out,
            budget,
            counted: 0,
            unflushed: 0,
            room: budget.limit.saturating_sub(used),
        }
    }

    /// Appends a pair and counts it; false when the pass is over budget and the task
    /// must stop.
    #[inline]
    pub fn push(&mut self, key: u64) -> bool {
        self.out.push(key);
        self.charge(1)
    }

    /// Counts `n` units against the budget without appending anything (the static
    /// pass counts the candidates it caches); false when the pass is over budget.
    #[inline]
    pub fn charge(&mut self, n: usize) -> bool {
        self.counted = self.counted.saturating_add(n);
        self.unflushed = self.unflushed.saturating_add(n);
        if self.unflushed < FLUSH && self.counted <= self.room {
            return true;
        }
        self.flush()
    }

    /// True when the pass is over budget (a cheap check for the tasks' outer loops).
    #[inline]
    pub fn over(&self) -> bool {
        self.budget.exceeded()
    }

    /// The most units this task may still count before the pass is surely over
    /// budget (a bound for the size of a query's result).
    pub fn room(&self) -> usize {
        self.room.saturating_sub(self.counted)
    }

    /// Reports the unflushed pairs; false when the pass is over budget.
    pub fn flush(&mut self) -> bool {
        let n = std::mem::take(&mut self.unflushed);
        self.budget.add(n)
    }

    /// The task's pairs, reported to the counter.
    pub fn finish(mut self) -> Vec<u64> {
        self.flush();
        self.out
    }
}

/// The budget of a broad phase: [`DEFAULT_PAIR_BUDGET`](crate::DEFAULT_PAIR_BUDGET)
/// unless set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PairLimit(pub usize);

impl Default for PairLimit {
    fn default() -> Self {
        PairLimit(crate::DEFAULT_PAIR_BUDGET)
    }
}

/// Runs `task` on each of `tasks` (on the rayon pool when `parallel`) under a budget of
/// `limit` pairs and returns the kept pairs, in task order, and whether the budget was
/// exceeded. See the [module docs](self): the result is the same for any thread count.
/// The kept pairs go into `kept` (cleared first), a buffer the caller reuses: a fresh
/// list of a full sweep's size costs its page faults.
pub(crate) fn collect<T: Sync>(
    tasks: &[T],
    parallel: bool,
    limit: usize,
    mut kept: Vec<u64>,
    task: impl Fn(&T, &mut Sink) + Sync + Send,
) -> (Vec<u64>, bool) {
    if !parallel {
        return collect_in_order(tasks, limit, kept, &task);
    }
    let budget = Budget::new(limit);
    let run = |t: &T| {
        let mut sink = Sink::new(&budget);
        if !budget.exceeded() {
            task(t, &mut sink);
        }
        sink.finish()
    };
    let outs: Vec<Vec<u64>> = {
        use rayon::prelude::*;
        tasks.par_iter().map(run).collect()
    };
    if budget.exceeded() {
        // Where each task stopped depended on timing: free that output and run the
        // tasks again in order, where the pass stops at the same place every time.
        drop(outs);
        return collect_in_order(tasks, limit, kept, &task);
    }
    kept.clear();
    kept.reserve(outs.iter().map(Vec::len).sum::<usize>().min(limit));
    for out in outs {
        let room = limit - kept.len();
        kept.extend_from_slice(&out[..out.len().min(room)]);
    }
    (kept, false)
}

/// [`collect`] on the calling thread: every task appends to `kept` (cleared first)
/// through one sink, which stops at the first pair past the budget, in task order; no
/// list per task, so nothing is allocated once `kept` has grown.
fn collect_in_order<T>(
    tasks: &[T],
    limit: usize,
    mut kept: Vec<u64>,
    task: &impl Fn(&T, &mut Sink),
) -> (Vec<u64>, bool) {
    kept.clear();
    let budget = Budget::new(limit);
    let mut sink = Sink::appending_to(kept, &budget);
    for t in tasks {
        if budget.exceeded() {
            break;
        }
        task(t, &mut sink);
    }
    let mut kept = sink.finish();
    kept.truncate(limit);
    (kept, budget.exceeded())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Task `i` pushes `i * 100` keys `(i, j)`.
    fn pass(parallel: bool, limit: usize) -> (Vec<u64>, bool) {
        let tasks: Vec<u64> = (0..64).collect();
        collect(&tasks, parallel, limit, vec![7], |&i, sink| {
            for j in 0..i * 100 {
                if !sink.push((i << 32) | j) {
                    return;
                }
            }
        })
    }

    #[test]
    fn issue_9_budget_keeps_the_first_pairs_in_task_order() {
        let total: usize = (0..64).map(|i| i * 100).sum();
        let (all, exceeded) = pass(false, total);
        assert!(!exceeded);
        assert_eq!(all.len(), total);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
        for limit in [0, 1, 99, 1000, 5000, total - 1] {
            for parallel in [false, true] {
                let (kept, exceeded) = pass(parallel, limit);
                assert!(exceeded);
                assert_eq!(kept, all[..limit], "limit {limit}, parallel {parallel}");
            }
        }
        assert_eq!(pass(true, total), (all, false));
    }
}
