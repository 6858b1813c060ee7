//! Helpers shared by sepax's criterion benches (`benches/*.rs`): conversions of sepax
//! values to the peers' types, so that both sides measure the very same pairs. The
//! pairs and scenes themselves come from `sepax-testkit`.
//!
//! Run one stage with `cargo bench -p sepax-benches --bench <name>`.

pub mod seed003;

pub use sepax_testkit::to_parry;

use glam::{Quat, Vec3};
use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::BoxBoxPair;
use sepax_testkit::pairs::Pair;

/// The pairs as the batched box API (`collide_box_pairs`) takes them; `None` unless
/// every shape is a box.
pub fn box_batch(pairs: &[Pair]) -> Option<Vec<BoxBoxPair>> {
    pairs
        .iter()
        .map(|p| match (&p.a, &p.b) {
            (Shape::Cuboid(a), Shape::Cuboid(b)) => Some(BoxBoxPair {
                a: *a,
                pose_a: p.pose_a,
                b: *b,
                pose_b: p.pose_b,
            }),
            _ => None,
        })
        .collect()
}

/// A mesh-triangle pair as parry takes it: the triangle, the other shape, and that
/// shape's pose in the triangle's (mesh) frame.
pub type ParryTrianglePair = (
    parry3d::shape::Triangle,
    Box<dyn parry3d::shape::Shape>,
    parry3d::math::Pose,
);

/// The same triangle pairs for parry (its triangles are two-sided).
pub fn parry_triangle_pairs(
    pairs: &[sepax_testkit::terrain::TrianglePair],
) -> Vec<ParryTrianglePair> {
    pairs
        .iter()
        .map(|p| {
            (
                to_parry::triangle(&p.triangle),
                to_parry::shape(&p.shape),
                to_parry::pose(&p.mesh_pose).inv_mul(&to_parry::pose(&p.pose)),
            )
        })
        .collect()
}

/// parry3d's `contact_manifolds` (what rapier calls) for every pair, each from an empty
/// manifold list (a cold query), the result left in `manifolds`.
pub fn parry_triangle_manifolds(
    peers: &[ParryTrianglePair],
    manifolds: &mut Vec<parry3d::query::ContactManifold<(), ()>>,
) {
    use parry3d::query::{DefaultQueryDispatcher, PersistentQueryDispatcher};
    for (triangle, shape, pose_ab) in peers {
        manifolds.clear();
        let mut workspace = None;
        DefaultQueryDispatcher
            .contact_manifolds(pose_ab, triangle, &**shape, 0.0, manifolds, &mut workspace)
            .unwrap();
        std::hint::black_box(&*manifolds);
    }
}

/// `pose` nudged for a warm-start measurement: moved by at most 1% of `size` and turned
/// by at most 0.01 rad, a fixed wobble of `phase` around it (so that pairs stay as they
/// were posed: touching, or apart). Consecutive phases are what the warm benches feed
/// a pair's cache from one call to the next.
pub fn nudged(pose: &Pose, size: f32, phase: f32) -> Pose {
    let nudge = Vec3::new(phase.sin(), phase.cos(), (1.7 * phase).sin()) * (0.005 * size);
    let turn = Quat::from_rotation_y(0.005 * phase.cos());
    Pose::new(pose.translation + nudge, (turn * pose.rotation).normalize())
}

/// The cast benches' sets (the `cast` group and prof's `cast-*` modes): 256 box pairs
/// with centres 3 sizes apart (`box_pairs(1, 256, Separated)`) and 256 24-point hull
/// pairs (`hull_pairs(24, 256, 24)`, moved 0.5 apart along their centre line); b moves
/// at [`cast_velocity`], a rests: every pair hits within `max_time = 1`.
pub fn cast_sets() -> Vec<(&'static str, Vec<Pair>)> {
    let mut hulls = sepax_testkit::pairs::hull_pairs(24, 256, 24);
    for p in &mut hulls {
        let d = (p.pose_b.translation - p.pose_a.translation).normalize_or(Vec3::X);
        p.pose_b.translation += d * 0.5;
    }
    let boxes = sepax_testkit::pairs::box_pairs(1, 256, sepax_testkit::pairs::PairKind::Separated);
    vec![("box", boxes), ("hull24", hulls)]
}

/// b's velocity in a cast set: towards a's centre, 0.8 × their offset per unit of time.
pub fn cast_velocity(p: &Pair) -> Vec3 {
    (p.pose_a.translation - p.pose_b.translation) * 0.8
}

/// A cast pair as parry takes it: shapes, poses and b's velocity (a rests).
pub type ParryCast = (
    Box<dyn parry3d::shape::Shape>,
    parry3d::math::Pose,
    Box<dyn parry3d::shape::Shape>,
    parry3d::math::Pose,
    parry3d::math::Vector,
);

/// The cast set's pairs for parry ([`cast_velocity`] for b).
pub fn parry_cast_pairs(pairs: &[Pair]) -> Vec<ParryCast> {
    pairs
        .iter()
        .map(|p| {
            let v = cast_velocity(p);
            (
                to_parry::shape(&p.a),
                to_parry::pose(&p.pose_a),
                to_parry::shape(&p.b),
                to_parry::pose(&p.pose_b),
                parry3d::math::Vector::new(v.x, v.y, v.z),
            )
        })
        .collect()
}

/// b's motion in each pair of a cast set ([`cast_velocity`], no turn).
pub fn cast_motions(pairs: &[Pair]) -> Vec<sepax_narrowphase::Motion> {
    pairs
        .iter()
        .map(|p| sepax_narrowphase::Motion::linear(cast_velocity(p)))
        .collect()
}

/// One pass of sepax `cast` over a cast set (a at rest, b with its motion, time 1).
pub fn sepax_casts(pairs: &[Pair], motions: &[sepax_narrowphase::Motion]) {
    use sepax_narrowphase::{Motion, cast};
    for (p, m) in pairs.iter().zip(motions) {
        std::hint::black_box(cast(&p.a, &p.pose_a, &Motion::ZERO, &p.b, &p.pose_b, m, 1.0).ok());
    }
}

/// One pass of parry3d `cast_shapes` over the same pairs (translation only, time 1).
pub fn parry_casts(peers: &[ParryCast]) {
    let options = parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0);
    let still = parry3d::math::Vector::ZERO;
    for (a, pa, b, pb, v) in peers {
        let hit = parry3d::query::cast_shapes(pa, still, &**a, pb, *v, &**b, options);
        std::hint::black_box(hit.ok());
    }
}

/// A pair as parry3d takes it: both shapes converted, both poses, and b's pose in a's
/// frame (what `contact_manifolds` reads).
pub struct ParryPair {
    pub a: Box<dyn parry3d::shape::Shape>,
    pub b: Box<dyn parry3d::shape::Shape>,
    pub pose_a: parry3d::math::Pose,
    pub pose_b: parry3d::math::Pose,
    pub pose_ab: parry3d::math::Pose,
}

/// `pairs` converted for parry3d, in order (the narrow-phase and seed 003 benches).
pub fn parry_pairs(pairs: &[Pair]) -> Vec<ParryPair> {
    pairs
        .iter()
        .map(|p| {
            let (pose_a, pose_b) = (to_parry::pose(&p.pose_a), to_parry::pose(&p.pose_b));
            ParryPair {
                a: to_parry::shape(&p.a),
                b: to_parry::shape(&p.b),
                pose_ab: pose_a.inv_mul(&pose_b),
                pose_a,
                pose_b,
            }
        })
        .collect()
}

/// One cold pass of parry3d's `contact_manifolds` over `peers` (an empty manifold list
/// and no workspace per pair, as sepax's cold queries), the result kept from the
/// optimiser. b's pose in a's frame is computed before the pass (parry3d's best figure).
pub fn parry_manifolds_pass(
    peers: &[ParryPair],
    manifolds: &mut Vec<parry3d::query::ContactManifold<(), ()>>,
) {
    parry_manifolds_from(peers, manifolds, |p| p.pose_ab);
}

/// [`parry_manifolds_pass`] from the two world poses, as a caller holding bodies calls
/// it: b's pose in a's frame (`inv_mul`) computed in the pass, not before it. sepax's
/// queries take the two world poses, so this is the like-for-like call; the targets
/// are quoted against the pass without it (parry3d's best figure).
pub fn parry_manifolds_pass_world(
    peers: &[ParryPair],
    manifolds: &mut Vec<parry3d::query::ContactManifold<(), ()>>,
) {
    parry_manifolds_from(peers, manifolds, |p| p.pose_a.inv_mul(&p.pose_b));
}

/// The pass, with b's pose in a's frame given by `pose_ab`.
#[inline(always)]
fn parry_manifolds_from(
    peers: &[ParryPair],
    manifolds: &mut Vec<parry3d::query::ContactManifold<(), ()>>,
    pose_ab: impl Fn(&ParryPair) -> parry3d::math::Pose,
) {
    use parry3d::query::{DefaultQueryDispatcher, PersistentQueryDispatcher};
    for p in peers {
        manifolds.clear();
        let mut workspace = None;
        DefaultQueryDispatcher
            .contact_manifolds(&pose_ab(p), &*p.a, &*p.b, 0.0, manifolds, &mut workspace)
            .expect("parry3d supports every convex pair of the benches");
        std::hint::black_box(&*manifolds);
    }
}
