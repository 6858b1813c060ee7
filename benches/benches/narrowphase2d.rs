//! 2D narrow phase: sepax's `contact2d` / `collide2d` against parry2d 0.31's
//! `query::contact` and `contact_manifolds` on the same pairs, in the same groups.
//!
//! Pairs: 256 seeded box–box pairs and 256 regular-octagon pairs, each set once
//! touching (penetrating by 0.1–2 % of the size, with a 2-point manifold in most
//! cases) and once separated (by 5–50 % of the size, beyond the margin). One
//! iteration runs the whole set. parry's `contact_manifolds` gets a fresh manifold
//! list per call (cleared, capacity kept): with a persistent one it would return its
//! cached points for the unchanged pose, which measures a cache, not the query.
//!
//! Run: `cargo bench -p sepax-benches --bench narrowphase2d -- --warm-up-time 1 --measurement-time 3`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec2;
use parry2d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry2d::shape::{ConvexPolygon as PConvex, Cuboid as PCuboid, Shape as PShape};
use sepax_geometry::dim2::{ConvexPolygon, Obb2, Pose2, Shape2};
use sepax_geometry::rng::Rng;
use sepax_narrowphase::dim2::oracle::{sat_oracle, world_vertices};
use sepax_narrowphase::dim2::{collide2d, contact2d};
use std::f32::consts::PI;
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

fn octagon(radius: f32) -> Vec<Vec2> {
    (0..8)
        .map(|k| Vec2::from_angle(k as f32 * PI / 4.0 + PI / 8.0) * radius)
        .collect()
}

/// `PAIRS` pairs whose seed-001 oracle depth lies in `[lo, hi]` (relative to size 1).
fn build(boxes: bool, lo: f64, hi: f64, seed: u64) -> Set {
    let mut rng = Rng::new(seed);
    let mut set = Set {
        ours: Vec::new(),
        parry: Vec::new(),
    };
    while set.ours.len() < PAIRS {
        let (sa, pa_shape, sb, pb_shape): (Shape2, Box<dyn PShape>, Shape2, Box<dyn PShape>) =
            if boxes {
                let ha = Vec2::new(rng.range(0.3, 1.0), rng.range(0.3, 1.0));
                let hb = Vec2::new(rng.range(0.3, 1.0), rng.range(0.3, 1.0));
                (
                    Obb2::try_from_half_extents(ha).unwrap().into(),
                    Box::new(PCuboid::new(p_vec(ha))),
                    Obb2::try_from_half_extents(hb).unwrap().into(),
                    Box::new(PCuboid::new(p_vec(hb))),
                )
            } else {
                let (ra, rb) = (rng.range(0.4, 1.0), rng.range(0.4, 1.0));
                let (oa, ob) = (octagon(ra), octagon(rb));
                (
                    ConvexPolygon::try_new(&oa).unwrap().into(),
                    Box::new(
                        PConvex::from_convex_polyline(oa.iter().map(|v| p_vec(*v)).collect())
                            .unwrap(),
                    ),
                    ConvexPolygon::try_new(&ob).unwrap().into(),
                    Box::new(
                        PConvex::from_convex_polyline(ob.iter().map(|v| p_vec(*v)).collect())
                            .unwrap(),
                    ),
                )
            };
        // b rests on a: nearly aligned (touching pairs get face contacts), then moved
        // along the oracle axis to the wanted depth.
        let pa = Pose2::new(
            Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)),
            rng.range(-PI, PI),
        );
        let dir = Vec2::from_angle(rng.range(-PI, PI));
        let mut pb = Pose2::new(
            pa.translation + dir * 1.5,
            pa.rotation.angle() + rng.range(-0.2, 0.2),
        );
        let o = sat_oracle(
            &world_vertices(&sa, &pa).unwrap(),
            &world_vertices(&sb, &pb).unwrap(),
        );
        let target = rng.range(lo as f32, hi as f32) as f64;
        let shift = o.axis * (o.depth - target);
        pb.translation += Vec2::new(shift.x as f32, shift.y as f32);
        let o = sat_oracle(
            &world_vertices(&sa, &pa).unwrap(),
            &world_vertices(&sb, &pb).unwrap(),
        );
        if o.depth < lo || o.depth > hi {
            continue;
        }
        set.parry
            .push(((pa_shape, p_pose(&pa)), (pb_shape, p_pose(&pb))));
        set.ours.push((sa, pa, sb, pb));
    }
    set
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
    group(c, "obb2_touching", &build(true, 0.001, 0.02, 1));
    group(c, "obb2_separated", &build(true, -0.5, -0.05, 2));
    group(c, "octagon_touching", &build(false, 0.001, 0.02, 3));
    group(c, "octagon_separated", &build(false, -0.5, -0.05, 4));
}

criterion_group!(benches, narrowphase2d);
criterion_main!(benches);
