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
use sepax_benches::{cast_sets, cast_velocity as velocity, to_parry};
use sepax_narrowphase::{Motion, cast};
use std::hint::black_box;

fn casts(c: &mut Criterion) {
    let mut group = c.benchmark_group("cast");
    group.throughput(Throughput::Elements(256));
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
