//! A world of one thread has no pool: its steps run on the calling thread, every
//! stage's chunks one after the other, and never touch rayon — not even its global
//! pool, which a parallel iterator called outside any pool would start. The reports
//! are the bits a world of two threads gives.
//!
//! Alone in its test binary (no other test here may start the global pool), and large
//! enough that every pass of the broad phase would split if it could (more movers than
//! `PARALLEL_MIN_PROXIES`), with CCD bullets for the CCD pass.

mod common;

use sepax_pipeline::broadphase::PARALLEL_MIN_PROXIES;
use sepax_pipeline::{CollisionWorld, Config, StepReport, rayon};
use sepax_testkit::scenes;
use std::hash::DefaultHasher;

/// The soup and the CCD scene in one world of `threads` threads, stepped 8 frames:
/// each step's report hash and CCD hits.
fn run(threads: usize) -> Vec<(u64, usize, Vec<sepax_pipeline::CcdHit>)> {
    let soup = scenes::soup(PARALLEL_MIN_PROXIES + 4_000, 3);
    let bullets = scenes::ccd(40, 6, 3);
    let mut world = CollisionWorld::new(Config {
        threads,
        ..Config::default()
    })
    .unwrap();
    assert_eq!(world.threads(), threads);
    let (in_soup, in_ccd) = (
        soup.populate(&mut world).unwrap(),
        bullets.populate(&mut world).unwrap(),
    );
    (0..8u32)
        .map(|frame| {
            soup.apply(&mut world, &in_soup, frame).unwrap();
            bullets.apply(&mut world, &in_ccd, frame).unwrap();
            let report: &StepReport = world.step();
            let mut h = DefaultHasher::new();
            common::report_hash(report, &mut h);
            let touching = report.contacts.iter().filter(|c| c.touching).count();
            (common::finish(h), touching, report.ccd_hits.clone())
        })
        .collect()
}

#[test]
fn one_thread_steps_here_without_rayon_and_gives_the_same_bits() {
    let alone = run(1);
    assert!(
        alone.iter().all(|(_, touching, _)| *touching > 5_000),
        "the soup must collide"
    );
    assert!(
        alone.iter().any(|(_, _, hits)| !hits.is_empty()),
        "the bullets must hit"
    );
    // Nothing above ran on a rayon thread or started the global pool: it can still be
    // built here.
    assert_eq!(rayon::current_thread_index(), None);
    assert!(
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build_global()
            .is_ok(),
        "a one-thread world's step started rayon's global pool"
    );
    assert!(alone == run(2), "one thread and two differ");
}
