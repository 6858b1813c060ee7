//! Narrow phase: sepax against parry3d 0.31 on the very same pairs, in the same groups.
//!
//! `cargo bench -p sepax-benches --bench narrowphase`
//!
//! Each measurement runs a batch of 256 pairs (4,096 in `box_box_manifold_4096`);
//! criterion's throughput line gives pairs per second, and the time per pair is the
//! batch time / 256 (/ 4,096). Both sides start cold on every call: sepax with an
//! empty `PairCache`, parry with an empty manifold vector and no workspace. (Given the
//! same poses again, parry's persistent manifolds skip the query altogether, which
//! would measure nothing.) Box pairs also run batched,
//! `sepax-batch`: the same 256 pairs through `contact_box_pairs` / `collide_box_pairs`
//! (8 pairs at a time in SIMD lanes, the level this CPU has; the same answers bit for
//! bit), with cold caches too.
//!
//! `box_box_manifold_4096/touching`: 4,096 touching box pairs (`box_pairs(4, 4096,
//! PairKind::Touching)`, the same kind as `box_box_manifold/touching`), one pass over
//! all of them per measurement. 256 pairs run again and again are few enough for the
//! CPU's branch predictor to learn each pair's path through the clipper and the SAT's
//! choices, which a moving scene does not repeat soon: on the 2-core machine (4 December
//! 2026, medians of 11 timed passes of a throwaway loop, several runs) sepax's batched
//! manifold took 190–210 ns a pair on 256 pairs and 265–290 ns on 4,096 (+38 % in the
//! first run), parry3d's 1,236–1,294 and 1,301–1,365 ns (+6 %): the ratio falls from
//! 6.4–6.7× to 4.9–5.1×. The same 256 pairs repeated 16 times ran at the 256-pair speed
//! (the predictor, not the caches). The 4,096-pair group measures what a scene sees;
//! the 256-pair groups stay for comparison with the earlier figures.
//!
//! Each side keeps its answer from the optimiser by reference: parry3d's manifold list,
//! sepax's `Option<Manifold>` where the call left it (`black_box(&manifold)`). (Until
//! 3 December 2026 sepax's answer went to `black_box` by value, a 224-byte copy per
//! call, a `memcpy` call, that parry3d's side never paid: 7% of `prof sphere-hull`.)
//!
//! `box_triangle_manifold` puts a box against one touching mesh triangle
//! (`terrain::box_triangle_pairs`) beside the box–box touching pairs: sepax's
//! `collide_mesh_triangles` with one triangle and a reused scratch (the mesh path's
//! cost per touching triangle), and parry3d's `contact_manifolds` of a `Triangle` and a
//! `Cuboid`.
//!
//! Sphere and box against a hull (issue 14, item 3): 256 touching pairs each of a
//! sphere of radius 0.5 (`sphere_hull_manifold/24`, `sphere_hull_pairs(5, 256, 24)`) or a
//! box of half extents 0.4–0.6 (`box_hull_manifold/24`, `box_hull_pairs(13, 256, 24)`)
//! against a 24-point hull. `sphere_box_manifold/box`: the same sphere against a box of
//! half extents 0.4–0.6 (`sphere_box_pairs(16, 256)`), 256 touching pairs;
//! `sphere_sphere_manifold/sphere`: against a sphere of radius 0.25–0.75
//! (`sphere_sphere_pairs(17, 256)`).
//!
//! Capsules (issue 10): 256 touching capsule–box and
//! capsule–capsule pairs (`capsule_box_manifold`, `capsule_capsule_manifold`).
//!
//! Distance (issue 11, group `distance`): 256 pairs apart by 5% of their size
//! (`PairKind::Apart`) of 24-point hulls (`hull24`), boxes (`box`) and capsules
//! (`capsule`). `sepax` is `distance` (cold); `sepax-warm` is `closest_points` with one
//! cache per pair kept from call to call while b alternates between its pose and a
//! nudged one (≤ 1% of its size, ≤ 0.01 rad: `sepax_benches::nudged`), so each call
//! starts from the simplex of a pose just beside it; `parry3d` is `query::distance`.
//!
//! Warm hull pairs (issue 14, group `hull_warm_manifold`): the touching 24-point hull
//! pairs and 24-point hulls resting face on face, each pair's cache kept while b
//! alternates between its pose and a nudged one; `collide` (kept-feature path) against
//! `collide_full` (always the full test) with the same caches, cold sepax, and parry3d.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use parry3d::query::ContactManifold;
use sepax_benches::{
    box_batch, nudged, parry_manifolds_pass, parry_manifolds_pass_world, parry_pairs,
    parry_triangle_manifolds, parry_triangle_pairs,
};
use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::mesh::{MeshScratch, collide_mesh_triangles};
use sepax_narrowphase::{
    Manifold, PairCache, SupportMode, closest_points, collide, collide_box_pairs, collide_full,
    collide_with, contact, contact_box_pairs, distance,
};
use sepax_testkit::pairs::{
    Pair, PairKind, apart_capsule_pairs, box_hull_pairs, box_pairs, capsule_box_pairs,
    capsule_capsule_pairs, hull_pairs, hull_pairs_as, resting_hull_pairs, sphere_box_pairs,
    sphere_hull_pairs, sphere_sphere_pairs,
};
use sepax_testkit::terrain::box_triangle_pairs;
use std::hint::black_box;

const BATCH: usize = 256;
/// The pairs of `box_box_manifold_4096`.
const MANY: usize = 4096;

fn bench_contact(c: &mut Criterion, group_name: &str, cases: &[(&str, Vec<Pair>)]) {
    let mut group = c.benchmark_group(group_name);
    group.throughput(Throughput::Elements(BATCH as u64));
    for (name, pairs) in cases {
        group.bench_function(BenchmarkId::new("sepax", name), |bench| {
            bench.iter(|| {
                for p in pairs {
                    black_box(contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0));
                }
            })
        });
        if let Some(batch) = box_batch(pairs) {
            let mut contacts = vec![None; batch.len()];
            group.bench_function(BenchmarkId::new("sepax-batch", name), |bench| {
                bench.iter(|| {
                    contact_box_pairs(&batch, 0.0, &mut contacts);
                    black_box(&contacts);
                })
            });
        }
        let peers = parry_pairs(pairs);
        group.bench_function(BenchmarkId::new("parry3d", name), |bench| {
            bench.iter(|| {
                for p in &peers {
                    black_box(
                        parry3d::query::contact(&p.pose_a, &*p.a, &p.pose_b, &*p.b, 0.0).unwrap(),
                    );
                }
            })
        });
    }
    group.finish();
}

fn bench_manifold(
    c: &mut Criterion,
    group_name: &str,
    cases: &[(&str, Vec<Pair>)],
    walk_too: bool,
) {
    bench_manifold_peers(c, group_name, cases, walk_too, false);
}

/// [`bench_manifold`], and with `world_poses_too` parry3d also from the two world poses
/// (`parry3d-world`: b's pose in a's frame computed in the timed pass, as sepax does):
/// for the cheap pairs, where that step is a large part of a query.
fn bench_manifold_peers(
    c: &mut Criterion,
    group_name: &str,
    cases: &[(&str, Vec<Pair>)],
    walk_too: bool,
    world_poses_too: bool,
) {
    let mut group = c.benchmark_group(group_name);
    for (name, pairs) in cases {
        group.throughput(Throughput::Elements(pairs.len() as u64));
        let modes: &[(&str, SupportMode)] = if walk_too {
            &[
                ("sepax", SupportMode::Scan),
                ("sepax-walk", SupportMode::Walk),
            ]
        } else {
            &[("sepax", SupportMode::Scan)]
        };
        for &(label, mode) in modes {
            group.bench_function(BenchmarkId::new(label, name), |bench| {
                bench.iter(|| {
                    for p in pairs {
                        let mut cache = PairCache::default();
                        let manifold =
                            collide_with(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0, &mut cache, mode);
                        black_box(&manifold);
                    }
                })
            });
        }
        if let Some(batch) = box_batch(pairs) {
            let mut caches = vec![PairCache::default(); batch.len()];
            let mut out = vec![None; batch.len()];
            group.bench_function(BenchmarkId::new("sepax-batch", name), |bench| {
                bench.iter(|| {
                    caches.fill(PairCache::default());
                    collide_box_pairs(&batch, 0.0, &mut caches, &mut out);
                    black_box(&out);
                })
            });
        }
        let peers = parry_pairs(pairs);
        let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
        group.bench_function(BenchmarkId::new("parry3d", name), |bench| {
            bench.iter(|| parry_manifolds_pass(&peers, &mut manifolds))
        });
        if world_poses_too {
            group.bench_function(BenchmarkId::new("parry3d-world", name), |bench| {
                bench.iter(|| parry_manifolds_pass_world(&peers, &mut manifolds))
            });
        }
    }
    group.finish();
}

fn narrowphase(c: &mut Criterion) {
    let boxes = [
        ("resting", box_pairs(1, BATCH, PairKind::Resting)),
        ("deep", box_pairs(2, BATCH, PairKind::Deep)),
        ("touching", box_pairs(4, BATCH, PairKind::Touching)),
        ("separated", box_pairs(3, BATCH, PairKind::Separated)),
    ];
    bench_contact(c, "box_box_contact", &boxes);
    bench_manifold_peers(c, "box_box_manifold", &boxes, false, true);
    // The same kind of pairs, too many for the branch predictor to learn (see the
    // module docs).
    let many_boxes = [("touching", box_pairs(4, MANY, PairKind::Touching))];
    bench_manifold_peers(c, "box_box_manifold_4096", &many_boxes, false, true);
    let hulls = [
        ("8", hull_pairs(8, BATCH, 8)),
        ("24", hull_pairs(24, BATCH, 24)),
        ("64", hull_pairs(64, BATCH, 64)),
    ];
    bench_manifold(c, "hull_hull_manifold", &hulls, true);
    let spheres = [("24", sphere_hull_pairs(5, BATCH, 24))];
    bench_manifold_peers(c, "sphere_hull_manifold", &spheres, false, true);
    let sphere_boxes = [("box", sphere_box_pairs(16, BATCH))];
    bench_manifold_peers(c, "sphere_box_manifold", &sphere_boxes, false, true);
    let sphere_spheres = [("sphere", sphere_sphere_pairs(17, BATCH))];
    bench_manifold_peers(c, "sphere_sphere_manifold", &sphere_spheres, false, true);
    let box_hull = [("24", box_hull_pairs(13, BATCH, 24))];
    bench_manifold(c, "box_hull_manifold", &box_hull, false);
    // Issue 10's target: ≥ 3× parry3d per touching pair.
    let capsule_box = [("touching", capsule_box_pairs(6, BATCH))];
    bench_manifold(c, "capsule_box_manifold", &capsule_box, false);
    let capsule_capsule = [("touching", capsule_capsule_pairs(7, BATCH))];
    bench_manifold(c, "capsule_capsule_manifold", &capsule_capsule, false);
}

/// A box against one touching triangle, beside box–box touching pairs.
fn box_triangle(c: &mut Criterion) {
    let mut group = c.benchmark_group("box_triangle_manifold");
    group.throughput(Throughput::Elements(BATCH as u64));
    let boxes = box_pairs(4, BATCH, PairKind::Touching);
    group.bench_function(BenchmarkId::new("sepax-box-box", "touching"), |bench| {
        bench.iter(|| {
            for p in &boxes {
                let mut cache = PairCache::default();
                let manifold = collide_with(
                    &p.a,
                    &p.pose_a,
                    &p.b,
                    &p.pose_b,
                    0.0,
                    &mut cache,
                    SupportMode::Scan,
                );
                black_box(&manifold);
            }
        })
    });
    let triangles = box_triangle_pairs(6, BATCH);
    let mut scratch = MeshScratch::default();
    group.bench_function(BenchmarkId::new("sepax", "touching"), |bench| {
        bench.iter(|| {
            for p in &triangles {
                black_box(collide_mesh_triangles(
                    [(0, p.triangle)],
                    &p.mesh_pose,
                    &p.shape,
                    &p.pose,
                    0.0,
                    &mut scratch,
                ));
            }
        })
    });
    let peers = parry_triangle_pairs(&triangles);
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    group.bench_function(BenchmarkId::new("parry3d", "touching"), |bench| {
        bench.iter(|| parry_triangle_manifolds(&peers, &mut manifolds))
    });
    group.finish();
}

/// Distance of apart pairs: sepax cold and warm, parry3d.
fn distances(c: &mut Criterion) {
    let mut group = c.benchmark_group("distance");
    group.throughput(Throughput::Elements(BATCH as u64));
    let cases = [
        ("hull24", hull_pairs_as(11, BATCH, 24, PairKind::Apart)),
        ("box", box_pairs(12, BATCH, PairKind::Apart)),
        ("capsule", apart_capsule_pairs(13, BATCH)),
    ];
    for (name, pairs) in &cases {
        group.bench_function(BenchmarkId::new("sepax", name), |bench| {
            bench.iter(|| {
                for p in pairs {
                    black_box(distance(&p.a, &p.pose_a, &p.b, &p.pose_b).unwrap());
                }
            })
        });
        let moved: Vec<_> = pairs
            .iter()
            .enumerate()
            .map(|(i, p)| nudged(&p.pose_b, 2.0 * p.b.bounding_radius(), i as f32 * 0.9))
            .collect();
        let mut caches = vec![PairCache::default(); pairs.len()];
        let mut at_moved = false;
        group.bench_function(BenchmarkId::new("sepax-warm", name), |bench| {
            bench.iter(|| {
                at_moved = !at_moved;
                for ((p, cache), moved) in pairs.iter().zip(&mut caches).zip(&moved) {
                    let pose_b = if at_moved { moved } else { &p.pose_b };
                    black_box(closest_points(&p.a, &p.pose_a, &p.b, pose_b, cache).unwrap());
                }
            })
        });
        let peers = parry_pairs(pairs);
        group.bench_function(BenchmarkId::new("parry3d", name), |bench| {
            bench.iter(|| {
                for p in &peers {
                    black_box(
                        parry3d::query::distance(&p.pose_a, &*p.a, &p.pose_b, &*p.b).unwrap(),
                    );
                }
            })
        });
    }
    group.finish();
}

/// Warm hull pairs (issue 14, item 1): each pair's cache kept from call to call while b
/// alternates between its pose and a nudged one (≤ 1% of its size, ≤ 0.01 rad), on the
/// touching 24-point pairs of `hull_hull_manifold` and on 24-point hulls resting face
/// on face (`resting_hull_pairs`). `sepax-warm` is `collide` (the kept-feature path where
/// it proves the feature), `sepax-full-warm` `collide_full` with the same caches (the same
/// answers, always the full test), `sepax` cold, `parry3d` fresh manifolds.
fn warm_hulls(c: &mut Criterion) {
    let mut group = c.benchmark_group("hull_warm_manifold");
    group.throughput(Throughput::Elements(BATCH as u64));
    let cases = [
        ("touching24", hull_pairs(24, BATCH, 24)),
        ("resting24", resting_hull_pairs(15, BATCH, 24)),
    ];
    for (name, pairs) in &cases {
        let moved: Vec<_> = pairs
            .iter()
            .enumerate()
            .map(|(i, p)| nudged(&p.pose_b, 2.0 * p.b.bounding_radius(), i as f32 * 0.9))
            .collect();
        type Query = fn(&Shape, &Pose, &Shape, &Pose, f32, &mut PairCache) -> Option<Manifold>;
        let warm: [(&str, Query); 2] = [("sepax-warm", collide), ("sepax-full-warm", collide_full)];
        for (label, query) in warm {
            let mut caches = vec![PairCache::default(); pairs.len()];
            let mut at_moved = false;
            group.bench_function(BenchmarkId::new(label, name), |bench| {
                bench.iter(|| {
                    at_moved = !at_moved;
                    for ((p, cache), moved) in pairs.iter().zip(&mut caches).zip(&moved) {
                        let pose_b = if at_moved { moved } else { &p.pose_b };
                        let manifold = query(&p.a, &p.pose_a, &p.b, pose_b, 0.0, cache);
                        black_box(&manifold);
                    }
                })
            });
        }
        group.bench_function(BenchmarkId::new("sepax", name), |bench| {
            bench.iter(|| {
                for p in pairs {
                    let mut cache = PairCache::default();
                    let manifold = collide(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0, &mut cache);
                    black_box(&manifold);
                }
            })
        });
        let peers = parry_pairs(pairs);
        let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
        group.bench_function(BenchmarkId::new("parry3d", name), |bench| {
            bench.iter(|| parry_manifolds_pass(&peers, &mut manifolds))
        });
    }
    group.finish();
}

criterion_group!(benches, narrowphase, box_triangle, distances, warm_hulls);
criterion_main!(benches);
