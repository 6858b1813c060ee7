//! A fixed workload for instruction counts (callgrind), one query kind per run:
//!
//! `N=20 valgrind --tool=callgrind target/release/examples/prof <mode> [kind]`
//!
//! Modes: `box` (scalar `collide` on box pairs), `boxbatch` (`collide_box_pairs`),
//! `boxc` (scalar `contact`), `boxcbatch` (`contact_box_pairs`), `hull` (scalar
//! `collide` on 24-point hulls), anything else: parry3d's `contact_manifolds` on the box
//! pairs. Kinds (box modes): `resting` (default), `touching`, `deep`, `separated`. Each
//! run queries the same 256 pairs `N` times (default 100) with cold caches; the per-pair
//! count is the difference of two runs' totals over the difference of their queries.
//! `SEPAX_SIMD=scalar|baseline|avx2` forces the batched modes' SIMD level.
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use sepax_benches::pairs::{Kind, box_pairs, hull_pairs};
use sepax_benches::to_parry;
use sepax_geometry::Shape;
use sepax_narrowphase::{
    BoxBoxPair, PairCache, SimdLevel, collide, collide_box_pairs_at, contact, contact_box_pairs_at,
};
use std::hint::black_box;

fn main() {
    let which = std::env::args().nth(1).unwrap();
    let kind = match std::env::args().nth(2).as_deref() {
        None | Some("resting") => Kind::Resting,
        Some("touching") => Kind::Touching,
        Some("deep") => Kind::Deep,
        Some("separated") => Kind::Separated,
        Some(other) => panic!("unknown kind {other}"),
    };
    let pairs = match which.as_str() {
        w if w.contains("hull") => hull_pairs(24, 256, 24),
        _ => box_pairs(1, 256, kind),
    };
    let level = match std::env::var("SEPAX_SIMD").as_deref() {
        Ok("scalar") => SimdLevel::Scalar,
        Ok("baseline") => SimdLevel::Baseline,
        Ok("avx2") => SimdLevel::Avx2,
        _ => SimdLevel::detected(),
    };
    if which.contains("batch") {
        eprintln!("SIMD level: {level:?}");
    }
    let cuboid = |s: &Shape| match s {
        Shape::Cuboid(c) => *c,
        _ => panic!("box pairs only"),
    };
    let batch: Vec<BoxBoxPair> = match which.as_str() {
        w if w.contains("batch") => pairs
            .iter()
            .map(|p| BoxBoxPair {
                a: cuboid(&p.a),
                pose_a: p.pose_a,
                b: cuboid(&p.b),
                pose_b: p.pose_b,
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut caches = vec![PairCache::default(); batch.len()];
    let mut manifolds = vec![None; batch.len()];
    let mut contacts = vec![None; batch.len()];
    let peers: Vec<_> = pairs
        .iter()
        .map(|p| {
            (
                to_parry::shape(&p.a),
                to_parry::shape(&p.b),
                to_parry::pose(&p.pose_a).inv_mul(&to_parry::pose(&p.pose_b)),
            )
        })
        .collect();
    let mut m: Vec<ContactManifold<(), ()>> = Vec::new();
    let n: usize = std::env::var("N")
        .map(|v| v.parse().unwrap())
        .unwrap_or(100);
    for _ in 0..n {
        match which.as_str() {
            "box" | "hull" => {
                for p in &pairs {
                    black_box(collide(
                        &p.a,
                        &p.pose_a,
                        &p.b,
                        &p.pose_b,
                        0.0,
                        &mut PairCache::default(),
                    ));
                }
            }
            "boxbatch" => {
                caches.fill(PairCache::default());
                collide_box_pairs_at(level, &batch, 0.0, &mut caches, &mut manifolds);
                black_box(&manifolds);
            }
            "boxc" => {
                for p in &pairs {
                    black_box(contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0));
                }
            }
            "boxcbatch" => {
                contact_box_pairs_at(level, &batch, 0.0, &mut contacts);
                black_box(&contacts);
            }
            _ => {
                for (a, b, pos) in &peers {
                    m.clear();
                    let mut w = None;
                    DefaultQueryDispatcher
                        .contact_manifolds(pos, &**a, &**b, 0.0, &mut m, &mut w)
                        .unwrap();
                    black_box(&m);
                }
            }
        }
    }
}
