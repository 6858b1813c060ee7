//! Issue 9, item 3: bounded memory when pairs explode. 5,000 bodies at one point were
//! 12.5M pairs (14 s a step, 8.2 GB) and 200,000 aborted the process on a 4 GB
//! allocation in the sweep. With `Config::pair_budget` a step keeps at most that many
//! candidate pairs, says so in the report, keeps the same pairs for any thread count,
//! and ends the touching pairs it dropped with `EndCause::PairBudget`.

mod common;

use glam::Vec3;
use sepax_pipeline::broadphase::PARALLEL_MIN_PROXIES;
use sepax_pipeline::geometry::{Cuboid, Pose, Shape};
use sepax_pipeline::{
    BodyDesc, BodyHandle, CollisionWorld, Config, EndCause, EventKind, StepReport,
};
use std::time::{Duration, Instant};

fn cube() -> Shape {
    Cuboid::try_from_half_extents(Vec3::splat(0.5))
        .unwrap()
        .into()
}

fn world(threads: usize, budget: usize) -> CollisionWorld {
    CollisionWorld::new(Config {
        threads,
        pair_budget: budget,
        ..Config::default()
    })
    .unwrap()
}

/// Checks the bounds of one over-budget step and returns its hash.
fn check_over_budget(world: &CollisionWorld, r: &StepReport, budget: usize) -> u64 {
    assert!(r.pair_budget_exceeded);
    assert_eq!(r.candidate_pairs, budget);
    assert!(r.contacts.len() <= budget);
    assert!(r.events.len() <= 2 * budget);
    assert!(world.candidate_pairs().len() <= budget);
    let mut h = std::hash::DefaultHasher::new();
    common::report_hash(r, &mut h);
    common::finish(h)
}

/// `n` unit cubes at one point, a few steps (one cube nudged between steps); the
/// hash of each report.
fn at_one_point(n: usize, budget: usize, threads: usize) -> Vec<u64> {
    let mut w = world(threads, budget);
    let handles: Vec<BodyHandle> = (0..n)
        .map(|_| w.insert(BodyDesc::dynamic(cube(), Pose::IDENTITY)).unwrap())
        .collect();
    let mut hashes = Vec::new();
    for step in 0..3 {
        let start = Instant::now();
        w.step();
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "step {step} took {:?}",
            start.elapsed()
        );
        hashes.push(check_over_budget(&w, w.report(), budget));
        let nudge = Pose::from_translation(Vec3::splat(0.01 * (step + 1) as f32));
        w.set_pose(handles[n / 2], nudge).unwrap();
    }
    hashes
}

#[test]
fn issue_9_three_thousand_bodies_at_one_point_stop_at_the_budget() {
    // 4.5M pairs without a budget.
    let one = at_one_point(3_000, 100_000, 1);
    assert_eq!(one, at_one_point(3_000, 100_000, 2));
}

#[test]
fn issue_9_parallel_broad_phase_keeps_the_same_pairs_for_1_and_2_threads() {
    // Above the broad phase's parallel threshold: 200M pairs without a budget.
    let n = PARALLEL_MIN_PROXIES + 4_000;
    let one = at_one_point(n, 50_000, 1);
    assert_eq!(one, at_one_point(n, 50_000, 2));
}

#[test]
fn issue_9_dropped_touching_pairs_end_with_pair_budget_and_come_back() {
    // Two touching cubes, then a crowd at one point placed before them on every axis
    // (so the sweep meets the crowd first and the budget is spent there).
    let mut w = world(2, 1_000);
    let a = w.insert(BodyDesc::dynamic(cube(), Pose::IDENTITY)).unwrap();
    let b = w
        .insert(BodyDesc::dynamic(
            cube(),
            Pose::from_translation(Vec3::X * 0.9),
        ))
        .unwrap();
    let r = w.step();
    assert!(!r.pair_budget_exceeded);
    assert_eq!(r.events[0].kind, EventKind::Started);

    let far = Pose::from_translation(Vec3::splat(-100.0));
    let crowd: Vec<_> = (0..200)
        .map(|_| w.insert(BodyDesc::dynamic(cube(), far)).unwrap())
        .collect();
    let r = w.step();
    assert!(r.pair_budget_exceeded);
    assert_eq!(r.candidate_pairs, 1_000);
    let ended: Vec<_> = r
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Ended(EndCause::PairBudget))
        .collect();
    assert_eq!(ended.len(), 1);
    assert_eq!((ended[0].a, ended[0].b), (a, b));

    // The crowd leaves (its kept pairs end as removed): under budget again, the
    // pair is found and starts again.
    for h in crowd {
        w.remove(h).unwrap();
    }
    let r = w.step();
    assert!(!r.pair_budget_exceeded);
    assert_eq!(r.contacts.len(), 1);
    let mine: Vec<_> = r.events.iter().filter(|e| e.a == a).collect();
    assert_eq!(mine.len(), 1);
    assert_eq!((mine[0].b, mine[0].kind), (b, EventKind::Started));
    let removed = EventKind::Ended(EndCause::Removed);
    assert!(
        r.events
            .iter()
            .filter(|e| e.a != a)
            .all(|e| e.kind == removed)
    );
}

#[test]
fn issue_9_extreme_budgets() {
    // 0 keeps nothing; usize::MAX keeps everything.
    for (budget, pairs) in [(0, 0), (usize::MAX, 45)] {
        let mut w = world(1, budget);
        for _ in 0..10 {
            w.insert(BodyDesc::dynamic(cube(), Pose::IDENTITY)).unwrap();
        }
        let r = w.step();
        assert_eq!(r.candidate_pairs, pairs);
        assert_eq!(r.pair_budget_exceeded, budget == 0);
    }
}
