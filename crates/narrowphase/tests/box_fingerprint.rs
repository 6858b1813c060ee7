//! A pinned hash of box–box answers: `collide` (cold, then warm along a short motion
//! with the cache kept), `contact`, and the batched `collide_box_pairs` /
//! `contact_box_pairs` of 40,000 box pairs, hashed (FNV-1a over the bit patterns of
//! every normal, point, depth, id, anchor and feature).
//!
//! Placements: the benches' pairs (resting, touching, deep, separated, apart; both
//! orders) and random boxes (thin plates to fat blocks) under every placement of the
//! oracle tests (general, coincident centres, parallel faces, edge on edge, near
//! touching), a fifth of them with a margin. Each single pair is then moved three times
//! by up to 2% of its size and 0.02 rad, querying with the cache it left: the warm path.
//!
//! Speed-ups of the box path (batch loading, clipping, the world transform) must not
//! change an answer: any changed bit changes the hash. Update `FINGERPRINT` on purpose
//! only, with the reason in the commit message. Pinned for x86-64 (SSE2, no FMA: the
//! default target), where it was measured. Run it optimised:
//! `cargo test --release -p sepax-narrowphase --test box_fingerprint`.

use sepax_geometry::Shape;
use sepax_geometry::rng::Rng;
use sepax_narrowphase::{BoxBoxPair, PairCache, collide_box_pairs, contact_box_pairs};
use sepax_testkit::fingerprint::{Fnv, hash_cold_then_warm};
use sepax_testkit::pairs::{PLACEMENTS, Pair, PairKind, box_pairs, place};
use sepax_testkit::shapes::random_cuboid;

/// The hash of `fingerprint`: changed on purpose only.
const FINGERPRINT: u64 = 0x7d9b_2239_4104_f86b;

/// The pairs: the benches' five kinds in both orders, then random boxes under every
/// placement.
fn pairs() -> Vec<(Pair, f32)> {
    let mut out = Vec::new();
    let kinds = [
        PairKind::Resting,
        PairKind::Touching,
        PairKind::Deep,
        PairKind::Separated,
        PairKind::Apart,
    ];
    for (k, kind) in kinds.into_iter().enumerate() {
        for (i, pair) in box_pairs(0xb0c5_0000 + k as u64, 1_000, kind)
            .into_iter()
            .enumerate()
        {
            let margin = if i % 5 == 0 { 0.05 } else { 0.0 };
            let swapped = pair.swapped();
            out.push((pair, margin));
            out.push((swapped, margin));
        }
    }
    let mut rng = Rng::new(0xb0c5_f1a9);
    for k in 0..30_000 {
        let (a, b) = (random_cuboid(&mut rng), random_cuboid(&mut rng));
        let (pose_a, pose_b) = place(&mut rng, &a, &b, PLACEMENTS[k % PLACEMENTS.len()]);
        let margin = if k % 5 == 0 { 0.05 } else { 0.0 };
        out.push((
            Pair {
                a,
                pose_a,
                b,
                pose_b,
            },
            margin,
        ));
    }
    out
}

fn as_box_pair(pair: &Pair) -> BoxBoxPair {
    match (&pair.a, &pair.b) {
        (Shape::Cuboid(a), Shape::Cuboid(b)) => BoxBoxPair {
            a: *a,
            pose_a: pair.pose_a,
            b: *b,
            pose_b: pair.pose_b,
        },
        _ => unreachable!("box pairs only"),
    }
}

fn fingerprint() -> (u64, usize, usize) {
    let mut hash = Fnv::new();
    let mut rng = Rng::new(0xb0c5_0001);
    let all = pairs();
    let mut touching = 0;
    for (pair, margin) in &all {
        touching += hash_cold_then_warm(&mut hash, &mut rng, pair, *margin) as usize;
    }
    // The batched queries, one batch per margin, cold caches.
    for margin in [0.0, 0.05] {
        let batch: Vec<BoxBoxPair> = all
            .iter()
            .filter(|(_, m)| *m == margin)
            .map(|(p, _)| as_box_pair(p))
            .collect();
        let mut caches = vec![PairCache::default(); batch.len()];
        let mut manifolds = vec![None; batch.len()];
        collide_box_pairs(&batch, margin, &mut caches, &mut manifolds);
        let mut contacts = vec![None; batch.len()];
        contact_box_pairs(&batch, margin, &mut contacts);
        for (m, c) in manifolds.iter().zip(&contacts) {
            hash.manifold(m);
            hash.contact(c);
        }
    }
    (hash.0, all.len(), touching)
}

#[test]
fn box_answers_match_the_pinned_fingerprint() {
    let (hash, pairs, touching) = fingerprint();
    assert_eq!(pairs, 40_000);
    assert!(
        touching > 10_000 && touching < 38_000,
        "{touching} touching"
    );
    if cfg!(target_arch = "x86_64") {
        assert_eq!(hash, FINGERPRINT, "the answers changed: {hash:#x}");
    }
}
