//! The pool's other threads kept awake through a step, so that each parallel stage
//! starts on every thread at once.
//!
//! A step is a chain of parallel stages (AABBs, the broad phase's passes, the narrow
//! phase, the events) with short sequential parts between them. A rayon worker that
//! finds no work for a few microseconds goes to sleep, and waking it again is slow on
//! a virtual machine. Measured by `cargo run --release -p sepax-benches --example
//! wake` on the 2-core machine of 2 December 2026 (medians of 200): a `join` of two
//! 50 µs halves took 51 µs when the other thread had been busy a moment before, but
//! 89–108 µs after 20 µs of sequential work and 134–150 µs after 1 ms — the late
//! thread steals the second half after the first thread has finished its own, so the
//! split costs more than it saves.
//!
//! So while a step runs, every other thread of the pool runs a *helper*: a loop of
//! [`rayon::yield_now`], which runs any job waiting in the pool (the step's, stolen as
//! soon as a stage splits) and otherwise spins, handing the core to any other runnable
//! thread on each turn (`std::thread::yield_now`), until the step ends. The same `join`
//! then took 51 µs after any gap, and `stress --scene soup --bodies 10000 --frames 300
//! --threads 2`, alternated with the build before, measured the step at 1.62–1.64 ms
//! instead of 1.70–1.76 in one set of three runs and 1.46 instead of 1.52–1.56 in
//! another (medians; the broad phase 0.10–0.12 ms instead of 0.13–0.17), `stress
//! --scene large-world --threads 2` at 30 µs instead of 39–41, then 29 instead of 31.
//! Spinning without yielding the core measured the same with 2 threads, but on a pool
//! of 8 threads (4 per core) one run had a 18.6 ms step (median 1.48 ms): a helper held
//! the core the step's thread was waiting for; yielding, 3.3–3.4 ms at most, as
//! without helpers. With the yield, a third set of three runs: 1.53–1.55 ms instead of
//! 1.57–1.62 (means 1.67–1.70 instead of 1.73–1.78).
//! The helpers change which thread runs a chunk, never what a chunk computes: the
//! output stays bit-identical for any thread count.
//!
//! A helper never waits long for work that cannot come. One that lands on the thread
//! running the step (that thread may pick it up while it waits inside a `join`)
//! returns at once: spinning there would stop the step below it on the same stack. And
//! a helper leaves after [`IDLE_LIMIT`] without a job even while its step goes on:
//! a thread may pick a helper up while it waits inside other work (another world's
//! step on a pool the caller shares, or, with three threads or more, a chunk of this
//! step), and that work cannot go on until the helper returns; when every thread is
//! stuck so, none finds work, and the limit breaks the wait. The helpers only spin
//! during a step: between steps the threads sleep as before.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A helper that found no job for this long leaves (see the module docs): longer
/// than the sequential stretches between the stages of a 10,000-body step (the full
/// sweep's sorts, a few hundred µs), short enough that a helper stalling other work
/// costs little.
const IDLE_LIMIT: Duration = Duration::from_millis(1);

/// What a step shares with its helpers.
#[derive(Default)]
struct Shift {
    /// Set when the step has ended (or unwound).
    done: AtomicBool,
    /// Helpers running now (their loop entered and not yet left).
    helping: AtomicUsize,
    /// Helpers that have entered their loop.
    arrived: AtomicUsize,
}

/// Runs `step` (on a thread of the current rayon pool) with one helper spawned for
/// each other thread of the pool, and stops them when it returns (or unwinds).
pub(crate) fn with_threads_awake<R>(step: impl FnOnce() -> R) -> R {
    awake_during(step, Arc::default())
}

/// [`with_threads_awake`] with the shift given (tests watch its helpers).
fn awake_during<R>(step: impl FnOnce() -> R, shift: Arc<Shift>) -> R {
    let helpers = rayon::current_num_threads().saturating_sub(1);
    if helpers == 0 {
        return step();
    }
    let driver = rayon::current_thread_index();
    for _ in 0..helpers {
        let shift = Arc::clone(&shift);
        rayon::spawn(move || {
            if rayon::current_thread_index() == driver {
                return;
            }
            shift.arrived.fetch_add(1, Ordering::AcqRel);
            shift.helping.fetch_add(1, Ordering::AcqRel);
            let mut last_job = Instant::now();
            while !shift.done.load(Ordering::Acquire) {
                if rayon::yield_now() == Some(rayon::Yield::Executed) {
                    last_job = Instant::now();
                } else if last_job.elapsed() > IDLE_LIMIT {
                    break;
                } else {
                    // Lets any other runnable thread of the machine have the core (a
                    // pool with more threads than cores), else returns at once.
                    std::thread::yield_now();
                }
            }
            shift.helping.fetch_sub(1, Ordering::AcqRel);
        });
    }
    // Stops the helpers however `step` ends.
    struct Stop(Arc<Shift>);
    impl Drop for Stop {
        fn drop(&mut self) {
            self.0.done.store(true, Ordering::Release);
        }
    }
    let _stop = Stop(shift);
    step()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// Waits up to 10 s for `ready`; false if it never held.
    fn eventually(ready: impl Fn() -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if ready() {
                return true;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        false
    }

    /// On pools of 2 to 4 threads, called from outside the pool and from inside a
    /// `join` of it: the helpers of every thread but the step's come, the step's
    /// parallel work gives the sequential answer, and once the step has returned every
    /// helper has left (none spins on).
    #[test]
    fn helpers_come_during_the_step_and_leave_after_it() {
        for threads in 2..=4 {
            let pool = pool(threads);
            let expected: u64 = (0..100_000u64).map(|i| i * i % 7).sum();
            for round in 0..20 {
                let shift = Arc::new(Shift::default());
                let watched = Arc::clone(&shift);
                let step = || {
                    awake_during(
                        || {
                            assert!(
                                eventually(
                                    || watched.arrived.load(Ordering::Acquire) == threads - 1
                                ),
                                "{threads} threads: the helpers never all came"
                            );
                            (0..100_000u64)
                                .into_par_iter()
                                .map(|i| i * i % 7)
                                .sum::<u64>()
                        },
                        Arc::clone(&shift),
                    )
                };
                let sum = if round % 2 == 0 {
                    pool.install(step)
                } else {
                    pool.install(|| rayon::join(step, || ()).0)
                };
                assert_eq!(sum, expected);
                assert!(
                    eventually(|| shift.helping.load(Ordering::Acquire) == 0),
                    "{threads} threads: a helper still runs after the step"
                );
            }
        }
    }

    /// A step that gives its helpers no work for longer than `IDLE_LIMIT` sees them
    /// leave before it ends (what frees a thread that picked a helper up inside other
    /// work).
    #[test]
    fn idle_helpers_leave_before_the_step_ends() {
        let (left_while_running, shift) = step_on(3, |watched| {
            let came = eventually(|| watched.arrived.load(Ordering::Acquire) == 2);
            came && eventually(|| watched.helping.load(Ordering::Acquire) == 0)
        });
        assert!(left_while_running);
        assert!(shift.done.load(Ordering::Acquire));
    }

    /// One thread: no helper, the step runs as it is.
    #[test]
    fn one_thread_has_no_helper() {
        let (helping, shift) = step_on(1, |watched| watched.helping.load(Ordering::Acquire));
        assert_eq!(helping, 0);
        assert!(!shift.done.load(Ordering::Acquire));
    }

    /// `step` run as a step on a new pool of `threads`, given its shift to watch.
    fn step_on<R: Send>(threads: usize, step: impl FnOnce(&Shift) -> R + Send) -> (R, Arc<Shift>) {
        let shift = Arc::new(Shift::default());
        let watched = Arc::clone(&shift);
        let answer = pool(threads).install(|| awake_during(|| step(&watched), Arc::clone(&shift)));
        (answer, shift)
    }
}
