//! Mass properties: closed forms (box, regular tetrahedron and octahedron, corner
//! tetrahedron, sphere), an independent voxel integration of random hulls as the slow
//! twin of the polyhedral formula, invariants (translation, symmetric positive definite
//! inertia, triangle inequality of principal moments), recentring, the inverses a
//! solver uses, and bad or out-of-range input.

use glam::{DMat3, DVec3, Mat3, Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Capsule, ConvexHull, Cuboid, MassProperties, Shape, ShapeError, Sphere};

/// `|a − b| <= tol · max(|a|, |b|)`.
fn rel_close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs())
}

/// Largest entry difference, relative to the largest entry of `want`.
fn mat_rel_err(got: Mat3, want: Mat3) -> f64 {
    let scale = want
        .to_cols_array()
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs() as f64));
    let diff = (got - want)
        .to_cols_array()
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs() as f64));
    diff / scale
}

/// `R I Rᵀ`: an inertia tensor carried to axes rotated by `q`.
fn rotate_inertia(q: Quat, inertia: Mat3) -> Mat3 {
    let r = Mat3::from_quat(q);
    r * inertia * r.transpose()
}

/// Eigenvalues of a symmetric 3×3 matrix by cyclic Jacobi rotations (f64), ascending.
fn eigenvalues(m: Mat3) -> [f64; 3] {
    let m = m.as_dmat3();
    let mut a = [[0.0f64; 3]; 3];
    for (i, row) in a.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = m.col(j)[i];
        }
    }
    for _ in 0..64 {
        let off = a[0][1].abs() + a[0][2].abs() + a[1][2].abs();
        let diag = a[0][0].abs() + a[1][1].abs() + a[2][2].abs();
        if off <= 1e-18 * diag {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            // Rotation in the (p, q) plane that zeroes a[p][q] (Numerical Recipes §11.1).
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            let mut j = [[0.0f64; 3]; 3];
            for (k, row) in j.iter_mut().enumerate() {
                row[k] = 1.0;
            }
            j[p][p] = c;
            j[q][q] = c;
            j[p][q] = s;
            j[q][p] = -s;
            // a ← jᵀ a j
            let mut aj = [[0.0f64; 3]; 3];
            for r in 0..3 {
                for col in 0..3 {
                    aj[r][col] = (0..3).map(|k| a[r][k] * j[k][col]).sum();
                }
            }
            for r in 0..3 {
                for col in 0..3 {
                    a[r][col] = (0..3).map(|k| j[k][r] * aj[k][col]).sum();
                }
            }
        }
    }
    let mut e = [a[0][0], a[1][1], a[2][2]];
    e.sort_by(f64::total_cmp);
    e
}

/// A random hull: `count` points in a box of random proportions (down to `thinnest` of
/// the longest side), rotated and moved at random.
fn random_cloud(rng: &mut Rng, count: usize, thinnest: f32) -> Vec<Vec3> {
    let scale = Vec3::new(
        rng.range(thinnest, 1.0),
        rng.range(thinnest, 1.0),
        rng.range(thinnest, 1.0),
    ) * rng.range(0.5, 3.0);
    let rotation = rng.rotation();
    let offset = rng.vec3(Vec3::splat(-5.0), Vec3::splat(5.0));
    (0..count)
        .map(|_| rotation * (rng.vec3(-Vec3::ONE, Vec3::ONE) * scale) + offset)
        .collect()
}

/// The slow twin: midpoint-rule integration over an `n³` grid on the hull's bounding
/// box, in f64. A sample counts when it lies behind every face plane, so only the
/// planes are used, not the faces or the tetrahedron formulas. Returns the volume, the
/// centre of mass and the unit-density inertia about it.
fn voxel_moments(hull: &ConvexHull, n: usize) -> (f64, DVec3, DMat3) {
    let lo = hull
        .vertices()
        .iter()
        .fold(Vec3::INFINITY, |m, v| m.min(*v));
    let hi = hull
        .vertices()
        .iter()
        .fold(Vec3::NEG_INFINITY, |m, v| m.max(*v));
    let (lo, hi) = (lo.as_dvec3(), hi.as_dvec3());
    let mid = (lo + hi) * 0.5;
    let step = (hi - lo) / n as f64;
    let planes: Vec<(DVec3, f64)> = hull
        .planes()
        .iter()
        .map(|p| {
            (
                p.normal.as_dvec3(),
                p.offset as f64 - p.normal.as_dvec3().dot(mid),
            )
        })
        .collect();
    let (mut count, mut first, mut second) = (0u64, DVec3::ZERO, DMat3::ZERO);
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let x =
                    lo - mid + step * DVec3::new(i as f64 + 0.5, j as f64 + 0.5, k as f64 + 0.5);
                if planes.iter().all(|(nrm, d)| nrm.dot(x) <= *d) {
                    count += 1;
                    first += x;
                    second += DMat3::from_cols(x * x.x, x * x.y, x * x.z);
                }
            }
        }
    }
    let cell = step.x * step.y * step.z;
    let volume = count as f64 * cell;
    let c = first / count as f64;
    let covariance = second * cell - DMat3::from_cols(c * c.x, c * c.y, c * c.z) * volume;
    let trace = covariance.x_axis.x + covariance.y_axis.y + covariance.z_axis.z;
    let inertia = DMat3::from_diagonal(DVec3::splat(trace)) - covariance;
    (volume, c + mid, inertia)
}

#[test]
fn hull_of_box_corners_matches_the_cuboid_formulas() {
    let mut rng = Rng::new(11);
    for case in 0..20 {
        let h = rng.vec3(Vec3::splat(0.1), Vec3::splat(3.0));
        let density = rng.range(0.5, 2000.0);
        // The first case is axis-aligned at the origin, the others offset and rotated.
        let (offset, rotation) = if case == 0 {
            (Vec3::ZERO, Quat::IDENTITY)
        } else {
            (
                rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0)),
                rng.rotation(),
            )
        };
        let cuboid = Cuboid::try_from_half_extents(h).unwrap();
        let want = cuboid.mass_properties(density).unwrap();
        let corners: Vec<Vec3> = cuboid
            .vertices()
            .iter()
            .map(|v| rotation * *v + offset)
            .collect();
        let hull = ConvexHull::try_from_points(&corners).unwrap();
        let got = hull.mass_properties(density).unwrap();

        assert!(
            rel_close(got.mass as f64, want.mass as f64, 1e-5),
            "case {case}: mass"
        );
        assert!(rel_close(
            hull.volume() as f64,
            cuboid.volume() as f64,
            1e-5
        ));
        let com_err = (got.center_of_mass - offset).length();
        assert!(
            com_err <= 1e-5 * (offset.length() + h.length()),
            "case {case}: com {com_err}"
        );
        let err = mat_rel_err(got.inertia, rotate_inertia(rotation, want.inertia));
        assert!(err < 1e-5, "case {case}: inertia error {err}");
    }
    // The hull built from faces, too.
    let h = Vec3::new(0.5, 1.5, 2.5);
    let got = ConvexHull::cuboid(h).unwrap().mass_properties(7.0).unwrap();
    let want = Cuboid::try_from_half_extents(h)
        .unwrap()
        .mass_properties(7.0)
        .unwrap();
    assert!(rel_close(got.mass as f64, want.mass as f64, 1e-6));
    assert!(got.center_of_mass.length() < 1e-6);
    assert!(mat_rel_err(got.inertia, want.inertia) < 1e-6);
}

#[test]
fn cuboid_closed_form() {
    let p = Cuboid::try_from_half_extents(Vec3::new(1.0, 2.0, 3.0))
        .unwrap()
        .mass_properties(0.5)
        .unwrap();
    // V = 48, m = 24, I = m/3 (hy² + hz², hx² + hz², hx² + hy²) = 8 (13, 10, 5).
    assert_eq!(p.mass, 24.0);
    assert_eq!(p.inertia, Mat3::from_diagonal(Vec3::new(104.0, 80.0, 40.0)));
}

#[test]
fn regular_tetrahedron_and_octahedron_match_their_closed_forms() {
    // Alternate corners of the cube [−1, 1]³: edge a = 2√2, V = a³ / (6√2) = 8/3,
    // I = m a² / 20 · Id about the centre.
    let tetra = [
        Vec3::new(1.0, 1.0, 1.0),
        Vec3::new(1.0, -1.0, -1.0),
        Vec3::new(-1.0, 1.0, -1.0),
        Vec3::new(-1.0, -1.0, 1.0),
    ];
    let hull = ConvexHull::try_from_points(&tetra).unwrap();
    let p = hull.mass_properties(3.0).unwrap();
    assert!(rel_close(hull.volume() as f64, 8.0 / 3.0, 1e-6));
    assert!(rel_close(p.mass as f64, 8.0, 1e-6));
    assert!(p.center_of_mass.length() < 1e-6);
    let want = Mat3::from_diagonal(Vec3::splat(p.mass * 8.0 / 20.0));
    assert!(mat_rel_err(p.inertia, want) < 1e-6);

    // Octahedron |x| + |y| + |z| <= s: edge a = s√2, V = 4/3 s³, I = m a² / 10 = m s² / 5.
    let s = 1.5f32;
    let octa: Vec<Vec3> = [Vec3::X, Vec3::Y, Vec3::Z]
        .iter()
        .flat_map(|e| [*e * s, -*e * s])
        .collect();
    let offset = Vec3::new(2.0, -1.0, 0.5);
    let moved: Vec<Vec3> = octa.iter().map(|v| *v + offset).collect();
    let hull = ConvexHull::try_from_points(&moved).unwrap();
    assert_eq!(hull.face_count(), 8);
    let p = hull.mass_properties(1.0).unwrap();
    let volume = 4.0 / 3.0 * (s as f64).powi(3);
    assert!(rel_close(p.mass as f64, volume, 1e-6));
    assert!((p.center_of_mass - offset).length() < 1e-6);
    let want = Mat3::from_diagonal(Vec3::splat(p.mass * s * s / 5.0));
    assert!(mat_rel_err(p.inertia, want) < 1e-6);
}

#[test]
fn corner_tetrahedron_has_the_known_products_of_inertia() {
    // The simplex (0, x, y, z): V = 1/6, centre 1/4 on each axis; about the origin
    // ∫x² = 1/60, ∫xy = 1/120; about the centre the covariance is 1/160 on the diagonal
    // and −1/480 off it, so I = 1/80 on the diagonal and +1/480 off it.
    let hull = ConvexHull::try_from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).unwrap();
    let p = hull.mass_properties(1.0).unwrap();
    assert!(rel_close(p.mass as f64, 1.0 / 6.0, 1e-6));
    assert!((p.center_of_mass - Vec3::splat(0.25)).length() < 1e-7);
    let (d, o) = (1.0 / 80.0, 1.0 / 480.0);
    let want = Mat3::from_cols(Vec3::new(d, o, o), Vec3::new(o, d, o), Vec3::new(o, o, d));
    assert!(mat_rel_err(p.inertia, want) < 1e-5, "{:?}", p.inertia);
}

#[test]
fn hull_of_points_on_a_sphere_approaches_the_sphere() {
    let (n, r) = (2000, 2.0f32);
    let golden = std::f32::consts::PI * (3.0 - 5.0f32.sqrt());
    let points: Vec<Vec3> = (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f32 + 0.5) / n as f32;
            let ring = (1.0 - y * y).sqrt();
            let phi = golden * i as f32;
            Vec3::new(phi.cos() * ring, y, phi.sin() * ring) * r
        })
        .collect();
    let hull = ConvexHull::try_from_points(&points).unwrap();
    let got = hull.mass_properties(1.0).unwrap();
    let want = Sphere::try_new(r).unwrap().mass_properties(1.0).unwrap();
    // The inscribed polyhedron is a little smaller: within 2%, from below.
    assert!(got.mass < want.mass && rel_close(got.mass as f64, want.mass as f64, 0.02));
    assert!(got.center_of_mass.length() < 1e-3 * r);
    assert!(mat_rel_err(got.inertia, want.inertia) < 0.02);
}

#[test]
fn random_hulls_agree_with_voxel_integration() {
    let mut rng = Rng::new(2024);
    for case in 0..4 {
        let count = 6 + rng.below(40);
        let points = random_cloud(&mut rng, count, 0.3);
        let hull = ConvexHull::try_from_points(&points).unwrap();
        let p = hull.mass_properties(1.0).unwrap();
        let (volume, com, inertia) = voxel_moments(&hull, 100);
        let size = (hull
            .vertices()
            .iter()
            .fold(Vec3::NEG_INFINITY, |m, v| m.max(*v))
            - hull
                .vertices()
                .iter()
                .fold(Vec3::INFINITY, |m, v| m.min(*v)))
        .length();
        assert!(
            rel_close(p.mass as f64, volume, 0.002),
            "case {case}: {} vs {volume}",
            p.mass
        );
        let com_err = (p.center_of_mass.as_dvec3() - com).length();
        assert!(
            com_err < 0.001 * size as f64,
            "case {case}: com off by {com_err}"
        );
        let err = mat_rel_err(p.inertia, inertia.as_mat3());
        assert!(err < 0.005, "case {case}: inertia error {err}");
    }
}

#[test]
fn translating_a_hull_moves_its_centre_of_mass_by_the_same_vector() {
    let mut rng = Rng::new(5);
    for _ in 0..20 {
        let points = random_cloud(&mut rng, 30, 0.2);
        let d = rng.vec3(Vec3::splat(-20.0), Vec3::splat(20.0));
        let moved: Vec<Vec3> = points.iter().map(|p| *p + d).collect();
        let a = ConvexHull::try_from_points(&points).unwrap();
        let b = ConvexHull::try_from_points(&moved).unwrap();
        let (pa, pb) = (
            a.mass_properties(2.0).unwrap(),
            b.mass_properties(2.0).unwrap(),
        );
        let err = (pb.center_of_mass - pa.center_of_mass - d).length();
        assert!(
            err < 1e-5 * (d.length() + a.bounding_radius()),
            "com off by {err}"
        );
        assert!(rel_close(pa.mass as f64, pb.mass as f64, 1e-4));
        assert!(mat_rel_err(pb.inertia, pa.inertia) < 1e-4);
    }
}

#[test]
fn inertia_is_symmetric_positive_definite_with_triangle_inequality() {
    let mut rng = Rng::new(77);
    for case in 0..100 {
        // Down to slabs and needles 1/100 as thick as they are long.
        let count = 4 + rng.below(60);
        let points = random_cloud(&mut rng, count, 0.01);
        let Ok(hull) = ConvexHull::try_from_points(&points) else {
            continue;
        };
        let p = hull.mass_properties(1.0).unwrap();
        assert_eq!(
            p.inertia,
            p.inertia.transpose(),
            "case {case}: not symmetric"
        );
        let [i1, i2, i3] = eigenvalues(p.inertia);
        assert!(i1 > 0.0, "case {case}: principal moments {i1} {i2} {i3}");
        assert!(
            i1 + i2 >= i3 * (1.0 - 1e-5),
            "case {case}: {i1} + {i2} < {i3}"
        );
        // And the eigen solver itself: trace preserved.
        let trace = (p.inertia.x_axis.x + p.inertia.y_axis.y + p.inertia.z_axis.z) as f64;
        assert!(rel_close(i1 + i2 + i3, trace, 1e-6));
    }
}

#[test]
fn recentered_hull_has_its_centre_of_mass_at_the_origin() {
    let mut rng = Rng::new(9);
    for _ in 0..10 {
        let mut points = random_cloud(&mut rng, 25, 0.2);
        let far = rng.vec3(Vec3::splat(-1000.0), Vec3::splat(1000.0));
        points.iter_mut().for_each(|p| *p += far);
        let hull = ConvexHull::try_from_points(&points).unwrap();
        let (centered, offset) = ConvexHull::try_from_points_centered(&points).unwrap();
        assert_eq!(offset, hull.center_of_mass());
        let size = hull.bounding_radius() - hull.center_of_mass().length();
        assert!(centered.center_of_mass().length() < 1e-6 * far.length() + 1e-5 * size);
        for (v, w) in hull.vertices().iter().zip(centered.vertices()) {
            assert_eq!(*w, *v - offset);
        }
        // Planes shifted with the vertices: every face's vertices still lie on it.
        for f in 0..centered.face_count() {
            let plane = centered.planes()[f];
            for &v in centered.face(f) {
                let d = plane.signed_distance(centered.vertices()[v as usize]);
                assert!(
                    d.abs() < 1e-4 * far.length().max(1.0),
                    "off its plane by {d}"
                );
            }
        }
        assert!(centered.inradius() > 0.0);
        let (a, b) = (
            hull.mass_properties(1.0).unwrap(),
            centered.mass_properties(1.0).unwrap(),
        );
        assert!(rel_close(a.mass as f64, b.mass as f64, 1e-3));
        assert!(mat_rel_err(b.inertia, a.inertia) < 1e-3);
    }
}

#[test]
fn shape_dispatches_to_each_shape() {
    let sphere = Sphere::try_new(0.7).unwrap();
    let cuboid = Cuboid::try_from_half_extents(Vec3::new(0.2, 0.4, 0.6)).unwrap();
    let hull = ConvexHull::try_from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).unwrap();
    let pairs = [
        (
            Shape::from(sphere),
            sphere.mass_properties(3.0),
            sphere.volume(),
        ),
        (
            Shape::from(cuboid),
            cuboid.mass_properties(3.0),
            cuboid.volume(),
        ),
        (
            Shape::from(hull.clone()),
            hull.mass_properties(3.0),
            hull.volume(),
        ),
    ];
    for (shape, props, volume) in pairs {
        assert_eq!(shape.mass_properties(3.0), props);
        assert_eq!(shape.volume(), volume);
    }
}

#[test]
fn bad_density_is_a_named_error() {
    let shapes = [
        Shape::from(Sphere::try_new(1.0).unwrap()),
        Shape::from(Cuboid::try_from_half_extents(Vec3::ONE).unwrap()),
        Shape::from(ConvexHull::cuboid(Vec3::ONE).unwrap()),
        Shape::from(Capsule::try_new(1.0, 0.5).unwrap()),
    ];
    for density in [0.0, -0.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for shape in &shapes {
            let direct = match shape {
                Shape::Sphere(s) => s.mass_properties(density),
                Shape::Cuboid(c) => c.mass_properties(density),
                Shape::ConvexHull(h) => h.mass_properties(density),
                Shape::Capsule(c) => c.mass_properties(density),
                Shape::TriMesh(_) => unreachable!("no mesh in this list"),
            };
            for result in [shape.mass_properties(density), direct] {
                assert!(
                    matches!(result, Err(ShapeError::InvalidDensity(v)) if v.to_bits() == density.to_bits()),
                    "density {density}: {result:?}"
                );
            }
        }
    }
}

#[test]
fn huge_and_tiny_shapes_give_an_error_never_a_nan() {
    // Moments of inertia grow with the fifth power of the size: past f32 at 1e12.
    let huge = [
        Shape::from(Sphere::try_new(1e12).unwrap()),
        Shape::from(Sphere::try_new(1e30).unwrap()),
        Shape::from(Cuboid::try_from_half_extents(Vec3::splat(1e13)).unwrap()),
        Shape::from(ConvexHull::cuboid(Vec3::splat(1e37)).unwrap()),
        Shape::from(Sphere::try_new(f32::MAX).unwrap()),
    ];
    for shape in &huge {
        assert_eq!(shape.mass_properties(1.0), Err(ShapeError::MassOutOfRange));
    }
    assert_eq!(huge[1].volume(), f32::INFINITY);
    assert_eq!(huge[3].volume(), f32::INFINITY);
    // Light and small: the inertia underflows f32's normal range.
    let tiny = Shape::from(Sphere::try_new(1e-12).unwrap());
    assert_eq!(tiny.mass_properties(1.0), Err(ShapeError::MassOutOfRange));
    assert!(tiny.volume() > 0.0);
    // Dense enough, the same sphere is fine. Just inside the range, so is a big one.
    assert!(tiny.mass_properties(1e30).is_ok());
    let big = Sphere::try_new(1e6).unwrap().mass_properties(1.0).unwrap();
    assert!(big.mass.is_finite() && big.inertia.is_finite());
    // Whatever the size and density, never a NaN: a value in range, or the error.
    let mut rng = Rng::new(3);
    for _ in 0..2000 {
        let size = 10f32.powf(rng.range(-38.0, 38.0));
        let density = 10f32.powf(rng.range(-38.0, 38.0));
        let shapes = [
            Sphere::try_new(size).map(Shape::from),
            Cuboid::try_from_half_extents(Vec3::new(size, size * 0.5, size * 2.0)).map(Shape::from),
        ];
        for shape in shapes.into_iter().flatten() {
            assert!(!shape.volume().is_nan());
            match shape.mass_properties(density) {
                Ok(p) => {
                    assert!(p.mass > 0.0 && p.mass.is_finite());
                    assert!(p.inertia.is_finite() && p.center_of_mass.is_finite());
                    assert!(p.inverse_inertia_world(Quat::IDENTITY).is_finite());
                    assert!(p.inverse_mass().is_finite());
                }
                Err(e) => assert_eq!(e, ShapeError::MassOutOfRange),
            }
        }
    }
}

#[test]
fn inverse_inertia_world_inverts_the_rotated_inertia() {
    let mut rng = Rng::new(4);
    for _ in 0..50 {
        let points = random_cloud(&mut rng, 20, 0.2);
        let p = ConvexHull::try_from_points(&points)
            .unwrap()
            .mass_properties(rng.range(0.1, 10.0))
            .unwrap();
        let q = rng.rotation();
        let product = p.inverse_inertia_world(q) * rotate_inertia(q, p.inertia);
        assert!(mat_rel_err(product, Mat3::IDENTITY) < 1e-4, "{product:?}");
        assert!((p.inverse_mass() * p.mass - 1.0).abs() < 1e-6);
    }
}

#[test]
fn degenerate_inverses_are_zero_never_nan() {
    let base = MassProperties {
        mass: 1.0,
        center_of_mass: Vec3::ZERO,
        inertia: Mat3::IDENTITY,
    };
    for mass in [0.0, -1.0, f32::NAN, f32::INFINITY, 1e-45] {
        assert_eq!(
            MassProperties { mass, ..base }.inverse_mass(),
            0.0,
            "mass {mass}"
        );
    }
    let bad = [
        Mat3::ZERO,
        Mat3::from_diagonal(Vec3::new(0.0, 1.0, 1.0)), // a thin rod
        Mat3::from_diagonal(Vec3::new(1.0, -1.0, 1.0)), // indefinite
        Mat3::from_diagonal(Vec3::new(-1.0, -1.0, 1.0)), // det > 0, still indefinite
        Mat3::from_diagonal(Vec3::new(f32::INFINITY, 1.0, 1.0)),
        Mat3::from_diagonal(Vec3::new(f32::NAN, 1.0, 1.0)),
        Mat3::from_diagonal(Vec3::splat(1e-40)), // inverse past f32::MAX
    ];
    for inertia in bad {
        let p = MassProperties { inertia, ..base };
        assert_eq!(p.inverse_inertia(), Mat3::ZERO, "{inertia:?}");
        assert_eq!(
            p.inverse_inertia_world(Quat::from_rotation_x(0.3)),
            Mat3::ZERO
        );
    }
    let nan_rotation = Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0);
    assert_eq!(base.inverse_inertia_world(nan_rotation), Mat3::ZERO);
    assert_eq!(base.inverse_inertia_world(Quat::IDENTITY), Mat3::IDENTITY);
}

/// Capsules against an independent midpoint-rule integration over a grid in f64 (the
/// slow twin of the cylinder-plus-half-balls formula), and the ball at `h = 0`.
#[test]
fn capsule_matches_a_grid_integration() {
    for (h, r) in [(1.0f64, 0.5f64), (0.3, 0.8), (2.0, 0.1)] {
        let capsule = Capsule::try_new(h as f32, r as f32).unwrap();
        let props = capsule.mass_properties(2.0).unwrap();
        let n = 160;
        let (ext_xz, ext_y) = (r, h + r);
        let (dx, dy) = (2.0 * ext_xz / n as f64, 2.0 * ext_y / n as f64);
        let (mut volume, mut xx, mut yy) = (0.0f64, 0.0f64, 0.0f64);
        for i in 0..n {
            let x = -ext_xz + (i as f64 + 0.5) * dx;
            for j in 0..n {
                let y = -ext_y + (j as f64 + 0.5) * dy;
                for k in 0..n {
                    let z = -ext_xz + (k as f64 + 0.5) * dx;
                    let core_y = y.clamp(-h, h);
                    if x * x + (y - core_y) * (y - core_y) + z * z <= r * r {
                        let dv = dx * dy * dx;
                        volume += dv;
                        xx += x * x * dv;
                        yy += y * y * dv;
                    }
                }
            }
        }
        // I_xx = ρ ∫(y² + z²) = ρ (yy + xx) by symmetry (∫z² = ∫x²); I_yy = 2ρ xx.
        let (mass, ixx, iyy) = (2.0 * volume, 2.0 * (yy + xx), 4.0 * xx);
        assert!(
            rel_close(props.mass as f64, mass, 5e-3),
            "{h} {r}: {props:?} vs {mass}"
        );
        assert!(
            rel_close(props.inertia.x_axis.x as f64, ixx, 1e-2),
            "{h} {r}: {props:?} vs {ixx}"
        );
        assert!(rel_close(props.inertia.z_axis.z as f64, ixx, 1e-2));
        assert!(
            rel_close(props.inertia.y_axis.y as f64, iyy, 1e-2),
            "{h} {r}: {props:?} vs {iyy}"
        );
        assert_eq!(props.center_of_mass, Vec3::ZERO);
        assert_eq!(props.inertia.x_axis.y, 0.0);
    }
    let ball = Capsule::try_new(0.0, 0.7)
        .unwrap()
        .mass_properties(3.0)
        .unwrap();
    let sphere = Sphere::try_new(0.7).unwrap().mass_properties(3.0).unwrap();
    assert!(rel_close(ball.mass as f64, sphere.mass as f64, 1e-6));
    assert!(mat_rel_err(ball.inertia, sphere.inertia) < 1e-6);
    assert_eq!(
        Shape::from(Capsule::try_new(1e13, 1e13).unwrap()).mass_properties(1.0),
        Err(ShapeError::MassOutOfRange)
    );
}

/// A recentred hull's position tables moved with it (they were copied unmoved before:
/// the plane blocks, side planes and edge blocks of the far-off original): its furthest
/// plane, its polar climb and its edge blocks agree with a hull built from the moved
/// points' faces.
#[test]
fn recentered_hull_tables_moved_with_it() {
    let mut rng = Rng::new(17);
    for _ in 0..10 {
        let mut points = random_cloud(&mut rng, 25, 0.2);
        let far = rng.vec3(Vec3::splat(-100.0), Vec3::splat(100.0));
        points.iter_mut().for_each(|p| *p += far);
        let (centered, _) = ConvexHull::try_from_points_centered(&points).unwrap();
        for _ in 0..200 {
            let p = rng.unit_vec3() * rng.range(0.0, 2.0);
            let (face, largest) = centered.furthest_plane(p);
            let scalar = centered
                .planes()
                .iter()
                .map(|plane| plane.signed_distance(p))
                .fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(largest, scalar);
            assert_eq!(centered.planes()[face].signed_distance(p), largest);
            if let Some(f) = centered.face_in_front(p) {
                assert!(centered.planes()[f].signed_distance(p) > 0.0);
            } else {
                assert!(largest <= 1e-4, "{p}: the climb missed {largest}");
            }
        }
        for (edge, record) in centered.edges().iter().zip(centered.edge_records()) {
            let [v0, v1] = edge.vertices.map(|v| centered.vertices()[v as usize]);
            assert_eq!(record.point, v0);
            assert_eq!(record.direction, v1 - v0);
            let [n0, n1] = edge.faces.map(|f| centered.planes()[f as usize].normal);
            assert_eq!((record.n0, record.n1), (n0, n1));
        }
        assert_eq!(centered.edge_records().len(), centered.edges().len());
    }
}
