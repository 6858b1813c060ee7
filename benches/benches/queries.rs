//! Shape casts: sepax's `cast` against parry3d 0.31's `query::cast_shapes` on the same
//! pairs and motions.
//!
//! `cargo bench -p sepax-benches --bench queries`
//!
//! Each measurement runs a batch of 256 pairs (time per pair = batch time / 256). A
//! pair starts apart (box pairs: centres 3 sizes apart; 24-point hulls: the bench's
//! touching pairs moved 0.5 apart along their centre line) and b moves towards a's
//! centre at 0.8 × their offset per unit of time, a at rest: every pair hits,
//! within `max_time = 1`. Translation only (parry's `cast_shapes` is linear); both
//! sides cold.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use sepax_benches::to_parry;
use sepax_narrowphase::{Motion, cast};
use sepax_testkit::pairs::{Pair, PairKind, box_pairs, hull_pairs};
use std::hint::black_box;

const BATCH: usize = 256;

/// The cast sets: box pairs and 24-point hull pairs, b's velocity towards a.
fn cast_sets() -> Vec<(&'static str, Vec<Pair>)> {
    let mut hulls = hull_pairs(24, BATCH, 24);
    for p in &mut hulls {
        let d = (p.pose_b.translation - p.pose_a.translation).normalize_or(Vec3::X);
        p.pose_b.translation += d * 0.5;
    }
    vec![
        ("box", box_pairs(1, BATCH, PairKind::Separated)),
        ("hull24", hulls),
    ]
}

/// b's velocity: towards a's centre, 0.8 × the offset per unit of time.
fn velocity(p: &Pair) -> Vec3 {
    (p.pose_a.translation - p.pose_b.translation) * 0.8
}

fn casts(c: &mut Criterion) {
    let mut group = c.benchmark_group("cast");
    group.throughput(Throughput::Elements(BATCH as u64));
    for (name, pairs) in cast_sets() {
        let motions: Vec<Motion> = pairs.iter().map(|p| Motion::linear(velocity(p))).collect();
        group.bench_function(BenchmarkId::new("sepax", name), |bench| {
            bench.iter(|| {
                for (p, m) in pairs.iter().zip(&motions) {
                    black_box(cast(&p.a, &p.pose_a, &Motion::ZERO, &p.b, &p.pose_b, m, 1.0).ok());
                }
            })
        });
        let parry: Vec<_> = pairs
            .iter()
            .map(|p| {
                let v = velocity(p);
                (
                    to_parry::shape(&p.a),
                    to_parry::pose(&p.pose_a),
                    to_parry::shape(&p.b),
                    to_parry::pose(&p.pose_b),
                    parry3d::math::Vector::new(v.x, v.y, v.z),
                )
            })
            .collect();
        group.bench_function(BenchmarkId::new("parry3d", name), |bench| {
            bench.iter(|| {
                for (a, pa, b, pb, v) in &parry {
                    black_box(
                        parry3d::query::cast_shapes(
                            pa,
                            parry3d::math::Vector::ZERO,
                            a.as_ref(),
                            pb,
                            *v,
                            b.as_ref(),
                            parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0),
                        )
                        .ok(),
                    );
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, casts);
criterion_main!(benches);
