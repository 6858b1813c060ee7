//! Shape casts against fine stepping: for random pairs of every convex kind moving
//! with random linear and angular velocities, step time finely with the f64 oracle's
//! separation and check that the cast
//!
//! * reports a hit whenever a step overlaps, at a time **no later** than the first
//!   overlapping step;
//! * reports, at its time, shapes that are within the cast tolerance of touching and
//!   not overlapping (so the hit is neither late nor early by more than the tolerance);
//! * reports no hit only when no step overlaps.
//!
//! Steps are coarse (200 over the interval) and refined (200 more) inside the first
//! coarse step that overlaps; a pass thinner than a coarse step may be seen only by the
//! cast, whose hit the second check then confirms.

use glam::{DVec3, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape, Sphere};
use sepax_narrowphase::oracle::{capsule_separation, sphere_separation, vertex_projection_sat};
use sepax_narrowphase::{
    CAST_TOLERANCE, CastHit, Motion, QueryError, cast, cast_rounding, distance,
};
use sepax_testkit::ccd::first_time_below;
use sepax_testkit::shapes::{ellipsoid_hull, random_capsule, random_cuboid};
use sepax_testkit::to_parry::{pose as to_parry_pose, shape as to_parry_shape};

/// The f64 oracle's separation: negative when the shapes overlap.
fn oracle_separation(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> f64 {
    match (a, b) {
        (Shape::Sphere(s), _) => sphere_separation(s.radius(), pa, b, pb),
        (_, Shape::Sphere(s)) => sphere_separation(s.radius(), pb, a, pa),
        (Shape::Capsule(c), _) => capsule_separation(c, pa, b, pb),
        (_, Shape::Capsule(c)) => capsule_separation(c, pb, a, pa),
        _ => {
            vertex_projection_sat(a, pa, b, pb)
                .expect("polytopes")
                .separation
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Sphere,
    Box,
    Hull,
    Capsule,
}

const KINDS: [Kind; 4] = [Kind::Sphere, Kind::Box, Kind::Hull, Kind::Capsule];

fn shape(rng: &mut Rng, kind: Kind) -> Shape {
    match kind {
        Kind::Sphere => Shape::from(Sphere::try_new(rng.range(0.05, 1.0)).unwrap()),
        Kind::Box => random_cuboid(rng),
        Kind::Hull => {
            let n = 8 + rng.below(5);
            ellipsoid_hull(rng, n)
        }
        Kind::Capsule => random_capsule(rng),
    }
}

struct Case {
    a: Shape,
    pose_a: Pose,
    motion_a: Motion,
    b: Shape,
    pose_b: Pose,
    motion_b: Motion,
}

/// b starts 1.5–5 sizes from a and is thrown roughly at it; half the cases spin.
fn case(rng: &mut Rng, ka: Kind, kb: Kind) -> Case {
    let (a, b) = (shape(rng, ka), shape(rng, kb));
    let size = a.bounding_radius() + b.bounding_radius();
    let far = Vec3::splat(50.0);
    let pose_a = Pose::new(rng.vec3(-far, far), rng.rotation());
    let offset = rng.unit_vec3() * size * rng.range(1.5, 5.0);
    let pose_b = Pose::new(pose_a.translation + offset, rng.rotation());
    let aim = -offset * rng.range(0.3, 2.5) + rng.unit_vec3() * size * rng.range(0.0, 1.5);
    let spin = |rng: &mut Rng| match rng.below(2) {
        0 => Vec3::ZERO,
        _ => rng.unit_vec3() * rng.range(0.0, 4.0),
    };
    let drift = rng.unit_vec3() * size * rng.range(0.0, 0.5);
    Case {
        motion_a: Motion {
            linear: drift,
            angular: spin(rng),
        },
        motion_b: Motion {
            linear: aim,
            angular: spin(rng),
        },
        a,
        pose_a,
        b,
        pose_b,
    }
}

impl Case {
    fn separation_at(&self, t: f32) -> f64 {
        let pa = self.motion_a.pose_at(&self.pose_a, t);
        let pb = self.motion_b.pose_at(&self.pose_b, t);
        oracle_separation(&self.a, &pa, &self.b, &pb)
    }

    /// The first stepped time at which the pair overlaps by more than `slack`.
    fn first_overlap(&self, slack: f64) -> Option<f32> {
        first_time_below(|t| self.separation_at(t), slack, 200)
    }

    fn cast(&self) -> Option<CastHit> {
        cast(
            &self.a,
            &self.pose_a,
            &self.motion_a,
            &self.b,
            &self.pose_b,
            &self.motion_b,
            1.0,
        )
        .expect("valid input")
    }
}

#[test]
fn casts_are_never_late_and_never_miss() {
    never_late_and_never_miss(0xca57);
}

/// More seeds of [`casts_are_never_late_and_never_miss`], each of which held a cast
/// the build before 5 December 2026 got wrong: a sphere against a capsule spinning at
/// 3.8 rad/s out of steps 3.1e-5 apart (1.2 times the tolerance), a 0.055 sphere 50
/// units from the origin stopped 5e-7 deep (the poses' f32 rounding, 1.4 times the
/// margin a step kept), and a spinning box out of steps 0.078 short of another.
#[test]
fn casts_are_never_late_and_never_miss_on_more_seeds() {
    for seed in [0xca57 ^ 777, 0xca57 ^ 4242, 0xca57 ^ 3] {
        never_late_and_never_miss(seed);
    }
}

fn never_late_and_never_miss(seed: u64) {
    let mut rng = Rng::new(seed);
    let (mut hits, mut misses, mut spinning_hits) = (0, 0, 0);
    let mut worst_early = 0.0f64;
    for ka in KINDS {
        for kb in KINDS {
            for _ in 0..400 {
                let c = case(&mut rng, ka, kb);
                let size = c.a.bounding_radius().min(c.b.bounding_radius()) as f64;
                let slack = 1e-6 * size;
                let overlap = c.first_overlap(slack);
                let hit = c.cast();
                let tag = format!("{ka:?}-{kb:?} {:?} {:?}", c.motion_a, c.motion_b);
                match (overlap, hit) {
                    (Some(t), None) => panic!("{tag}: overlaps at {t}, cast missed"),
                    (Some(t), Some(h)) => {
                        assert!(
                            h.time <= t + 1e-6,
                            "{tag}: hit at {} after overlap at {t}",
                            h.time
                        );
                    }
                    (None, _) => {}
                }
                let Some(h) = hit else {
                    misses += 1;
                    continue;
                };
                hits += 1;
                if c.motion_a.angular != Vec3::ZERO || c.motion_b.angular != Vec3::ZERO {
                    spinning_hits += 1;
                }
                assert!(h.normal.is_normalized(), "{tag}: normal {:?}", h.normal);
                if h.initially_touching {
                    assert_eq!(h.time, 0.0);
                    continue;
                }
                // At the reported time: not overlapping, and within the tolerance.
                let pa = c.motion_a.pose_at(&c.pose_a, h.time);
                let pb = c.motion_b.pose_at(&c.pose_b, h.time);
                let separation = oracle_separation(&c.a, &pa, &c.b, &pb);
                assert!(
                    separation >= -slack,
                    "{tag}: overlapping by {separation} at the hit"
                );
                let gap = distance(&c.a, &pa, &c.b, &pb).unwrap() as f64;
                // The tolerance, and the f32 rounding of the poses (`cast_rounding`).
                let rounding = cast_rounding(
                    &c.a,
                    &c.pose_a,
                    &c.motion_a,
                    &c.b,
                    &c.pose_b,
                    &c.motion_b,
                    1.0,
                ) as f64;
                let tolerance = CAST_TOLERANCE as f64 * size + 4.0 * rounding;
                assert!(
                    (h.separation as f64 - gap).abs() <= 1e-6 * size + 1e-6 * gap,
                    "{tag}: separation {} vs {gap}",
                    h.separation
                );
                assert!(
                    gap <= tolerance * 1.01 + 1e-7 * size,
                    "{tag}: {gap} apart at the hit"
                );
                worst_early = worst_early.max(gap / size);
                let along = DVec3::from(h.point_b - h.point_a).length();
                assert!(
                    (along - gap).abs() <= 1e-4 * size,
                    "{tag}: points {along} apart, gap {gap}"
                );
            }
        }
    }
    println!(
        "{hits} hits ({spinning_hits} spinning), {misses} misses; worst gap at a hit {worst_early:.2e} x size"
    );
    assert!(hits > 2000 && misses > 500 && spinning_hits > 800);
}

#[test]
fn cast_mirrors_in_both_orders() {
    let mut rng = Rng::new(0x5ca7);
    for ka in KINDS {
        for kb in KINDS {
            for _ in 0..200 {
                let c = case(&mut rng, ka, kb);
                let ab = c.cast();
                let ba = cast(
                    &c.b,
                    &c.pose_b,
                    &c.motion_b,
                    &c.a,
                    &c.pose_a,
                    &c.motion_a,
                    1.0,
                )
                .unwrap();
                let mirrored = ab.map(|h| CastHit {
                    normal: -h.normal,
                    point_a: h.point_b,
                    point_b: h.point_a,
                    ..h
                });
                assert_eq!(ba, mirrored, "{ka:?}-{kb:?}");
            }
        }
    }
}

#[test]
fn overlapping_at_start_hits_at_zero() {
    let mut rng = Rng::new(7);
    for ka in KINDS {
        for kb in KINDS {
            let (a, b) = (shape(&mut rng, ka), shape(&mut rng, kb));
            let pose = Pose::new(Vec3::new(3.0, -2.0, 1.0), rng.rotation());
            let near = Pose::new(pose.translation + Vec3::splat(0.01), rng.rotation());
            let h = cast(
                &a,
                &pose,
                &Motion::ZERO,
                &b,
                &near,
                &Motion::linear(Vec3::X),
                1.0,
            )
            .unwrap()
            .expect("overlapping");
            assert!(h.initially_touching && h.time == 0.0, "{ka:?}-{kb:?}");
            assert!(h.normal.is_normalized());
        }
    }
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let ball = Shape::from(Sphere::try_new(1.0).unwrap());
    let p = Pose::IDENTITY;
    let far = Pose::from_translation(Vec3::X * 5.0);
    let m = Motion::ZERO;
    let nan = Motion::linear(Vec3::new(f32::NAN, 0.0, 0.0));
    assert_eq!(
        cast(&ball, &p, &nan, &ball, &far, &m, 1.0),
        Err(QueryError::InvalidMotion)
    );
    for t in [-1.0, f32::NAN, f32::INFINITY] {
        assert_eq!(
            cast(&ball, &p, &m, &ball, &far, &m, t),
            Err(QueryError::InvalidTime)
        );
    }
    let bad = Pose::new(Vec3::ZERO, glam::Quat::from_xyzw(0.0, 0.0, 0.0, 2.0));
    assert_eq!(
        cast(&ball, &bad, &m, &ball, &far, &m, 1.0),
        Err(QueryError::InvalidPose)
    );
    // Huge speeds and a zero time limit are fine.
    let fast = Motion::linear(Vec3::X * -1e30);
    assert!(
        cast(&ball, &p, &m, &ball, &far, &fast, 1.0)
            .unwrap()
            .is_some()
    );
    assert!(
        cast(&ball, &p, &m, &ball, &far, &fast, 0.0)
            .unwrap()
            .is_none()
    );
}

/// parry3d's `cast_shapes` on the same linear casts, judged by fine stepping like
/// sepax: counts where each is late (a hit after the first overlapping step) or
/// misses. Only sepax is asserted on; parry's record is printed.
#[test]
fn linear_casts_against_parry() {
    let mut rng = Rng::new(0xfa57);
    let (mut cases, mut agree, mut parry_late, mut parry_missed, mut parry_phantom) =
        (0, 0, 0, 0, 0);
    let mut parry_worst_late = 0.0f32;
    for ka in KINDS {
        for kb in KINDS {
            for _ in 0..150 {
                let mut c = case(&mut rng, ka, kb);
                c.motion_a.angular = Vec3::ZERO;
                c.motion_b.angular = Vec3::ZERO;
                let size = c.a.bounding_radius().min(c.b.bounding_radius()) as f64;
                let overlap = c.first_overlap(1e-6 * size);
                let ours = c.cast();
                if let Some(t) = overlap {
                    assert!(ours.is_some_and(|h| h.time <= t + 1e-6), "{ka:?}-{kb:?}");
                }
                let v = |m: &Motion| parry3d::math::Vector::new(m.linear.x, m.linear.y, m.linear.z);
                let theirs = parry3d::query::cast_shapes(
                    &to_parry_pose(&c.pose_a),
                    v(&c.motion_a),
                    &*to_parry_shape(&c.a),
                    &to_parry_pose(&c.pose_b),
                    v(&c.motion_b),
                    &*to_parry_shape(&c.b),
                    parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0),
                )
                .expect("supported shapes");
                cases += 1;
                match (overlap, theirs) {
                    (Some(t), Some(h)) if h.time_of_impact > t + 1e-6 => {
                        parry_late += 1;
                        parry_worst_late = parry_worst_late.max(h.time_of_impact - t);
                    }
                    (Some(_), None) => parry_missed += 1,
                    _ => {}
                }
                if let (None, Some(h)) = (overlap, theirs) {
                    // A parry hit the stepping never saw overlap at: real only if the
                    // shapes are within reach at its time.
                    let gap = distance(
                        &c.a,
                        &c.motion_a.pose_at(&c.pose_a, h.time_of_impact),
                        &c.b,
                        &c.motion_b.pose_at(&c.pose_b, h.time_of_impact),
                    )
                    .unwrap() as f64;
                    if gap > 1e-3 * size {
                        parry_phantom += 1;
                    }
                }
                let same = match (ours, theirs) {
                    (None, None) => true,
                    (Some(o), Some(t)) => (o.time - t.time_of_impact).abs() <= 1e-3,
                    _ => false,
                };
                agree += same as usize;
            }
        }
    }
    println!(
        "{cases} linear casts: sepax and parry agree (time within 1e-3) on {agree}; \
         parry late {parry_late} (by up to {parry_worst_late:.1e} of the interval), missed {parry_missed}, hit while apart {parry_phantom}"
    );
    assert!(agree * 10 > cases * 9, "{agree} of {cases}");
}
