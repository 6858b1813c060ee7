//! World configuration, and what [`CollisionWorld::new`](crate::CollisionWorld::new)
//! does with extreme values.

/// How a [`CollisionWorld`](crate::CollisionWorld) runs.
///
/// Every field has a documented meaning for every value: [`CollisionWorld::new`]
/// either uses it, sanitises it (said below), or refuses it with a named
/// [`WorldError`](crate::WorldError).
///
/// [`CollisionWorld::new`]: crate::CollisionWorld::new
///
/// ```
/// use sepax_pipeline::{CollisionWorld, Config, WorldError};
/// let config = Config { threads: 2, ..Config::default() };
/// assert_eq!(config.margin, 0.0);
/// assert_eq!(config.pair_budget, Config::DEFAULT_PAIR_BUDGET);
///
/// let too_many = Config { threads: Config::MAX_THREADS + 1, ..Config::default() };
/// assert_eq!(CollisionWorld::new(too_many).unwrap_err(), WorldError::TooManyThreads(513));
/// let no_margin = Config { margin: f32::INFINITY, ..Config::default() };
/// assert_eq!(CollisionWorld::new(no_margin).unwrap_err(), WorldError::NonFiniteMargin);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Worker threads of the world's own rayon pool; 0 means one per core.
    /// The output does not depend on this number.
    ///
    /// With 1 (or 0 on a one-core machine) the world has no pool: no thread is
    /// spawned and [`step`](crate::CollisionWorld::step) runs every stage on the
    /// calling thread, the same chunks one after the other, without touching rayon.
    /// (Handing each step to a pool's one thread, asleep between steps, cost 70–80 µs
    /// a step on the 2-core virtual machine of this crate's figures: see
    /// [`keep_threads_awake`](Self::keep_threads_awake).)
    ///
    /// Above [`Config::MAX_THREADS`] the world is refused with
    /// [`WorldError::TooManyThreads`](crate::WorldError::TooManyThreads): every thread
    /// is spawned up front (5,000 of them took 9 s), and the work of a step is cut into
    /// chunks by size, so threads beyond the cores only add wake-ups.
    pub threads: usize,
    /// Contact margin: AABBs grow by it and pairs apart by less than it get
    /// speculative contacts (negative depth: minus the true distance, the normal along
    /// the closest points; see `sepax_narrowphase::collide`). 0 reports touching and
    /// penetrating pairs only. A negative margin counts as 0; a NaN or infinite one is refused with
    /// [`WorldError::NonFiniteMargin`](crate::WorldError::NonFiniteMargin) (an infinite
    /// margin would make every AABB infinite and quarantine every body).
    ///
    /// Any finite margin is stepped without a panic, but a body whose AABB grown by
    /// the margin passes `±f32::MAX` is quarantined
    /// ([`QuarantineReason::NonFiniteAabb`](crate::QuarantineReason::NonFiniteAabb)):
    /// with a margin near `f32::MAX`, that is every body more than about `1e31` from
    /// the origin. A useful margin is a small fraction of the bodies' size.
    pub margin: f32,
    /// Most candidate pairs a step keeps, and so a bound on the memory of the pair
    /// lists: at most about [`Config::BYTES_PER_PAIR`] bytes per kept pair (the broad
    /// phase's key lists and diffs, the pair states carried between steps, this and
    /// last step's contacts), about 5.9 GB at the default, half that in practice.
    ///
    /// The budget counts the broad phase's candidates: pairs whose *fat* boxes overlap
    /// (each AABB grown by a tenth of its size, see
    /// [`DYNAMIC_FAT_MARGIN`](crate::broadphase::DYNAMIC_FAT_MARGIN)), then the static
    /// bodies cached near each dynamic one; that is about 2.7 per body in the test
    /// soups and 0.9 in the 10,000-box pile of `stress` (5.5 and 11.6 with the
    /// older margin of a quarter).
    ///
    /// When a step would find more, the broad phase stops collecting at the budget and
    /// the step goes on with the pairs found so far (the first ones in the broad
    /// phase's sweep order: deterministic and the same for any thread count), sets
    /// [`StepReport::pair_budget_exceeded`](crate::StepReport::pair_budget_exceeded),
    /// and ends the touching pairs it dropped with
    /// [`EndCause::PairBudget`](crate::EndCause::PairBudget). Nothing aborts and
    /// nothing allocates past the budget. Extreme values: 0 keeps no pair at all
    /// (every step with an overlap is over budget); `usize::MAX` means no limit
    /// (memory then grows with the pairs: 5,000 bodies at one point are 12.5M pairs).
    pub pair_budget: usize,
    /// Pairs per parallel task in the narrow phase. The chunking is fixed by this
    /// number and the step's pair count, not by the thread count: a step with fewer
    /// than 8 × this many candidate pairs is cut into 8 chunks (of at least 16 pairs),
    /// so that every thread gets some. No answer depends on the chunking. 0 counts as 1.
    pub narrow_chunk: usize,
    /// Bodies per parallel task in the AABB update. A step with fewer than 8 × this
    /// many changed bodies is cut into 8 tasks (of at least 256 bodies), so that every
    /// thread gets some. No box depends on the tasks. 0 counts as 1.
    pub aabb_chunk: usize,
    /// Box–box pairs of the narrow phase go through
    /// [`collide_box_pairs`](crate::narrowphase::collide_box_pairs) (8 pairs' axes
    /// in SIMD lanes) instead of one [`collide`](crate::narrowphase::collide) each.
    /// The answers are the same bits either way (tested), so this is a speed choice
    /// only. On by default: on the soup scene (10,000 moving boxes, 2-core AMD EPYC,
    /// AVX2, 23 Nov 2026, `stress --scene soup --bodies 10000 --frames 100 --threads
    /// T`, medians of 15 alternating runs) the narrow phase took 2.74 ms a step
    /// batched against 2.79 ms one pair at a time on 1 thread, 1.39 against 1.42 ms on
    /// 2 threads: a small gain, as clipping (most of a touching pair's cost) stays per
    /// pair and the gather around the bundles eats part of what the SIMD axes save.
    /// Within run-to-run noise, in fact: the criterion group `narrow_10k` in the same
    /// afternoon measured 2.78 / 1.49 ms batched against 2.74 / 1.39 ms (1 / 2
    /// threads) one pair at a time.
    pub batch_box_pairs: bool,
    /// While a step runs ([`step`](crate::CollisionWorld::step) or
    /// [`step_in`](crate::CollisionWorld::step_in)), every other thread of its pool runs
    /// a helper that takes the step's parallel work as soon as a stage splits it and
    /// otherwise spins (yielding its core to any other runnable thread), instead of
    /// going to sleep between stages; a helper leaves when the step ends, or after 1 ms
    /// without work. And the world's own pool is woken ahead of its step: the first
    /// [`set_pose`](crate::CollisionWorld::set_pose) or
    /// [`set_poses`](crate::CollisionWorld::set_poses) entry that moves a body since the
    /// last step wakes its threads, whose helpers then wait for the step (1 ms at most)
    /// while the caller sets the other poses; a pool of the caller's is woken so by
    /// [`wake_ahead_in`](crate::CollisionWorld::wake_ahead_in) before its
    /// [`step_in`](crate::CollisionWorld::step_in). Waking a sleeping thread took 50–100 µs
    /// on the 2-core virtual machine the figures come from (`cargo run --release -p
    /// sepax-benches --example wake`), longer than many stages. With 2 threads, `stress
    /// --scene soup --bodies 10000 --threads 2` measured the step at 1.62–1.64 ms
    /// instead of 1.70–1.76 in one set of alternated runs and 1.46 instead of 1.52–1.56
    /// in another (medians); the large world's at 30 instead of 39–41 µs, then 29
    /// instead of 31; waking ahead took 8–26 % off the step's wall time in `stress
    /// --scene soup` (poses computed while they are set), and no clear share of the
    /// step bench's poses-and-step time (poses only copied in: less time to wake) in
    /// noisy runs (the `awake` module's figures, in the source).
    ///
    /// After a step on the world's own pool its threads also wait for the next step
    /// (1 ms at most), so that a caller stepping back to back (a simulation run faster
    /// than real time, a training loop, a benchmark) finds them awake even when it
    /// sets the poses in a few microseconds: the step bench's 1,000-box soup (poses
    /// computed before the timed span, only copied in it) took 141 and 140 µs a frame
    /// instead of 177 and 177 (`cargo bench -p sepax-benches --bench step --
    /// step_soup_1k`, two runs each, alternated, 5 December 2026).
    ///
    /// The cost: the other threads spin (a core each, unless another thread wants it)
    /// while a step runs, from the first moved pose to the step (at most 1 ms), and
    /// for 1 ms after a step on the world's own pool; otherwise they sleep. The output
    /// is the same bits either way. On by default; off suits a pool shared with other
    /// busy work. No effect with one thread.
    pub keep_threads_awake: bool,
}

impl Config {
    /// The largest [`threads`](Self::threads) a world accepts.
    pub const MAX_THREADS: usize = 512;
    /// The default [`pair_budget`](Self::pair_budget): 4,194,304 candidate pairs,
    /// reached by a pile of about 350,000 boxes or a soup of about 700,000 (the test
    /// scenes), while 200,000 bodies at one point would need 20 billion.
    pub const DEFAULT_PAIR_BUDGET: usize = sepax_broadphase::DEFAULT_PAIR_BUDGET;
    /// An upper estimate of the memory one kept candidate pair costs, in bytes, over
    /// the world's buffers, from the sizes of the types involved: 8-byte keys in about
    /// ten lists, two pair states (80 B each), a staged contact slot (a world with a
    /// pool) and a staged event slot, this and last step's contact (288 B each),
    /// events. Most of it is only spent on pairs whose
    /// AABBs overlap and touch; 12.5M pairs at one point measured about 650 B each
    /// (before 28 November 2026, when the 224-byte manifold slot per pair became a
    /// 288-byte staged contact).
    pub const BYTES_PER_PAIR: usize = 1_400;
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 0,
            margin: 0.0,
            pair_budget: Config::DEFAULT_PAIR_BUDGET,
            narrow_chunk: 128,
            aabb_chunk: 1024,
            batch_box_pairs: true,
            keep_threads_awake: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    /// Issue 9: the documented memory per kept pair covers every per-pair buffer.
    #[test]
    fn issue_9_bytes_per_pair_covers_the_buffers() {
        // Broad phase: candidates, pair keys, sort scratch, the task output copied
        // into the kept list, this and last frame's pairs, added, removed, and the
        // added and removed pairs' indices.
        let broad = 9 * size_of::<u64>() + 2 * size_of::<u32>();
        // World: pair states (and their spare buffer), one staged contact slot and
        // one staged event slot, this and last step's contacts, and up to two events.
        let world = 2 * size_of::<crate::pairs::PairState>()
            + size_of::<crate::ContactPair>()
            + size_of::<crate::events::StagedEvent>()
            + 2 * size_of::<crate::ContactPair>()
            + 2 * size_of::<crate::ContactEvent>();
        assert!(broad + world <= Config::BYTES_PER_PAIR, "{}", broad + world);
    }
}
