//! The same pairs and diffs, bit for bit, on 1, 2 and 4 rayon threads.

use glam::Vec3;
use sepax_broadphase::{PARALLEL_MIN_PROXIES, ProxyId, ProxyKind, SweepAndPrune};
use sepax_geometry::{Aabb, rng::Rng};
use sepax_testkit::clouds::random_boxes;

type Frames = Vec<(
    Vec<(ProxyId, ProxyId)>,
    Vec<(ProxyId, ProxyId)>,
    Vec<(ProxyId, ProxyId)>,
)>;

/// A scene above the parallel threshold, with statics, run for a few frames.
fn frames() -> Frames {
    let mut rng = Rng::new(2024);
    let n = PARALLEL_MIN_PROXIES * 3;
    let mut sap = SweepAndPrune::new();
    let mut ids = Vec::new();
    for (i, b) in random_boxes(&mut rng, n, 22.0, 0.3, 1.5)
        .into_iter()
        .enumerate()
    {
        let kind = if i.is_multiple_of(3) {
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

#[test]
fn identical_for_1_2_4_threads() {
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(frames)
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(4));
}
