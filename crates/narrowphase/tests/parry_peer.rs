//! sepax against parry3d 0.31 `query::contact` (GJK/EPA) on the same pairs, with the
//! vertex-projection oracle as the judge (issue 2, part 3).
//!
//! parry is a peer, not a reference: where it disagrees with the oracle, the test keeps
//! the case and shows it, and sepax must agree with the oracle.

use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::contact;
use sepax_narrowphase::oracle::gap_along;
use sepax_testkit::pairs::{PLACEMENTS, Placement, oracle, place, scale};
use sepax_testkit::shapes::random_cuboid;
use sepax_testkit::to_parry::{pose as to_parry_pose, shape as to_parry_shape};

/// parry's penetration depth and normal (a→b), `None` when it reports no contact.
fn parry_contact(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> Option<(f32, glam::Vec3)> {
    let (sa, sb) = (to_parry_shape(a), to_parry_shape(b));
    parry3d::query::contact(&to_parry_pose(pa), &*sa, &to_parry_pose(pb), &*sb, 0.0)
        .unwrap()
        .map(|c| (-c.dist, glam::Vec3::from_array(c.normal1.to_array())))
}

fn parry_depth(a: &Shape, pa: &Pose, b: &Shape, pb: &Pose) -> Option<f32> {
    parry_contact(a, pa, b, pb).map(|(d, _)| d)
}

#[derive(Default, Debug)]
struct Tally {
    judged: usize,
    parry_wrong: usize,
    worst_case: Option<(usize, f64)>,
}

#[test]
fn sepax_matches_the_oracle_where_parry_is_measured_against_it() {
    let mut rng = Rng::new(0x9A22);
    let mut tally = Tally::default();
    for i in 0..20_000 {
        let placement = PLACEMENTS[i % PLACEMENTS.len()];
        let (a, b) = (random_cuboid(&mut rng), random_cuboid(&mut rng));
        let (pa, pb) = place(&mut rng, &a, &b, placement);
        let truth = oracle(&a, &pa, &b, &pb);
        let size = scale(&a, &b);
        if truth.separation.abs() <= 1e-5 * size {
            continue;
        }
        tally.judged += 1;
        let truth_depth = (-truth.separation).max(0.0);
        let ours = contact(&a, &pa, &b, &pb, 0.0)
            .map(|c| c.depth)
            .unwrap_or(0.0) as f64;
        assert!(
            (ours - truth_depth).abs() <= 1e-4 * size,
            "case {i}: ours {ours} vs oracle {truth_depth}"
        );
        let parry = parry_contact(&a, &pa, &b, &pb);
        let theirs = parry.map_or(0.0, |(d, _)| d).max(0.0) as f64;
        let error = (theirs - truth_depth).abs() / size;
        // Where both agree on a penetration depth, the normals agree within 1e-3 rad, or
        // the minimum is not unique: parry's normal is then an equally deep witness.
        if let (Some((_, their_normal)), Some(c)) = (parry, contact(&a, &pa, &b, &pb, 0.0))
            && error <= 1e-4
            && truth_depth > 1e-3 * size
        {
            let angle = c.normal.angle_between(their_normal);
            let witness = gap_along(&a, &pa, &b, &pb, their_normal.as_dvec3()) + truth_depth;
            assert!(
                angle < 1e-3 || witness.abs() <= 1e-4 * size,
                "case {i}: normals differ by {angle} rad on a unique minimum"
            );
        }
        if error > 1e-4 {
            tally.parry_wrong += 1;
            if tally.worst_case.is_none_or(|(_, e)| error > e) {
                tally.worst_case = Some((i, error));
            }
        }
    }
    println!("parry3d query::contact vs oracle on box pairs: {tally:?}");
    assert!(tally.judged > 15_000);
}

/// Coincident centres: the oracle and sepax give the depth along the thinnest box axis
/// pair; parry 0.31's GJK/EPA is checked and the disagreement, if any, is printed. This
/// keeps the case visible in the test log (see the closing note of issue 2).
#[test]
fn coincident_centres_parry_vs_oracle() {
    let mut rng = Rng::new(0xC0C0);
    let mut parry_misses = 0;
    let mut parry_off = 0;
    for _ in 0..2_000 {
        let (a, b) = (random_cuboid(&mut rng), random_cuboid(&mut rng));
        let (pa, pb) = place(&mut rng, &a, &b, Placement::CoincidentCentres);
        let truth = -oracle(&a, &pa, &b, &pb).separation;
        let ours = contact(&a, &pa, &b, &pb, 0.0).expect("coincident centres always overlap");
        let size = scale(&a, &b);
        assert!((ours.depth as f64 - truth).abs() <= 1e-4 * size);
        match parry_depth(&a, &pa, &b, &pb) {
            None => parry_misses += 1,
            Some(d) if (d as f64 - truth).abs() > 1e-4 * size => parry_off += 1,
            Some(_) => {}
        }
    }
    println!(
        "coincident centres: parry reported no contact {parry_misses} times, a wrong depth {parry_off} times out of 2000"
    );
}

/// Sphere–box pairs (the sphere path in the box's frame) against parry3d's
/// `query::contact`, judged by the f64 clamp (`oracle::sphere_separation`): sepax's depth
/// must match the oracle; parry's misses are counted and printed.
#[test]
fn sphere_box_against_parry_and_the_oracle() {
    use sepax_geometry::Sphere;
    use sepax_narrowphase::oracle::sphere_separation;
    let mut rng = Rng::new(0x5B_9A22);
    let mut tally = Tally::default();
    let mut normals = 0;
    for i in 0..20_000 {
        let placement = PLACEMENTS[i % PLACEMENTS.len()];
        let boxed = random_cuboid(&mut rng);
        let radius = rng.range(0.05, 1.5);
        let sphere = Shape::from(Sphere::try_new(radius).unwrap());
        let (ps, pb) = place(&mut rng, &sphere, &boxed, placement);
        let truth = sphere_separation(radius, &ps, &boxed, &pb);
        let size = scale(&sphere, &boxed);
        if truth.abs() <= 1e-5 * size {
            continue;
        }
        tally.judged += 1;
        let truth_depth = (-truth).max(0.0);
        let ours = contact(&sphere, &ps, &boxed, &pb, 0.0);
        let depth = ours.map_or(0.0, |c| c.depth) as f64;
        assert!(
            (depth - truth_depth).abs() <= 1e-4 * size,
            "case {i}: ours {depth} vs oracle {truth_depth}"
        );
        let parry = parry_contact(&sphere, &ps, &boxed, &pb);
        let theirs = parry.map_or(0.0, |(d, _)| d).max(0.0) as f64;
        let error = (theirs - truth_depth).abs() / size;
        // Where both see the same depth and the centre is outside the box (a unique
        // closest point), the normals are the same direction.
        if let (Some((_, their_normal)), Some(c)) = (parry, ours)
            && error <= 1e-4
            && truth + (radius as f64) > 1e-3 * size
            && truth_depth > 0.0
        {
            let angle = c.normal.angle_between(their_normal);
            assert!(angle < 1e-3, "case {i}: normals differ by {angle} rad");
            normals += 1;
        }
        if error > 1e-4 {
            tally.parry_wrong += 1;
            if tally.worst_case.is_none_or(|(_, e)| error > e) {
                tally.worst_case = Some((i, error));
            }
        }
    }
    println!(
        "parry3d query::contact vs oracle on sphere–box pairs: {tally:?}, {normals} normals compared"
    );
    assert!(
        tally.judged > 15_000 && normals > 1_000,
        "{tally:?} {normals}"
    );
}
