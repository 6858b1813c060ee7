//! Box–box SAT against the seeds' vertex-projection oracle (issue 2, part 3), on
//! 100,000 seeded pairs cycling through general, coincident-centre, parallel-face,
//! edge-on-edge, near-touching and near-parallel-edge placements. The same pairs run through the polytope
//! path (boxes as hulls), which must agree too.

use sepax_geometry::rng::Rng;
use sepax_narrowphase::oracle::gap_along;
use sepax_narrowphase::{contact, intersects};
use sepax_testkit::pairs::{PLACEMENTS, check_contact_against_oracle, grown, oracle, place, scale};
use sepax_testkit::shapes::{cuboid_as_hull, random_cuboid};

fn check_pairs(seed: u64, count: usize, as_hulls: bool) {
    let mut rng = Rng::new(seed);
    let mut overlapping = 0;
    let mut separated = 0;
    for i in 0..count {
        let placement = PLACEMENTS[i % PLACEMENTS.len()];
        let (mut a, mut b) = (random_cuboid(&mut rng), random_cuboid(&mut rng));
        let (pa, pb) = place(&mut rng, &a, &b, placement);
        let truth = oracle(&a, &pa, &b, &pb);
        if as_hulls {
            a = cuboid_as_hull(&a);
            b = cuboid_as_hull(&b);
        }
        let size = scale(&a, &b);
        let band = 1e-5 * size;
        let ours = contact(&a, &pa, &b, &pb, 0.0);
        let hit = intersects(&a, &pa, &b, &pb);
        assert_eq!(
            hit,
            ours.is_some(),
            "case {i} ({placement:?}): intersects vs contact"
        );
        if truth.separation > band {
            separated += 1;
            assert!(
                ours.is_none(),
                "case {i} ({placement:?}): oracle gap {} but we report {ours:?}",
                truth.separation
            );
        } else if truth.separation < -band {
            overlapping += 1;
            let c = ours.unwrap_or_else(|| {
                panic!(
                    "case {i} ({placement:?}): oracle depth {} but we report no contact",
                    -truth.separation
                )
            });
            let depth_error = (c.depth as f64 + truth.separation).abs();
            assert!(
                depth_error <= 5e-7 * size,
                "case {i} ({placement:?}): depth {} vs oracle {}",
                c.depth,
                -truth.separation
            );
            // The normal must be a real witness: the gap along it is minus the depth.
            let gap = gap_along(&a, &pa, &b, &pb, c.normal.as_dvec3());
            assert!(
                (gap + c.depth as f64).abs() <= 5e-7 * size,
                "case {i} ({placement:?}): gap along our normal {gap} vs depth {}",
                c.depth
            );
        }
    }
    assert!(
        overlapping > count / 4 && separated > count / 10,
        "{overlapping} {separated}"
    );
}

#[test]
fn box_box_agrees_with_vertex_projection_on_100k_pairs() {
    check_pairs(0xB0B0, 100_000, false);
}

#[test]
fn boxes_as_hulls_agree_with_vertex_projection_on_100k_pairs() {
    check_pairs(0xB0B1, 100_000, true);
}

/// Boxes 2⁶⁴, 2⁹⁰ and 2¹²⁰ times the usual size, placed as much further apart (squared
/// lengths overflow `f32` from 2⁶⁴ on): the same verdicts and depths as the oracle's,
/// as at size 1 (powers of two scale `f32` exactly, so only overflow could differ).
#[test]
fn huge_boxes_agree_with_vertex_projection() {
    for exponent in [64, 90, 120] {
        let factor = 2f32.powi(exponent);
        let mut rng = Rng::new(0x4067);
        let (mut overlapping, mut separated) = (0, 0);
        for i in 0..3_000 {
            let (a, b) = (random_cuboid(&mut rng), random_cuboid(&mut rng));
            let (pa, pb) = place(&mut rng, &a, &b, PLACEMENTS[i % PLACEMENTS.len()]);
            let [(a, pa), (b, pb)] = grown(&a, &pa, &b, &pb, factor);
            let label = format!("2^{exponent}, case {i}");
            match check_contact_against_oracle(&a, &pa, &b, &pb, &label) {
                Some(true) => overlapping += 1,
                Some(false) => separated += 1,
                None => {}
            }
        }
        assert!(
            overlapping > 750 && separated > 300,
            "2^{exponent}: {overlapping} {separated}"
        );
    }
}
