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
//! So while a step runs, every thread of the pool runs a *helper*: a loop of
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
//! **Delivery.** The helpers are a broadcast ([`rayon::ThreadPool::spawn_broadcast`]):
//! one job per thread, delivered to that thread, which runs it before it looks for
//! any other work, and every thread is woken at once. (Until 3 December 2026 the step's
//! thread spawned them as ordinary jobs once the step had begun: those sat in its own
//! queue, and either the other thread, once awake, stole one, or the step's thread
//! popped them itself while it waited in a `join`. Timed from the spawn, at the
//! 10,000-box soup on 2 threads, a helper started 230–900 µs later on average, most of
//! the AABB and broad-phase stages.)
//!
//! **Woken ahead.** Even so a sleeping thread takes its 50–100 µs to wake, and the
//! first stage (the AABBs: ~0.1 ms at 10,000 boxes) ran on one thread meanwhile. The
//! bodies' poses come first, though: the first `set_pose` or `set_poses` entry that
//! moves a body since the last step wakes the world's own pool ([`wake_ahead`]), and
//! the helpers spin until the step comes and then serve it ([`install_awake`]), so the
//! threads wake while the caller is still setting poses. Helpers that found no step
//! for [`IDLE_LIMIT`] leave, and the step then wakes new ones; a step on another pool
//! (`step_in`) lets them go. Measured with both, on the noisy 2-core VM of 3 December
//! 2026, against the build before, runs alternated:
//! * `stress --scene soup --threads 2`, whose poses are computed while they are set
//!   (`Scene::apply`), the `call` row (the step's wall time for the caller), geometric
//!   mean of new / old medians: 1,000 boxes 0.74 (8 runs of 1,500 frames), 10,000
//!   boxes 0.92 (6 runs of 200 frames); the static-heavy scene 1.03 (6 runs, noise);
//! * `cargo bench -p sepax-benches --bench step -- "step_.*/sepax"`, whose poses are
//!   computed before the timed span and only copied in it (so the threads have less
//!   time to wake before the step): three runs in a calm hour, new / old: soup 1,000
//!   1.00 (0.89, 0.89, 1.25), soup 10,000 0.91, soup 50,000 0.94, hulls 0.88,
//!   static-heavy 0.87, terrain 0.92 (the one-thread world, untouched, 0.97); an hour
//!   later, in a noisier one, eight runs of soup 1,000 / hulls / static-heavy 1.00 /
//!   1.07 / 1.00 and sixteen of soup 1,000 0.97: no gain the noise leaves visible there.
//!
//! **Woken for the next step.** The bench's copy of 1,000 poses takes a few
//! microseconds, far less than a wake-up, so there the second thread came late to every
//! step. Since 5 December 2026 a step on the world's own pool wakes its crew for the
//! next step as it ends (the threads are awake then: nothing to wait for), and the
//! helpers wait for that step as woken-ahead ones do, [`IDLE_LIMIT`] at most. The
//! bench's soup of 1,000 boxes (`cargo bench -p sepax-benches --bench step --
//! step_soup_1k`, two runs each, alternated, a build that switched it by an environment
//! variable): 141 and 140 µs a frame instead of 177 and 177 (rapier3d-parallel in the
//! same runs 755–770 µs). `stress`, whose poses are computed while they are set,
//! gave the threads time to wake before, and measured no difference (0.117–0.122 ms
//! medians either way).
//!
//! A helper never waits long for work that cannot come. One that lands on the thread
//! running the step (that thread may pick it up while it waits inside a `join`)
//! returns at once: spinning there would stop the step below it on the same stack (one
//! that was there first runs the step from its own loop instead, below it). And a
//! helper leaves after [`IDLE_LIMIT`] without a job even while its step goes on: a
//! thread may pick a helper up while it waits inside other work (another world's step
//! on a pool the caller shares, or, with three threads or more, a chunk of this step),
//! and that work cannot go on until the helper returns; when every thread is stuck so,
//! none finds work, and the limit breaks the wait. Between steps the threads sleep as
//! before, but for the wait from the first moved pose to the step, and after a step on
//! the world's own pool (its threads woken ahead for the next step as it ends), at
//! most [`IDLE_LIMIT`] each.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A helper that found no job for this long leaves (see the module docs): longer
/// than the sequential stretches between the stages of a 10,000-body step (the full
/// sweep's sorts, a few hundred µs), short enough that a helper stalling other work
/// costs little.
const IDLE_LIMIT: Duration = Duration::from_millis(1);

/// What a step shares with its helpers.
struct Shift {
    /// Set when the step has ended (or unwound).
    done: AtomicBool,
    /// The pool index of the thread running the step, once it has begun
    /// ([`NOT_BEGUN`] before).
    driver: AtomicUsize,
    /// Helpers running now (their loop entered and not yet left).
    helping: AtomicUsize,
    /// The pool indices (below 64) of the threads whose helper has entered its loop,
    /// one bit each.
    arrivals: AtomicU64,
    /// The same for the helpers in their loop now (a helper that runs the step from its
    /// loop stays in it until the step ends).
    in_loop: AtomicU64,
    /// When the helpers were spawned.
    woken: Instant,
    /// How long a helper waits for a job before it leaves ([`IDLE_LIMIT`]; longer in
    /// tests that must not see helpers leave on a loaded machine).
    idle_limit: Duration,
}

/// [`Shift::driver`] before the step has begun.
const NOT_BEGUN: usize = usize::MAX;

impl Default for Shift {
    fn default() -> Shift {
        Shift {
            done: AtomicBool::new(false),
            driver: AtomicUsize::new(NOT_BEGUN),
            helping: AtomicUsize::new(0),
            arrivals: AtomicU64::new(0),
            in_loop: AtomicU64::new(0),
            woken: Instant::now(),
            idle_limit: IDLE_LIMIT,
        }
    }
}

/// Helpers woken ahead of a step (see [`wake_ahead`]); dropped, they leave.
pub(crate) struct Crew(Arc<Shift>);

impl Drop for Crew {
    fn drop(&mut self) {
        self.0.done.store(true, Ordering::Release);
    }
}

/// A look at a crew's shift that outlives the crew (tests of the world's crew).
#[cfg(test)]
pub(crate) struct CrewWatch(Arc<Shift>);

#[cfg(test)]
impl Crew {
    pub(crate) fn watch(&self) -> CrewWatch {
        CrewWatch(Arc::clone(&self.0))
    }
}

#[cfg(test)]
impl CrewWatch {
    /// The same shift as `other`'s.
    pub(crate) fn same(&self, other: &CrewWatch) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The helpers were told to leave (the crew was dropped or its step ended).
    pub(crate) fn stopped(&self) -> bool {
        self.0.done.load(Ordering::Acquire)
    }

    /// A step ran with this shift.
    pub(crate) fn served_a_step(&self) -> bool {
        self.0.driver.load(Ordering::Acquire) != NOT_BEGUN
    }
}

/// Wakes a helper on every thread of `pool` now, for a step that is about to come:
/// they spin until that step ends, or leave after [`IDLE_LIMIT`] without a job.
pub(crate) fn wake_ahead(pool: &rayon::ThreadPool) -> Crew {
    wake_ahead_with(pool, Shift::default())
}

/// [`wake_ahead`] with the shift given (tests set its idle limit).
fn wake_ahead_with(pool: &rayon::ThreadPool, shift: Shift) -> Crew {
    let shift = Arc::new(shift);
    spawn_helpers(pool, &shift);
    Crew(shift)
}

/// One helper of `shift` per thread of `pool`, each delivered to its own thread, which
/// runs it before it looks for any other work, and every thread woken at once: the
/// step's thread included (its helper, when it comes first, runs the step from its
/// loop; when it comes on top of the step, it returns at once).
fn spawn_helpers(pool: &rayon::ThreadPool, shift: &Arc<Shift>) {
    let shift = Arc::clone(shift);
    pool.spawn_broadcast(move |_| help(&shift));
}

/// Runs `step` on `pool` (as [`rayon::ThreadPool::install`] does) with a helper on
/// every other thread of the pool, and stops them when it returns (or unwinds): the
/// helpers of `crew` (woken for this pool) unless they may have left, else new ones.
pub(crate) fn install_awake<R: Send>(
    pool: &rayon::ThreadPool,
    crew: Option<Crew>,
    step: impl FnOnce() -> R + Send,
) -> R {
    match &crew {
        Some(Crew(shift)) if shift.expected() => run_shift(pool, step, Arc::clone(shift)),
        _ => install_with(pool, step, Arc::default()),
    }
}

impl Shift {
    /// Whether the helpers can be counted on: some are in their loop, or they were
    /// woken so recently that none can have left yet (a helper leaves only after
    /// [`IDLE_LIMIT`] in its loop without a job).
    fn expected(&self) -> bool {
        self.helping.load(Ordering::Acquire) > 0 || self.woken.elapsed() < self.idle_limit / 2
    }
}

/// [`install_awake`] with the shift given (tests watch its helpers).
fn install_with<R: Send>(
    pool: &rayon::ThreadPool,
    step: impl FnOnce() -> R + Send,
    shift: Arc<Shift>,
) -> R {
    if pool.current_num_threads() <= 1 {
        return pool.install(step);
    }
    spawn_helpers(pool, &shift);
    run_shift(pool, step, shift)
}

/// `step` on `pool` with the helpers of `shift` (already spawned), stopped when it ends.
fn run_shift<R: Send>(
    pool: &rayon::ThreadPool,
    step: impl FnOnce() -> R + Send,
    shift: Arc<Shift>,
) -> R {
    pool.install(move || {
        let here = rayon::current_thread_index().unwrap_or(NOT_BEGUN);
        shift.driver.store(here, Ordering::Release);
        // Stops the helpers however `step` ends (a crew dropped).
        let _stop = Crew(shift);
        step()
    })
}

/// A helper's loop: runs the pool's jobs (the step's) until the step ends or no job
/// came for [`IDLE_LIMIT`]. Returns at once on the step's own thread while the step
/// runs there (the helper would sit on top of it), and once the step has ended.
fn help(shift: &Shift) {
    let here = rayon::current_thread_index().unwrap_or(NOT_BEGUN);
    if shift.done.load(Ordering::Acquire) || shift.driver.load(Ordering::Acquire) == here {
        return;
    }
    let bit = 1u64.checked_shl(here as u32).unwrap_or(0);
    shift.arrivals.fetch_or(bit, Ordering::AcqRel);
    shift.in_loop.fetch_or(bit, Ordering::AcqRel);
    shift.helping.fetch_add(1, Ordering::AcqRel);
    let mut last_job = Instant::now();
    while !shift.done.load(Ordering::Acquire) {
        if rayon::yield_now() == Some(rayon::Yield::Executed) {
            last_job = Instant::now();
        } else if last_job.elapsed() > shift.idle_limit {
            break;
        } else {
            // Lets any other runnable thread of the machine have the core (a pool
            // with more threads than cores), else returns at once.
            std::thread::yield_now();
        }
    }
    shift.in_loop.fetch_and(!bit, Ordering::AcqRel);
    shift.helping.fetch_sub(1, Ordering::AcqRel);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rayon::prelude::*;

    /// A new pool of `threads` threads (the world's tests use it too).
    pub(crate) fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// A step's parallel work, and its answer computed sequentially.
    fn parallel_work() -> u64 {
        (0..100_000u64).into_par_iter().map(|i| i * i % 7).sum()
    }

    fn sequential_work() -> u64 {
        (0..100_000u64).map(|i| i * i % 7).sum()
    }

    /// A shift whose helpers wait a minute for a job before they leave.
    fn patient() -> Shift {
        Shift {
            idle_limit: Duration::from_secs(60),
            ..Shift::default()
        }
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

    /// Of a bit set of threads, those other than the step's, once the step has begun.
    fn others(shift: &Shift, threads: &AtomicU64) -> u32 {
        let driver = shift.driver.load(Ordering::Acquire);
        let threads = threads.load(Ordering::Acquire);
        (threads & !1u64.checked_shl(driver as u32).unwrap_or(0)).count_ones()
    }

    /// The helpers that came on threads other than the step's.
    fn others_arrived(shift: &Shift) -> u32 {
        others(shift, &shift.arrivals)
    }

    /// On pools of 2 to 4 threads, called from outside the pool and from inside a
    /// `join` of it: the helpers of every thread but the step's come, the step's
    /// parallel work gives the sequential answer, and once the step has returned every
    /// helper has left (none spins on).
    #[test]
    fn helpers_come_during_the_step_and_leave_after_it() {
        for threads in 2..=4 {
            let pool = pool(threads);
            for round in 0..20 {
                let shift = Arc::new(Shift::default());
                let watched = Arc::clone(&shift);
                let step = || {
                    assert!(
                        eventually(|| others_arrived(&watched) == threads as u32 - 1),
                        "{threads} threads: the helpers never all came"
                    );
                    parallel_work()
                };
                let sum = if round % 2 == 0 {
                    install_with(&pool, step, Arc::clone(&shift))
                } else {
                    let inner = || install_with(&pool, step, Arc::clone(&shift));
                    pool.install(|| rayon::join(inner, || ()).0)
                };
                assert_eq!(sum, sequential_work());
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
            let came = eventually(|| others_arrived(watched) == 2);
            came && eventually(|| others(watched, &watched.in_loop) == 0)
        });
        assert!(left_while_running);
        assert!(shift.done.load(Ordering::Acquire));
    }

    /// Helpers woken ahead of a step, on pools of 2 to 4 threads: each thread's comes
    /// and spins with no step; the step given the crew is served by them (every thread
    /// but the step's runs one of the crew's helpers during the step), gives the
    /// sequential answer, and they all leave once it has returned. (Patient helpers:
    /// with the 1 ms idle limit, on a machine busy with other work, the first ones could
    /// leave before the last came.)
    #[test]
    fn woken_helpers_serve_the_step_and_leave_after_it() {
        for threads in 2..=4 {
            let pool = pool(threads);
            for _ in 0..10 {
                // Helpers that never leave on their own: on a loaded machine a thread
                // may come later than another's idle limit.
                let crew = wake_ahead_with(&pool, patient());
                let watched = Arc::clone(&crew.0);
                assert!(
                    eventually(|| watched.helping.load(Ordering::Acquire) == threads),
                    "{threads} threads: the woken helpers never all came"
                );
                let sum = install_awake(&pool, Some(crew), || {
                    assert!(
                        eventually(|| others_arrived(&watched) == threads as u32 - 1),
                        "{threads} threads: the crew does not serve the step"
                    );
                    parallel_work()
                });
                assert_eq!(sum, sequential_work());
                assert!(watched.done.load(Ordering::Acquire));
                assert!(
                    eventually(|| watched.helping.load(Ordering::Acquire) == 0),
                    "{threads} threads: a woken helper still runs after the step"
                );
            }
        }
    }

    /// Woken helpers that get no step leave: at once when their crew is dropped (patient
    /// ones, which would not leave on their own), and after `IDLE_LIMIT` when it is kept;
    /// a step given a crew whose helpers have left wakes new ones (and still gives the
    /// answer).
    #[test]
    fn woken_helpers_without_a_step_leave() {
        let pool = pool(3);
        let crew = wake_ahead_with(&pool, patient());
        let watched = Arc::clone(&crew.0);
        assert!(eventually(|| watched.helping.load(Ordering::Acquire) == 3));
        drop(crew);
        assert!(eventually(|| watched.helping.load(Ordering::Acquire) == 0));

        let crew = wake_ahead(&pool);
        let watched = Arc::clone(&crew.0);
        assert!(eventually(|| watched
            .arrivals
            .load(Ordering::Acquire)
            .count_ones()
            == 3));
        assert!(eventually(|| watched.helping.load(Ordering::Acquire) == 0));
        assert!(!watched.expected());
        let sum = install_awake(&pool, Some(crew), || {
            (0..1000u64).into_par_iter().sum::<u64>()
        });
        assert_eq!(sum, 999 * 1000 / 2);
        // The crew's helpers were not asked back: the step had its own.
        assert_eq!(watched.driver.load(Ordering::Acquire), NOT_BEGUN);
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
        let answer = install_with(&pool(threads), || step(&watched), Arc::clone(&shift));
        (answer, shift)
    }
}
