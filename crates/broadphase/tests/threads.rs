//! The same pairs and diffs, bit for bit, on 1, 2 and 4 rayon threads.

use glam::Vec3;
use sepax_broadphase::{
    PARALLEL_MIN_PROXIES, PARALLEL_MIN_STATIC_MOVERS, ProxyId, ProxyKind, SweepAndPrune,
};
use sepax_geometry::{Aabb, rng::Rng};
use sepax_testkit::clouds::random_boxes;

type Frames = Vec<(
    Vec<(ProxyId, ProxyId)>,
    Vec<(ProxyId, ProxyId)>,
    Vec<(ProxyId, ProxyId)>,
)>;

/// `n` boxes in a cube of half side `half`, one in `static_every` static, the others
/// moving, run for a few frames.
fn frames(n: usize, static_every: usize, half: f32) -> Frames {
    let mut rng = Rng::new(2024);
    let mut sap = SweepAndPrune::new();
    let mut ids = Vec::new();
    for (i, b) in random_boxes(&mut rng, n, half, 0.3, 1.5)
        .into_iter()
        .enumerate()
    {
        let kind = if i.is_multiple_of(static_every) {
            ProxyKind::Static
        } else {
            ProxyKind::Dynamic
        };
        let id = ProxyId(i as u32);
        sap.insert(id, b, kind).unwrap();
        ids.push((id, kind));
    }
    let mut out = Vec::new();
    for _ in 0..4 {
        sap.update_pairs();
        out.push((
            sap.pairs().to_vec(),
            sap.pairs_added().to_vec(),
            sap.pairs_removed().to_vec(),
        ));
        for &(id, kind) in &ids {
            if kind == ProxyKind::Dynamic {
                let a = sap.aabb(id).unwrap();
                let d = rng.vec3(Vec3::splat(-0.1), Vec3::splat(0.1));
                sap.update(id, Aabb::new(a.min + d, a.max + d)).unwrap();
            }
        }
    }
    assert!(out[0].0.len() > n / 4, "scene should have many pairs");
    out
}

/// Runs `frames` on pools of 1, 2 and 4 threads: the same answers.
fn identical_on_1_2_4_threads(frames: impl Fn() -> Frames + Sync) {
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(&frames)
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(4));
}

/// Above the parallel threshold, with statics.
#[test]
fn identical_for_1_2_4_threads() {
    identical_on_1_2_4_threads(|| frames(PARALLEL_MIN_PROXIES * 3, 3, 22.0));
}

/// Below it, but with enough movers among many statics that the static pairs run on
/// the pool (the static-heavy scene's case).
#[test]
fn static_pairs_identical_for_1_2_4_threads() {
    let movers = 3 * PARALLEL_MIN_STATIC_MOVERS;
    assert!(movers < PARALLEL_MIN_PROXIES);
    identical_on_1_2_4_threads(|| frames(movers * 10 / 9, 10, 7.0));
}
