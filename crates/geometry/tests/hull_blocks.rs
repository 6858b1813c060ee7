//! The blocked support mapping equals the scalar scan, index for index, and so do the
//! blocked rotated bounds, bit for bit, on the path this CPU takes (AVX where it runs)
//! and on the baseline path; the blocked furthest plane equals the scalar
//! scan of the planes, index and distance bits; the incidence tables name the edges
//! they say; side planes hold their loop steps.

use glam::Vec3;
use sepax_geometry::ConvexHull;
use sepax_geometry::hull::blocks::{support_index_blocks, support_index_blocks_baseline};
use sepax_geometry::hull::support_index;
use sepax_geometry::rng::Rng;

fn directions(rng: &mut Rng) -> Vec<Vec3> {
    let mut dirs = vec![
        Vec3::ZERO,
        Vec3::X,
        -Vec3::Y,
        Vec3::Z,
        Vec3::ONE,
        Vec3::new(1.0, -1.0, 0.0),
        Vec3::new(f32::NAN, 0.0, 0.0),
        Vec3::new(f32::INFINITY, 0.0, 1.0),
        Vec3::splat(1e30),
        Vec3::splat(1e-30),
    ];
    dirs.extend((0..600).map(|_| rng.unit_vec3() * rng.range(0.001, 1000.0)));
    dirs
}

fn hulls(rng: &mut Rng) -> Vec<ConvexHull> {
    let mut hulls = vec![ConvexHull::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap()];
    for n in [4, 5, 7, 8, 9, 15, 16, 17, 24, 33, 64, 200] {
        for _ in 0..20 {
            let points: Vec<Vec3> = (0..n)
                .map(|_| rng.unit_vec3() * rng.range(0.5, 2.0))
                .collect();
            if let Ok(h) = ConvexHull::try_from_points(&points) {
                hulls.push(h);
            }
        }
    }
    // Grid points: many exact ties.
    let grid: Vec<Vec3> = (0..27)
        .map(|i| Vec3::new((i % 3) as f32, (i / 3 % 3) as f32, (i / 9) as f32))
        .collect();
    hulls.push(ConvexHull::try_from_points(&grid).unwrap());
    hulls
}

#[test]
fn blocked_support_is_the_scalar_scan() {
    let mut rng = Rng::new(0xb10c);
    let hulls = hulls(&mut rng);
    let mut checked = 0;
    for h in &hulls {
        for d in directions(&mut rng) {
            let scalar = support_index(h.vertices(), d);
            assert_eq!(support_index_blocks(h.vertex_blocks(), d), scalar, "{d:?}");
            assert_eq!(
                support_index_blocks_baseline(h.vertex_blocks(), d),
                scalar,
                "{d:?}"
            );
            assert_eq!(h.support_index(d), scalar);
            let normals: Vec<Vec3> = h.planes().iter().map(|p| p.normal).collect();
            assert_eq!(h.face_towards(d), support_index(&normals, d));
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// A hull's world box from the vertex blocks equals the scalar loop over its vertices
/// (`R v`, then min and max) bit for bit, on the path this CPU takes (AVX where it
/// runs) and on the baseline path; quarter turns put signed zeros in the products.
#[test]
fn blocked_bounds_are_the_scalar_loop() {
    use glam::{Mat3, Quat};
    use sepax_geometry::hull::blocks::{rotated_bounds, rotated_bounds_baseline};
    use std::f32::consts::FRAC_PI_2;
    let mut rng = Rng::new(0xb0c5);
    let mut checked = 0;
    for n in [4, 5, 7, 8, 9, 15, 16, 17, 24, 33, 64, 200] {
        for _ in 0..40 {
            let points: Vec<Vec3> = (0..n)
                .map(|_| rng.unit_vec3() * rng.vec3(Vec3::splat(0.01), Vec3::splat(1e3)))
                .collect();
            let Ok(hull) = ConvexHull::try_from_points(&points) else {
                continue;
            };
            let quarter = [
                Quat::from_rotation_x(FRAC_PI_2),
                Quat::from_rotation_y(-FRAC_PI_2),
                Quat::from_rotation_z(std::f32::consts::PI),
            ];
            let random: Vec<Quat> = (0..220).map(|_| rng.rotation()).collect();
            for rotation in [Quat::IDENTITY].into_iter().chain(quarter).chain(random) {
                let r = Mat3::from_quat(rotation);
                let mut min = Vec3::splat(f32::INFINITY);
                let mut max = Vec3::splat(f32::NEG_INFINITY);
                for v in hull.vertices() {
                    let w = r * *v;
                    min = min.min(w);
                    max = max.max(w);
                }
                for (low, high) in [
                    rotated_bounds(hull.vertex_blocks(), r),
                    rotated_bounds_baseline(hull.vertex_blocks(), r),
                ] {
                    assert_eq!(
                        low.to_array().map(f32::to_bits),
                        min.to_array().map(f32::to_bits)
                    );
                    assert_eq!(
                        high.to_array().map(f32::to_bits),
                        max.to_array().map(f32::to_bits)
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// The scalar twin of `furthest_plane`: the first face with the largest distance.
fn furthest_plane_scan(h: &ConvexHull, p: Vec3) -> (usize, f32) {
    let mut best = (0, f32::NEG_INFINITY);
    for (f, plane) in h.planes().iter().enumerate() {
        let d = plane.signed_distance(p);
        if d > best.1 {
            best = (f, d);
        }
    }
    best
}

#[test]
fn blocked_furthest_plane_is_the_scalar_scan() {
    let mut rng = Rng::new(0xf1a7);
    let hulls = hulls(&mut rng);
    let mut checked = 0;
    for h in &hulls {
        // Directions double as points: near, far, on the axes (ties on the grid hull
        // and the box), and a NaN.
        for p in directions(&mut rng) {
            let (f, d) = h.furthest_plane(p);
            let (g, e) = furthest_plane_scan(h, p);
            assert_eq!((f, d.to_bits()), (g, e.to_bits()), "{p:?}");
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn incidence_tables_name_the_edges_they_say() {
    let mut rng = Rng::new(0x1dce);
    for h in hulls(&mut rng) {
        let same = |e: usize, a: u32, b: u32| {
            let [x, y] = h.edges()[e].vertices;
            (x, y) == (a, b) || (x, y) == (b, a)
        };
        for f in 0..h.face_count() {
            let loop_ = h.face(f);
            let start = h.face_starts()[f] as usize;
            for k in 0..loop_.len() {
                let e = h.face_edges()[start + k] as usize;
                assert!(same(e, loop_[k], loop_[(k + 1) % loop_.len()]));
                assert!(h.edges()[e].faces.contains(&(f as u32)));
            }
        }
        for (e, steps) in h.edge_steps().iter().enumerate() {
            for (side, &j) in steps.iter().enumerate() {
                assert_eq!(h.face_edges()[j as usize] as usize, e);
                let f = h.edges()[e].faces[side] as usize;
                let range = h.face_starts()[f] as usize..h.face_starts()[f + 1] as usize;
                assert!(range.contains(&(j as usize)));
            }
        }
        // A side plane holds its step and the face's normal, and has the polygon behind.
        for f in 0..h.face_count() {
            let n = h.planes()[f].normal;
            let start = h.face_starts()[f] as usize;
            let centre = h
                .face(f)
                .iter()
                .map(|&i| h.vertices()[i as usize])
                .sum::<Vec3>()
                / h.face(f).len() as f32;
            for (k, &i) in h.face(f).iter().enumerate() {
                let side = h.side_planes()[start + k];
                assert!((side.normal.length() - 1.0).abs() < 1e-5);
                assert!(side.normal.dot(n).abs() < 1e-5);
                assert!(side.signed_distance(h.vertices()[i as usize]).abs() < 1e-5);
                assert!(side.signed_distance(centre) < 0.0);
            }
        }
        for v in 0..h.vertices().len() {
            let start = h.neighbor_starts()[v] as usize;
            for (j, &w) in h.neighbors(v).iter().enumerate() {
                assert!(same(h.neighbor_edges()[start + j] as usize, v as u32, w));
            }
        }
    }
}

/// No blocks (an empty vertex list): index 0 from the support scan and the empty box
/// `(+∞, −∞)` from the bounds, on the path this CPU takes and on the baseline; NaN and
/// infinite directions and matrices change neither.
#[test]
fn empty_blocks_on_every_path() {
    use glam::Mat3;
    use sepax_geometry::hull::blocks::{rotated_bounds, rotated_bounds_baseline};
    for d in [Vec3::X, Vec3::NAN, Vec3::INFINITY, Vec3::ZERO] {
        assert_eq!(support_index_blocks(&[], d), 0);
        assert_eq!(support_index_blocks_baseline(&[], d), 0);
    }
    for r in [Mat3::IDENTITY, Mat3::from_diagonal(Vec3::NAN)] {
        for (low, high) in [rotated_bounds(&[], r), rotated_bounds_baseline(&[], r)] {
            assert_eq!(low, Vec3::INFINITY);
            assert_eq!(high, Vec3::NEG_INFINITY);
        }
    }
}
