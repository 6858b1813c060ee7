//! Issue 9, item 3: the pair budget. Boxes all at one point used to make the pair
//! lists grow without bound (5,000 boxes: 12.5M pairs; 200,000 aborted on a 4 GB
//! allocation in the sweep). With a budget the broad phase keeps at most that many
//! candidate pairs, says so in its stats, and keeps the same pairs for any thread
//! count.

use glam::Vec3;
use sepax_broadphase::{BruteForce, PARALLEL_MIN_PROXIES, ProxyId, ProxyKind, SweepAndPrune};
use sepax_geometry::{Aabb, rng::Rng};
use sepax_testkit::broad_twin::assert_sorted_unique;
use sepax_testkit::clouds::random_boxes;
use std::time::{Duration, Instant};

type Pairs = Vec<(ProxyId, ProxyId)>;

/// `n` unit boxes at one point (every pair overlaps), `statics` of them static; a few
/// frames with a budget; the pairs of each frame.
fn one_point(n: usize, statics: usize, budget: usize, threads: usize) -> Vec<Pairs> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut sap = SweepAndPrune::new();
        sap.set_pair_budget(budget);
        let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let ids: Vec<_> = (0..n)
            .map(|i| {
                let kind = if i < statics {
                    ProxyKind::Static
                } else {
                    ProxyKind::Dynamic
                };
                let id = ProxyId(i as u32);
                sap.insert(id, unit, kind).unwrap();
                id
            })
            .collect();
        let mut frames = Vec::new();
        for frame in 0..3 {
            let start = Instant::now();
            sap.update_pairs();
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "frame {frame} too slow"
            );
            assert!(sap.stats().pair_budget_exceeded);
            assert_eq!(sap.pairs().len(), budget);
            assert!(sap.pairs_added().len() <= budget);
            assert!(sap.pairs_removed().len() <= budget);
            assert_sorted_unique(sap.pairs(), "budgeted pairs");
            frames.push(sap.pairs().to_vec());
            // Nudge one box: the next frame must keep the same pairs.
            sap.update(ids[n - 1], Aabb::new(Vec3::splat(0.01), Vec3::splat(1.01)))
                .unwrap();
        }
        frames
    })
}

#[test]
fn issue_9_boxes_at_one_point_stop_at_the_budget() {
    let frames = one_point(3_000, 0, 100_000, 1);
    assert_eq!(frames[0], frames[1]);
    assert_eq!(frames, one_point(3_000, 0, 100_000, 2));
}

#[test]
fn issue_9_parallel_path_keeps_the_same_pairs_for_1_and_2_threads() {
    let n = PARALLEL_MIN_PROXIES + 4_000;
    let one = one_point(n, 0, 50_000, 1);
    assert_eq!(one, one_point(n, 0, 50_000, 2));
    assert_eq!(one, one_point(n, 0, 50_000, 4));
}

#[test]
fn issue_9_statics_at_one_point_count_against_the_budget() {
    // 2,000 statics and 1,000 dynamics at one point: 2M static candidates, 0.5M
    // dynamic pairs.
    let a = one_point(3_000, 2_000, 100_000, 1);
    assert_eq!(a, one_point(3_000, 2_000, 100_000, 2));
    // Below the dynamic pairs' count: no static pair at all.
    let b = one_point(3_000, 2_000, 1_000, 2);
    assert!(b[0].iter().all(|&(x, y)| x.0 >= 2_000 && y.0 >= 2_000));
    let n = PARALLEL_MIN_PROXIES + 1_000;
    let c = one_point(n, 1_000, 200_000, 1);
    assert_eq!(c, one_point(n, 1_000, 200_000, 2));
}

#[test]
fn issue_9_within_budget_nothing_changes() {
    // A scene under the budget gives the oracle's pairs and no flag; the smallest
    // budget that fits is exact too, and one less is exceeded.
    let mut rng = Rng::new(5);
    let boxes = random_boxes(&mut rng, 2_000, 10.0, 0.5, 1.5);
    let mut oracle = BruteForce::new();
    for (i, b) in boxes.iter().enumerate() {
        oracle
            .insert(ProxyId(i as u32), *b, ProxyKind::Dynamic)
            .unwrap();
    }
    oracle.update_pairs();
    let mut sap = SweepAndPrune::new();
    for (i, b) in boxes.iter().enumerate() {
        sap.insert(ProxyId(i as u32), *b, ProxyKind::Dynamic)
            .unwrap();
    }
    sap.update_pairs();
    assert!(!sap.stats().pair_budget_exceeded);
    assert_eq!(sap.pairs(), oracle.pairs());
    // The budget counts fat-box candidates, a superset of the pairs.
    let mut lo = oracle.pairs().len();
    let mut hi = oracle.pairs().len() * 20;
    sap.set_pair_budget(hi);
    sap.update_pairs();
    assert!(!sap.stats().pair_budget_exceeded);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        sap.set_pair_budget(mid);
        sap.update_pairs();
        if sap.stats().pair_budget_exceeded {
            lo = mid;
            assert!(sap.pairs().len() <= mid);
        } else {
            hi = mid;
            assert_eq!(sap.pairs(), oracle.pairs());
        }
    }
    // Raising the budget again brings every pair back.
    sap.set_pair_budget(usize::MAX);
    sap.update_pairs();
    assert!(!sap.stats().pair_budget_exceeded);
    assert_eq!(sap.pairs(), oracle.pairs());
}

#[test]
fn issue_9_zero_budget_keeps_nothing() {
    let mut sap = SweepAndPrune::new();
    sap.set_pair_budget(0);
    for i in 0..10 {
        sap.insert(
            ProxyId(i),
            Aabb::new(Vec3::ZERO, Vec3::ONE),
            ProxyKind::Dynamic,
        )
        .unwrap();
    }
    sap.update_pairs();
    assert!(sap.stats().pair_budget_exceeded);
    assert!(sap.pairs().is_empty());
}
