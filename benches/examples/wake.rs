//! How long a sleeping rayon thread takes to join in: the measurement behind
//! `sepax_pipeline::Config::keep_threads_awake`.
//!
//! On a pool of 2 threads, the pool's thread A works alone for a `gap` (the sequential
//! part between two parallel stages of a step), then splits 100 µs of work into two
//! 50 µs halves with `rayon::join`. With both threads busy the join takes 50 µs; when
//! thread B went to sleep during the gap, it takes as long as B needs to wake and steal
//! the second half, plus 50 µs. Printed: the join's median and 90th percentile over 200
//! rounds per gap, with B left to sleep and with B kept awake by a helper that loops on
//! `rayon::yield_now` and hands its core over when idle (`std::thread::yield_now`), as
//! the world's step does (without the step's 1 ms idle limit: this helper stays until
//! the rounds end).
//!
//! ```sh
//! cargo run --release -p sepax-benches --example wake
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Busy work for `micros` microseconds.
fn work(micros: u64) -> u64 {
    let start = Instant::now();
    let mut spins = 0u64;
    while start.elapsed() < Duration::from_micros(micros) {
        spins = spins.wrapping_add(1);
    }
    spins
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of 2 threads");
    for awake in [false, true] {
        pool.install(|| {
            let done = Arc::new(AtomicBool::new(false));
            if awake {
                let (done, driver) = (Arc::clone(&done), rayon::current_thread_index());
                rayon::spawn(move || {
                    if rayon::current_thread_index() == driver {
                        return;
                    }
                    while !done.load(Ordering::Acquire) {
                        if rayon::yield_now() != Some(rayon::Yield::Executed) {
                            std::thread::yield_now();
                        }
                    }
                });
            }
            for gap in [0u64, 5, 20, 100, 1000] {
                let mut times: Vec<f64> = (0..200)
                    .map(|_| {
                        work(gap);
                        let start = Instant::now();
                        std::hint::black_box(rayon::join(|| work(50), || work(50)));
                        start.elapsed().as_secs_f64() * 1e6
                    })
                    .collect();
                times.sort_by(f64::total_cmp);
                let label = if awake { "kept awake" } else { "left to sleep" };
                println!(
                    "{label:>13}, gap {gap:>4} µs: join of 2 × 50 µs median {:.1} µs, p90 {:.1} µs",
                    times[100], times[180]
                );
            }
            done.store(true, Ordering::Release);
        });
    }
}
