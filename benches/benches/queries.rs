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
use sepax_benches::{cast_motions, cast_sets, parry_cast_pairs, parry_casts, sepax_casts};

fn casts(c: &mut Criterion) {
    let mut group = c.benchmark_group("cast");
    group.throughput(Throughput::Elements(256));
    for (name, pairs) in cast_sets() {
        let motions = cast_motions(&pairs);
        group.bench_function(BenchmarkId::new("sepax", name), |bench| {
            bench.iter(|| sepax_casts(&pairs, &motions))
        });
        let peers = parry_cast_pairs(&pairs);
        group.bench_function(BenchmarkId::new("parry3d", name), |bench| {
            bench.iter(|| parry_casts(&peers))
        });
    }
    group.finish();
}

criterion_group!(benches, casts);
criterion_main!(benches);
