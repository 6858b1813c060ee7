//! Issue 14, item 2: the hull test's SIMD edge loops (`sat::hull_hull::lanes`) give the
//! scalar loops' answers bit for bit, at every level this CPU runs.
//!
//! 30,000 hull–hull and box–hull pairs under every placement of `testkit::pairs`, each
//! queried cold and then warm after a small motion, at `SimdLevel::Scalar` (the scalar
//! twin), `Baseline` and (where the CPU has it) `Avx2`; manifolds and caches compared
//! through their `Debug` text, which shows every bit (−0 and +0 included).

use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::{PairCache, SimdLevel, collide_at};
use sepax_testkit::pairs::{PLACEMENTS, place};
use sepax_testkit::shapes::{ellipsoid_hull, random_cuboid};

#[test]
fn hull_simd_levels_match_the_scalar_loops_bit_for_bit() {
    let levels = SimdLevel::available();
    assert!(levels.contains(&SimdLevel::Baseline));
    let mut rng = Rng::new(0x51D_14);
    let hulls: Vec<Shape> = (0..48)
        .map(|i| ellipsoid_hull(&mut rng, 8 + (i * 5) % 57))
        .collect();
    let mut touching = 0;
    for i in 0..30_000usize {
        let hull = |rng: &mut Rng| hulls[rng.below(hulls.len())].clone();
        let (a, b) = match i % 3 {
            0 => (random_cuboid(&mut rng), hull(&mut rng)),
            _ => (hull(&mut rng), hull(&mut rng)),
        };
        let placement = PLACEMENTS[i % PLACEMENTS.len()];
        let (pa, pb) = place(&mut rng, &a, &b, placement);
        let nudged = Pose::new(
            pb.translation + rng.vec3(Vec3::splat(-1e-2), Vec3::splat(1e-2)),
            (Quat::from_rotation_x(rng.range(-1e-2, 1e-2)) * pb.rotation).normalize(),
        );
        let margin = if i % 4 == 0 { 0.02 } else { 0.0 };
        let run = |level: SimdLevel| {
            let mut cache = PairCache::default();
            let cold = collide_at(level, &a, &pa, &b, &pb, margin, &mut cache);
            let warm = collide_at(level, &a, &pa, &b, &nudged, margin, &mut cache);
            format!("{cold:?} {warm:?} {cache:?}")
        };
        let scalar = run(SimdLevel::Scalar);
        touching += !scalar.starts_with("None") as usize;
        for &level in &levels[1..] {
            assert_eq!(run(level), scalar, "case {i} ({placement:?}) at {level:?}");
        }
    }
    assert!(touching > 10_000, "{touching} touching");
}
