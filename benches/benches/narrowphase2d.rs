//! 2D narrow phase: sepax's `contact2d` / `collide2d` against parry2d 0.31's
//! `query::contact` and `contact_manifolds` on the same pairs, in the same groups.
//!
//! Pairs (`sepax_testkit::pairs2d::depth_band_pairs2`): 256 seeded box–box pairs and
//! 256 regular-octagon pairs, each set once touching (penetrating by 0.1–2 % of the
//! size, with a 2-point manifold in most cases) and once separated (by 5–50 % of the size, beyond the margin). One
//! iteration runs the whole set. parry's `contact_manifolds` gets a fresh manifold
//! list per call (cleared, capacity kept): with a persistent one it would return its
//! cached points for the unchanged pose, which measures a cache, not the query.
//!
//! Run: `cargo bench -p sepax-benches --bench narrowphase2d -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use parry2d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry2d::shape::{ConvexPolygon as PConvex, Cuboid as PCuboid, Shape as PShape};
use sepax_geometry::dim2::{Pose2, Shape2};
use sepax_narrowphase::dim2::{collide2d, contact2d};
use sepax_testkit::pairs2d::{BandShape2, depth_band_pairs2};
use std::hint::black_box;

const PAIRS: usize = 256;
const MARGIN: f32 = 0.01;

/// A parry shape and its pose.
type ParryBody = (Box<dyn PShape>, parry2d::math::Pose2);

struct Set {
    ours: Vec<(Shape2, Pose2, Shape2, Pose2)>,
    parry: Vec<(ParryBody, ParryBody)>,
}

fn p_vec(v: Vec2) -> parry2d::math::Vector {
    parry2d::math::Vector::new(v.x, v.y)
}

fn p_pose(p: &Pose2) -> parry2d::math::Pose2 {
    parry2d::math::Pose2::new(p_vec(p.translation), p.rotation.angle())
}

/// Pairs of `shape` whose seed-001 oracle depth lies in `[lo, hi]` (relative to size
/// 1), with the same shapes and poses in parry's types.
fn build(shape: BandShape2, lo: f64, hi: f64, seed: u64) -> Set {
    let ours = depth_band_pairs2(shape, PAIRS, lo, hi, seed);
    let parry = ours
        .iter()
        .map(|(a, pa, b, pb)| ((p_shape(a), p_pose(pa)), (p_shape(b), p_pose(pb))))
        .collect();
    Set { ours, parry }
}

/// The same box or polygon in parry2d (half extents, or the vertices as given).
fn p_shape(shape: &Shape2) -> Box<dyn PShape> {
    match shape {
        Shape2::Obb2(b) => Box::new(PCuboid::new(p_vec(b.half_extents()))),
        Shape2::Polygon(p) => Box::new(
            PConvex::from_convex_polyline(p.vertices().iter().map(|v| p_vec(*v)).collect())
                .expect("a sepax polygon is a valid parry polygon"),
        ),
        Shape2::Circle(_) => unreachable!("the bench sets hold boxes and octagons"),
    }
}

fn group(c: &mut Criterion, name: &str, set: &Set) {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(PAIRS as u64));
    g.bench_function("sepax_contact2d", |bch| {
        bch.iter(|| {
            let mut n = 0usize;
            for (a, pa, b, pb) in &set.ours {
                n += contact2d(black_box(a), black_box(pa), b, pb, MARGIN).is_some() as usize;
            }
            n
        })
    });
    g.bench_function("sepax_collide2d", |bch| {
        bch.iter(|| {
            let mut n = 0usize;
            for (a, pa, b, pb) in &set.ours {
                n += collide2d(black_box(a), black_box(pa), b, pb, MARGIN)
                    .map_or(0, |m| m.points.len());
            }
            n
        })
    });
    g.bench_function("parry2d_contact", |bch| {
        bch.iter(|| {
            let mut n = 0usize;
            for ((a, pa), (b, pb)) in &set.parry {
                n += parry2d::query::contact(black_box(pa), a.as_ref(), pb, b.as_ref(), MARGIN)
                    .unwrap()
                    .is_some() as usize;
            }
            n
        })
    });
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let mut workspace = None;
    g.bench_function("parry2d_contact_manifolds", |bch| {
        bch.iter(|| {
            let mut n = 0usize;
            for ((a, pa), (b, pb)) in &set.parry {
                manifolds.clear();
                let pos12 = black_box(pa).inv_mul(pb);
                DefaultQueryDispatcher
                    .contact_manifolds(
                        &pos12,
                        a.as_ref(),
                        b.as_ref(),
                        MARGIN,
                        &mut manifolds,
                        &mut workspace,
                    )
                    .unwrap();
                n += manifolds.iter().map(|m| m.points.len()).sum::<usize>();
            }
            n
        })
    });
    g.finish();
}

fn narrowphase2d(c: &mut Criterion) {
    group(c, "obb2_touching", &build(BandShape2::Obb2, 0.001, 0.02, 1));
    group(
        c,
        "obb2_separated",
        &build(BandShape2::Obb2, -0.5, -0.05, 2),
    );
    group(
        c,
        "octagon_touching",
        &build(BandShape2::Octagon, 0.001, 0.02, 3),
    );
    group(
        c,
        "octagon_separated",
        &build(BandShape2::Octagon, -0.5, -0.05, 4),
    );
}

criterion_group!(benches, narrowphase2d);
criterion_main!(benches);
