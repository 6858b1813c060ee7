//! Seed 003's claim (issue 14 item 4): the plain hull SAT and Gregorius' SAT without
//! bounds against sepax's pruned SAT, scanned and walked, cold and warm, with parry3d
//! beside them, for 8-, 24-, 64- and 256-point hulls. The variants and pairs are
//! described in `sepax_benches::seed003`; the table and what it says are in the
//! narrow phase's crate docs (section "Seed 003's claim, measured").
//!
//! `cargo bench -p sepax-benches --bench seed003`
//!
//! Each measurement is one pass over the pair set; criterion's throughput line gives
//! pairs per second, and the time per pair is the pass time / the pair count (256 pairs
//! up to 64 points, 64 at 256). The plain SAT's passes from 64 points on last 0.1–1 s,
//! so they take 10 flat samples.

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use sepax_benches::seed003::{POINTS, Passes, Variant, pairs};
use std::time::Duration;

fn seed003(c: &mut Criterion) {
    let mut group = c.benchmark_group("seed003");
    for n in POINTS {
        let mut passes = Passes::new(pairs(n));
        group.throughput(Throughput::Elements(passes.len() as u64));
        for variant in Variant::ALL {
            let slow = variant == Variant::Plain && n >= 64;
            if slow {
                group
                    .sampling_mode(SamplingMode::Flat)
                    .sample_size(10)
                    .measurement_time(Duration::from_secs(if n > 64 { 12 } else { 5 }));
            } else {
                group
                    .sampling_mode(SamplingMode::Auto)
                    .sample_size(100)
                    .measurement_time(Duration::from_secs(5));
            }
            group.bench_function(BenchmarkId::new(variant.label(), n), |bench| {
                bench.iter(|| passes.run(variant))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, seed003);
criterion_main!(benches);
