//! The same pairs and diffs, bit for bit, on 1, 2 and 4 rayon threads, and on the
//! calling thread alone (`SweepAndPrune::set_parallel(false)`).

use glam::Vec3;
use sepax_broadphase::{
    BruteForce, PARALLEL_MIN_PROXIES, PARALLEL_MIN_STATIC_MOVERS, PARALLEL_MIN_SWEEP, ProxyId,
    ProxyKind, SweepAndPrune,
};
use sepax_geometry::{Aabb, rng::Rng};
use sepax_testkit::clouds::random_boxes;

type Frames = Vec<(
    Vec<(ProxyId, ProxyId)>,
    Vec<(ProxyId, ProxyId)>,
    Vec<(ProxyId, ProxyId)>,
)>;

/// `n` boxes in a cube of half side `half`, one in `static_every` static, the others
/// moving, run for a few frames, with the large passes on the rayon pool (`parallel`)
/// or not.
fn frames(n: usize, static_every: usize, half: f32, parallel: bool) -> Frames {
    let mut rng = Rng::new(2024);
    let mut sap = SweepAndPrune::new();
    sap.set_parallel(parallel);
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

/// Runs `frames(true)` on pools of 1, 2 and 4 threads, and `frames(false)` (every
/// pass on the calling thread) outside any pool: the same answers.
fn identical_on_1_2_4_threads(frames: impl Fn(bool) -> Frames + Sync) {
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| frames(true))
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(4));
    assert_eq!(one, frames(false));
}

/// Above the parallel threshold, with statics.
#[test]
fn identical_for_1_2_4_threads() {
    identical_on_1_2_4_threads(|parallel| frames(PARALLEL_MIN_PROXIES * 3, 3, 22.0, parallel));
}

/// Below it, but with enough movers among many statics that the static pairs run on
/// the pool (the static-heavy scene's case).
#[test]
fn static_pairs_identical_for_1_2_4_threads() {
    let movers = 3 * PARALLEL_MIN_STATIC_MOVERS;
    assert!(movers < PARALLEL_MIN_PROXIES);
    identical_on_1_2_4_threads(|parallel| frames(movers * 10 / 9, 10, 7.0, parallel));
}

/// Between the sweep's threshold and the proxies' (the 10,000-box soup's case): the
/// full sweep and the patch of the escaped movers run on the pool, the rest on the
/// calling thread. Small steps, so that most frames patch a few dozen escapes and
/// some sweep again; every frame equal to the brute force, and the same on 1, 2 and 4
/// threads.
#[test]
fn sweeps_and_patches_identical_for_1_2_4_threads() {
    let movers = PARALLEL_MIN_SWEEP + PARALLEL_MIN_SWEEP / 2;
    assert!(movers < PARALLEL_MIN_PROXIES);
    let run = |parallel: bool| {
        let mut rng = Rng::new(77);
        let (mut sap, mut oracle) = (SweepAndPrune::new(), BruteForce::new());
        sap.set_parallel(parallel);
        let boxes = random_boxes(&mut rng, movers, 14.0, 0.3, 1.5);
        for (i, &b) in boxes.iter().enumerate() {
            sap.insert(ProxyId(i as u32), b, ProxyKind::Dynamic)
                .unwrap();
            oracle
                .insert(ProxyId(i as u32), b, ProxyKind::Dynamic)
                .unwrap();
        }
        // Each box drifts along its own direction, a little a frame.
        let drift: Vec<Vec3> = (0..movers)
            .map(|_| rng.unit_vec3() * rng.range(0.0, 0.03))
            .collect();
        let (mut frames, mut patched, mut swept) = (Frames::new(), 0, 0);
        for frame in 0..24 {
            sap.update_pairs();
            oracle.update_pairs();
            assert_eq!(sap.pairs(), oracle.pairs(), "frame {frame}");
            let stats = sap.stats();
            patched += usize::from(!stats.full_sweep && stats.escaped > 0);
            swept += usize::from(stats.full_sweep && frame > 0);
            frames.push((
                sap.pairs().to_vec(),
                sap.pairs_added().to_vec(),
                sap.pairs_removed().to_vec(),
            ));
            for (i, d) in drift.iter().enumerate() {
                let id = ProxyId(i as u32);
                let a = sap.aabb(id).unwrap();
                let moved = Aabb::new(a.min + *d, a.max + *d);
                sap.update(id, moved).unwrap();
                oracle.update(id, moved).unwrap();
            }
        }
        assert!(
            patched >= 4 && swept >= 1,
            "{patched} patched, {swept} swept"
        );
        frames
    };
    identical_on_1_2_4_threads(run);
}
