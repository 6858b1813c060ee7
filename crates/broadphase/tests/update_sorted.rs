//! `SweepAndPrune::update_sorted` against its slow twin, `update` called for each
//! entry in order: the same stored boxes, the same pairs and diffs, the same errors, on
//! 1 and 2 rayon threads and on the calling thread alone (`set_parallel(false)`), with
//! increasing ids (in several parts) and statics among them; ids out of order and bad
//! entries are refused with nothing changed, whether the parts run on a pool or not.

use glam::Vec3;
use sepax_broadphase::{BroadPhaseError, ProxyId, ProxyKind, SweepAndPrune};
use sepax_geometry::{Aabb, rng::Rng};
use sepax_testkit::clouds::random_boxes;

const N: usize = 9_000;

/// A world of `N` proxies, every fourth static; its passes on the rayon pool or not.
fn world(rng: &mut Rng, parallel: bool) -> SweepAndPrune {
    let mut sap = SweepAndPrune::new();
    sap.set_parallel(parallel);
    for (i, b) in random_boxes(rng, N, 30.0, 0.3, 1.5).into_iter().enumerate() {
        let kind = if i % 4 == 0 {
            ProxyKind::Static
        } else {
            ProxyKind::Dynamic
        };
        sap.insert(ProxyId(i as u32), b, kind).unwrap();
    }
    sap.update_pairs();
    sap
}

type Snapshot = (
    Vec<Option<Aabb>>,
    Vec<(ProxyId, ProxyId)>,
    Vec<(ProxyId, ProxyId)>,
);

fn snapshot(sap: &mut SweepAndPrune) -> Snapshot {
    sap.update_pairs();
    let boxes = (0..N as u32).map(|i| sap.aabb(ProxyId(i)).ok()).collect();
    (boxes, sap.pairs().to_vec(), sap.pairs_added().to_vec())
}

/// Moves `ids` (in the given order) by both ways; returns both results and snapshots.
fn both_ways(
    seed: u64,
    pick: impl Fn(&mut Rng) -> Vec<ProxyId>,
    bad: Option<usize>,
    parallel: bool,
) -> [(Result<(), BroadPhaseError>, Snapshot); 2] {
    let run = |batched: bool| {
        let mut rng = Rng::new(seed);
        let mut sap = world(&mut rng, parallel);
        let ids = pick(&mut rng);
        let boxes: Vec<Aabb> = ids
            .iter()
            .enumerate()
            .map(|(k, _)| {
                if bad == Some(k) {
                    return Aabb::new(Vec3::splat(f32::NAN), Vec3::ONE);
                }
                let c = rng.vec3(Vec3::splat(-30.0), Vec3::splat(30.0));
                let h = rng.vec3(Vec3::splat(0.1), Vec3::splat(0.8));
                Aabb::new(c - h, c + h)
            })
            .collect();
        let result = if batched {
            sap.update_sorted(ids.len(), |k| (ids[k], boxes[k]))
                .map(|done| assert!(done, "increasing ids are taken"))
        } else {
            ids.iter()
                .zip(&boxes)
                .try_for_each(|(&id, &b)| sap.update(id, b))
        };
        (result, snapshot(&mut sap))
    };
    [run(true), run(false)]
}

fn sorted_subset(rng: &mut Rng) -> Vec<ProxyId> {
    (0..N as u32)
        .filter(|_| rng.below(3) != 0)
        .map(ProxyId)
        .collect()
}

fn check(
    seed: u64,
    pick: impl Fn(&mut Rng) -> Vec<ProxyId> + Copy + Send + Sync,
    bad: Option<usize>,
) {
    // 0: no pool, the passes on this thread.
    for threads in [0, 1, 2] {
        let [batched, one_by_one] = match threads {
            0 => both_ways(seed, pick, bad, false),
            _ => rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| both_ways(seed, pick, bad, true)),
        };
        assert_eq!(batched.0, one_by_one.0, "seed {seed}: results");
        if bad.is_none() || batched.0.is_ok() {
            assert!(
                batched.1 == one_by_one.1,
                "seed {seed}: boxes or pairs differ"
            );
        }
    }
}

#[test]
fn increasing_ids_match_updates_one_by_one() {
    for seed in 0..4 {
        check(seed, sorted_subset, None);
    }
}

/// Ids out of order (and a repeated id): refused, nothing changed, with the parts on
/// the pool or on this thread.
#[test]
fn ids_out_of_order_are_refused() {
    ids_out_of_order_refused(true);
    ids_out_of_order_refused(false);
}

fn ids_out_of_order_refused(parallel: bool) {
    let mut rng = Rng::new(10);
    let mut sap = world(&mut rng, parallel);
    let before = snapshot(&mut sap);
    let mut ids = sorted_subset(&mut rng);
    let unit = |k: usize| Aabb::new(Vec3::splat(k as f32), Vec3::splat(k as f32 + 1.0));
    // Within one part, across the join of two parts, and a repeat.
    for (i, j) in [(10, 11), (2047, 2048), (5000, 5001)] {
        ids.swap(i, j);
        assert_eq!(
            sap.update_sorted(ids.len(), |k| (ids[k], unit(k))),
            Ok(false)
        );
        assert!(snapshot(&mut sap) == before);
        ids.swap(i, j);
    }
    ids[3000] = ids[2999];
    assert_eq!(
        sap.update_sorted(ids.len(), |k| (ids[k], unit(k))),
        Ok(false)
    );
    assert!(snapshot(&mut sap) == before);
}

/// A non-finite box or an unknown id: the error `update` gives at that entry, and with
/// increasing ids no box changed at all.
#[test]
fn a_bad_entry_changes_nothing() {
    let mut rng = Rng::new(7);
    let mut sap = world(&mut rng, true);
    let before = snapshot(&mut sap);
    let ids: Vec<ProxyId> = (0..N as u32).step_by(2).map(ProxyId).collect();
    let moved = |k: usize| {
        let c = Vec3::new(k as f32 * 0.01, 0.0, 0.0);
        if k == ids.len() - 3 {
            Aabb::new(Vec3::splat(f32::NAN), c)
        } else {
            Aabb::new(c, c + Vec3::ONE)
        }
    };
    assert_eq!(
        sap.update_sorted(ids.len(), |k| (ids[k], moved(k))),
        Err(BroadPhaseError::NonFiniteAabb)
    );
    assert!(snapshot(&mut sap) == before);
    let mut unknown = ids.clone();
    unknown.push(ProxyId(N as u32 + 5));
    assert_eq!(
        sap.update_sorted(unknown.len(), |k| {
            let c = Vec3::splat(k as f32);
            (unknown[k], Aabb::new(c, c + Vec3::ONE))
        }),
        Err(BroadPhaseError::UnknownProxy(ProxyId(N as u32 + 5)))
    );
    assert!(snapshot(&mut sap) == before);
    // No entries: nothing to do, and done.
    assert_eq!(
        sap.update_sorted(0, |_| (ProxyId(0), Aabb::new(Vec3::NAN, Vec3::NAN))),
        Ok(true)
    );
    assert!(snapshot(&mut sap) == before);
    check(3, sorted_subset, Some(4_000));
}
