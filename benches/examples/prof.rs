//! A profiling driver for the narrow phase: runs one of the narrowphase bench's pair
//! sets through one query `N` times in a plain loop, with no criterion around it, so
//! that an instruction-level profiler sees only the query. Instruction counts are
//! repeatable on a busy machine where timings are not: use it to tell whether a change
//! makes a query cheaper.
//!
//! Modes (the first argument):
//!
//! | mode | pairs | query |
//! |---|---|---|
//! | `box` | 256 resting box pairs (`box_pairs(1, 256, Resting)`) | sepax `collide`, cold cache |
//! | `hull` | 256 touching 24-point hull pairs (`hull_pairs(24, 256, 24)`) | sepax `collide`, cold cache |
//! | `boxc` | the resting box pairs | sepax `contact` |
//! | `parry-box` | the resting box pairs | parry3d `contact_manifolds`, fresh manifolds |
//! | `parry-hull` | the hull pairs | parry3d `contact_manifolds`, fresh manifolds |
//!
//! These are the pairs of the `box_box_manifold/resting` and `hull_hull_manifold/24`
//! bench groups. `N` (environment, default 100) is the number of passes.
//!
//! ```sh
//! cargo build --profile bench -p sepax-benches --example prof
//! N=20 valgrind --tool=callgrind --callgrind-out-file=/tmp/prof.out \
//!     target/release/examples/prof hull
//! callgrind_annotate /tmp/prof.out | head -30
//! ```
//!
//! (With `CARGO_TARGET_DIR` set, the binary is under that directory instead of
//! `target/`.) The total also counts building the 256 pairs: measured with `N=0`,
//! 1.39 billion instructions for the hull pairs (hull building and the f64 oracle
//! that places them), 0.55 million for the box pairs. Compare runs with the same `N`,
//! or read the query's own functions in the annotated listing.

use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use sepax_benches::to_parry;
use sepax_narrowphase::{PairCache, collide, contact};
use sepax_testkit::pairs::{Pair, PairKind, box_pairs, hull_pairs};
use std::hint::black_box;
use std::process::ExitCode;

const MODES: [&str; 5] = ["box", "hull", "boxc", "parry-box", "parry-hull"];

fn main() -> ExitCode {
    let mode = std::env::args().nth(1).unwrap_or_default();
    if !MODES.contains(&mode.as_str()) {
        eprintln!("usage: prof <{}>  (N=passes, default 100)", MODES.join("|"));
        return ExitCode::FAILURE;
    }
    let passes: usize = match std::env::var("N").map(|v| v.parse()) {
        Err(_) => 100,
        Ok(Ok(n)) => n,
        Ok(Err(e)) => {
            eprintln!("N must be a count: {e}");
            return ExitCode::FAILURE;
        }
    };
    let pairs = if mode.contains("hull") {
        hull_pairs(24, 256, 24)
    } else {
        box_pairs(1, 256, PairKind::Resting)
    };
    match mode.as_str() {
        "box" | "hull" => (0..passes).for_each(|_| sepax_collide(&pairs)),
        "boxc" => (0..passes).for_each(|_| sepax_contact(&pairs)),
        _ => parry_manifolds(&pairs, passes),
    }
    ExitCode::SUCCESS
}

fn sepax_collide(pairs: &[Pair]) {
    for p in pairs {
        let mut cache = PairCache::default();
        black_box(collide(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0, &mut cache));
    }
}

fn sepax_contact(pairs: &[Pair]) {
    for p in pairs {
        black_box(contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0));
    }
}

fn parry_manifolds(pairs: &[Pair], passes: usize) {
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
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    for _ in 0..passes {
        for (a, b, pose_ab) in &peers {
            manifolds.clear();
            let mut workspace = None;
            DefaultQueryDispatcher
                .contact_manifolds(pose_ab, &**a, &**b, 0.0, &mut manifolds, &mut workspace)
                .unwrap();
            black_box(&manifolds);
        }
    }
}
