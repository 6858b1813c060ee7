//! Pairs and diffs equal brute force under random sequences of insert / small move /
//! teleport / remove, over many frames, with the grid and without.

use glam::Vec3;
use proptest::prelude::*;
use sepax_broadphase::{GRID_MIN_PROXIES, ProxyKind};
use sepax_geometry::{Aabb, rng::Rng};
use sepax_testkit::broad_twin::BroadPhaseTwin;
use sepax_testkit::clouds::random_boxes;

/// One random frame of edits, then a check against the oracle.
fn run(seed: u64, start: usize, frames: usize, half: f32) {
    let mut rng = Rng::new(seed);
    let mut pair = BroadPhaseTwin::new();
    for b in random_boxes(&mut rng, start, half, 0.2, 2.0) {
        let kind = if rng.below(4) == 0 {
            ProxyKind::Static
        } else {
            ProxyKind::Dynamic
        };
        pair.insert(b, kind);
    }
    let mut full_sorts = 0;
    for frame in 0..frames {
        let ids = pair.ids.clone();
        for id in ids {
            let aabb = pair.sap.aabb(id).unwrap();
            let is_static = pair.oracle_kind(id) == ProxyKind::Static;
            let roll = rng.below(1000);
            if is_static && roll >= 5 {
                continue; // statics rarely change
            }
            match roll {
                0..=4 => pair.remove(id),
                5..=9 => {
                    let c = rng.vec3(Vec3::splat(-half), Vec3::splat(half));
                    let h = aabb.half_extents();
                    pair.update(id, Aabb::new(c - h, c + h));
                }
                _ => {
                    let d = rng.vec3(Vec3::splat(-0.05), Vec3::splat(0.05));
                    pair.update(id, Aabb::new(aabb.min + d, aabb.max + d));
                }
            }
        }
        let extra = rng.below(start / 50 + 2);
        for b in random_boxes(&mut rng, extra, half, 0.0, 2.0) {
            let kind = if rng.below(4) == 0 {
                ProxyKind::Static
            } else {
                ProxyKind::Dynamic
            };
            pair.insert(b, kind);
        }
        pair.check(&format!("seed {seed} frame {frame}"));
        full_sorts += pair.sap.stats().full_sort as usize;
    }
    assert!(
        full_sorts < frames,
        "coherent frames should repair, not re-sort"
    );
}

#[test]
fn small_scene_sequences() {
    for seed in 0..8 {
        run(seed, 200, 30, 6.0);
    }
}

#[test]
fn gridded_scene_sequence() {
    run(77, GRID_MIN_PROXIES * 3, 20, 18.0);
}

#[test]
fn grid_and_big_boxes_are_exercised() {
    let mut rng = Rng::new(5);
    let mut pair = BroadPhaseTwin::new();
    for b in random_boxes(&mut rng, 3000, 20.0, 0.3, 1.0) {
        pair.insert(b, ProxyKind::Dynamic);
    }
    pair.insert(
        Aabb::new(Vec3::splat(-25.0), Vec3::splat(25.0)),
        ProxyKind::Dynamic,
    );
    pair.check("grid");
    let stats = pair.sap.stats();
    assert!(stats.grid.0 > 1 && stats.grid.1 > 1, "{stats:?}");
    assert_eq!(stats.big, 1);
    assert!(stats.full_sort);
}

#[test]
fn teleport_everything_falls_back_to_full_sort() {
    let mut rng = Rng::new(6);
    let mut pair = BroadPhaseTwin::new();
    for b in random_boxes(&mut rng, 2000, 15.0, 0.5, 1.5) {
        pair.insert(b, ProxyKind::Dynamic);
    }
    pair.check("first");
    for frame in 0..3 {
        let ids = pair.ids.clone();
        let fresh = random_boxes(&mut rng, ids.len(), 15.0, 0.5, 1.5);
        for (id, b) in ids.into_iter().zip(fresh) {
            pair.update(id, b);
        }
        pair.check(&format!("teleport {frame}"));
        assert!(pair.sap.stats().full_sort);
    }
}

#[test]
fn moving_statics_and_reused_ids() {
    let mut rng = Rng::new(8);
    let mut pair = BroadPhaseTwin::new();
    for b in random_boxes(&mut rng, 400, 5.0, 0.5, 1.5) {
        pair.insert(b, ProxyKind::Static);
    }
    for b in random_boxes(&mut rng, 100, 5.0, 0.5, 1.5) {
        pair.insert(b, ProxyKind::Dynamic);
    }
    pair.check("start");
    assert!(pair.sap.stats().static_rebuilt);
    // Remove a static and a dynamic, reinsert with swapped kinds in the same frame.
    let (s, d) = (pair.ids[0], pair.ids[450]);
    let (sb, db) = (pair.sap.aabb(s).unwrap(), pair.sap.aabb(d).unwrap());
    pair.remove(s);
    pair.remove(d);
    pair.insert(sb, ProxyKind::Dynamic);
    pair.insert(db, ProxyKind::Static);
    pair.check("swapped kinds");
    let id = pair.ids[10];
    let moved = Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5));
    pair.update(id, moved);
    pair.check("moved static");
    pair.check("still");
    assert!(!pair.sap.stats().static_rebuilt);
    assert_eq!(
        pair.sap.stats().static_queries,
        0,
        "nobody moved: all caches hit"
    );
}

/// Kinematic proxies (issue 12: the kind rule moved from the pipeline into the broad
/// phase) sweep with the dynamic ones but pair with dynamic proxies only: over moving,
/// removed and re-inserted proxies of all three kinds, with the grid, the pairs and
/// diffs equal the oracle's and no pair breaks the rule.
#[test]
fn kinematic_proxies_pair_with_dynamic_only() {
    let mut rng = Rng::new(12);
    let mut pair = BroadPhaseTwin::new();
    let kinds = [ProxyKind::Static, ProxyKind::Kinematic, ProxyKind::Dynamic];
    for b in random_boxes(&mut rng, GRID_MIN_PROXIES * 2, 10.0, 0.3, 2.0) {
        pair.insert(b, kinds[rng.below(3)]);
    }
    for frame in 0..20 {
        for id in pair.ids.clone() {
            let aabb = pair.sap.aabb(id).unwrap();
            match rng.below(100) {
                0 => {
                    pair.remove(id);
                    pair.insert(aabb, kinds[rng.below(3)]);
                }
                _ if pair.oracle_kind(id) == ProxyKind::Static => {}
                n => {
                    let d = if n < 5 { 3.0 } else { 0.05 };
                    let d = rng.vec3(Vec3::splat(-d), Vec3::splat(d));
                    pair.update(id, Aabb::new(aabb.min + d, aabb.max + d));
                }
            }
        }
        let count = pair.check(&format!("kinematic frame {frame}"));
        assert!(count > 0);
        for &(a, b) in pair.sap.pairs() {
            assert!(pair.oracle_kind(a).pairs_with(pair.oracle_kind(b)));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Arbitrary (finite) boxes and edits, including zero-size and huge values.
    #[test]
    fn arbitrary_edits_match_oracle(
        boxes in prop::collection::vec(
            (prop::array::uniform3(-1.0e3f32..1.0e3), prop::array::uniform3(0.0f32..50.0), any::<bool>()),
            0..120),
        edits in prop::collection::vec((any::<u16>(), prop::array::uniform3(-60.0f32..60.0), 0u8..4), 0..200),
    ) {
        let mut pair = BroadPhaseTwin::new();
        for (c, s, st) in &boxes {
            let c = Vec3::from_array(*c);
            let s = Vec3::from_array(*s);
            pair.insert(Aabb::new(c, c + s), if *st { ProxyKind::Static } else { ProxyKind::Dynamic });
        }
        pair.check("proptest start");
        for chunk in edits.chunks(20) {
            for (pick, d, op) in chunk {
                let d = Vec3::from_array(*d);
                if pair.ids.is_empty() || *op == 3 {
                    pair.insert(Aabb::new(d, d + d.abs() * 0.1), ProxyKind::Dynamic);
                    continue;
                }
                let id = pair.ids[*pick as usize % pair.ids.len()];
                let aabb = pair.sap.aabb(id).unwrap();
                match op {
                    0 => pair.remove(id),
                    _ => pair.update(id, Aabb::new(aabb.min + d, aabb.max + d)),
                }
            }
            pair.check("proptest edits");
        }
    }
}

/// The three ways a frame finds dynamic pairs: a full sweep, nobody left their fat
/// box (candidates only re-tested), a few left (patched one by one). All must agree
/// with the oracle, and the test checks that each way actually ran.
#[test]
fn fat_candidate_paths_match_oracle() {
    fat_candidate_paths(Vec3::ZERO);
    // Far from the origin the extents round: the patch's scan window must still hold.
    fat_candidate_paths(Vec3::new(1.0e6, -2.0e5, 3.0e5));
}

fn fat_candidate_paths(offset: Vec3) {
    let mut rng = Rng::new(9);
    let mut pair = BroadPhaseTwin::new();
    let shift = |b: Aabb| Aabb::new(b.min + offset, b.max + offset);
    for b in random_boxes(&mut rng, 100, 10.0, 0.5, 2.0) {
        pair.insert(shift(b), ProxyKind::Static);
    }
    // Two boxes too big for the grid's cells among the first movers (which jump), so
    // that patches and sweeps meet big boxes as well as gridded ones.
    for big in [Vec3::splat(3.0), Vec3::new(4.0, 0.5, 4.0)] {
        pair.insert(shift(Aabb::new(-big, big)), ProxyKind::Dynamic);
    }
    for b in random_boxes(&mut rng, 2000, 10.0, 0.1, 0.6) {
        pair.insert(shift(b), ProxyKind::Dynamic);
    }
    pair.check("start");
    let stats = pair.sap.stats();
    assert!(
        stats.grid.0 * stats.grid.1 > 1 && stats.big == 2,
        "{stats:?}"
    );
    let dynamic: Vec<_> = pair.ids[100..].to_vec();
    let (mut still, mut patched, mut full) = (0, 0, 0);
    for frame in 0..60 {
        // Most boxes drift a little; on some frames a few jump (escape), on a few
        // frames many jump (more than MAX_PATCHED_ESCAPES).
        let jumps = match frame % 6 {
            0..=2 => 0,
            5 if frame % 12 == 5 => 40,
            _ => 1 + rng.below(sepax_broadphase::MAX_PATCHED_ESCAPES),
        };
        for (k, &id) in dynamic.iter().enumerate() {
            let a = pair.sap.aabb(id).unwrap();
            let d = if k < jumps {
                rng.vec3(Vec3::splat(-3.0), Vec3::splat(3.0))
            } else {
                rng.vec3(Vec3::splat(-0.002), Vec3::splat(0.002))
            };
            pair.update(id, Aabb::new(a.min + d, a.max + d));
        }
        pair.check(&format!("fat frame {frame}"));
        let s = pair.sap.stats();
        match (s.full_sweep, s.escaped) {
            (true, _) => full += 1,
            (false, 0) => still += 1,
            (false, _) => patched += 1,
        }
    }
    assert!(
        still > 0 && patched > 0 && full > 0,
        "still {still} patched {patched} full {full}"
    );
}

/// A frame with no insert, update or remove keeps the pairs in O(1) (`unchanged`, empty
/// diffs); any change, or a frame cut at the pair budget, sweeps again.
#[test]
fn a_frame_without_changes_keeps_the_pairs() {
    use glam::Vec3;
    use sepax_broadphase::{ProxyId, ProxyKind, SweepAndPrune};
    use sepax_geometry::Aabb;
    let unit = |x: f32| Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0));
    let mut sap = SweepAndPrune::new();
    for i in 0..10u32 {
        let kind = if i % 3 == 0 {
            ProxyKind::Static
        } else {
            ProxyKind::Dynamic
        };
        sap.insert(ProxyId(i), unit(0.8 * i as f32), kind).unwrap();
    }
    sap.update_pairs();
    let pairs = sap.pairs().to_vec();
    assert!(!sap.stats().unchanged && pairs.len() > 5);
    assert!(sap.keeps_pairs());
    sap.update_pairs();
    assert!(sap.stats().unchanged);
    assert_eq!(sap.pairs(), &pairs[..]);
    assert!(sap.pairs_added().is_empty() && sap.pairs_removed().is_empty());
    // A move is a change, even back to the same box.
    sap.update(ProxyId(4), unit(3.2)).unwrap();
    assert!(!sap.keeps_pairs());
    sap.update_pairs();
    assert!(!sap.stats().unchanged);
    assert_eq!(sap.pairs(), &pairs[..]);
    // Over budget: the next frame sweeps again even without a change.
    sap.set_pair_budget(2);
    sap.update_pairs();
    assert!(sap.stats().pair_budget_exceeded && !sap.keeps_pairs());
    sap.update_pairs();
    assert!(!sap.stats().unchanged && sap.pairs().len() == 2);
}
