//! `ConvexHull::try_from_points`: bad input, known solids, and randomized oracles
//! (hull invariants on clouds of 4..200 points; brute-force supporting planes on clouds
//! of at most 12 points).

use glam::{DVec3, Vec2, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{ConvexHull, HullError};

/// The builder's documented tolerance: `1e-5 · diag + 4 · f32::EPSILON · max|coord|`.
fn tolerance(points: &[Vec3]) -> f64 {
    let lo = points
        .iter()
        .fold(Vec3::INFINITY, |a, p| a.min(*p))
        .as_dvec3();
    let hi = points
        .iter()
        .fold(Vec3::NEG_INFINITY, |a, p| a.max(*p))
        .as_dvec3();
    let max_abs = lo.abs().max(hi.abs()).max_element();
    1e-5 * (hi - lo).length() + 4.0 * f32::EPSILON as f64 * max_abs
}

/// Checks everything a hull built from `points` must satisfy; returns the smallest
/// corner turn (distance of a loop vertex from the line through its neighbours) and the
/// largest distance of an input point in front of a face plane, both relative to the
/// tolerance.
fn check_hull(points: &[Vec3], hull: &ConvexHull) -> (f64, f64) {
    let eps = tolerance(points);
    let v = hull.vertices();
    // Vertices are input points, bit for bit, and pairwise farther apart than eps.
    for (i, p) in v.iter().enumerate() {
        assert!(points.contains(p), "vertex {p} is not an input point");
        for q in &v[..i] {
            assert!(
                p.as_dvec3().distance(q.as_dvec3()) > 0.99 * eps,
                "welded pair {p} {q}"
            );
        }
    }
    // Euler, unit planes, every input point behind every plane.
    let (nv, ne, nf) = (
        v.len() as i64,
        hull.edges().len() as i64,
        hull.face_count() as i64,
    );
    assert_eq!(nv - ne + nf, 2);
    let slack = 3.0 * eps;
    let mut max_front = f64::NEG_INFINITY;
    for plane in hull.planes() {
        assert!((plane.normal.length() - 1.0).abs() < 1e-5);
        let n = plane.normal.as_dvec3();
        for p in points {
            let d = n.dot(p.as_dvec3()) - plane.offset as f64;
            max_front = max_front.max(d / eps);
            assert!(
                d <= slack,
                "point {p} is {d} in front of a face (tol {slack})"
            );
        }
    }
    // Edges: v0 → v1 runs along normal(f0) × normal(f1); both ends on both faces.
    for e in hull.edges() {
        let [a, b] = e.vertices.map(|i| v[i as usize].as_dvec3());
        let [n0, n1] = e.faces.map(|f| hull.planes()[f as usize].normal.as_dvec3());
        assert!(
            (b - a).dot(n0.cross(n1)) > 0.0,
            "edge orientation: |n0 x n1| = {:e}, dot = {:e}, len {:e} eps {eps:e}",
            n0.cross(n1).length(),
            (b - a).normalize().dot(n0.cross(n1)),
            (b - a).length()
        );
        for f in e.faces {
            let loop_ = hull.face(f as usize);
            assert!(loop_.contains(&e.vertices[0]) && loop_.contains(&e.vertices[1]));
        }
    }
    // Gauss arcs reach their own face normals, knife edges (nearly opposite faces)
    // included; the middle lies between them.
    for (e, arc) in hull.edges().iter().zip(hull.gauss_arcs()) {
        let [n0, n1] = e.faces.map(|f| hull.planes()[f as usize].normal);
        for n in [n0, n1] {
            assert!(
                n.dot(arc.mid) >= arc.cos_half - 1e-6,
                "the arc {arc:?} misses {n} (n0 · n1 = {})",
                n0.dot(n1)
            );
        }
        assert!(
            arc.mid.dot(n0) >= -1e-6 && arc.mid.dot(n1) >= -1e-6,
            "{arc:?}"
        );
    }
    // Faces: planar within eps and strictly convex.
    let mut min_turn = f64::INFINITY;
    for f in 0..hull.face_count() {
        let plane = hull.planes()[f];
        let n = plane.normal.as_dvec3();
        let l = hull.face(f);
        assert!(l.len() >= 3);
        for k in 0..l.len() {
            let [a, b, c] = [k, k + 1, k + 2].map(|j| v[l[j % l.len()] as usize].as_dvec3());
            let off = (n.dot(b) - plane.offset as f64).abs();
            assert!(
                off <= slack,
                "face {f} ({} corners): vertex {off:e} off its plane, eps {eps:e}, V {}",
                l.len(),
                v.len()
            );
            let turn = (b - a).cross(c - b).dot(n);
            assert!(turn > 0.0, "face {f} is not strictly convex at {b}");
            min_turn = min_turn.min((b - a).cross(c - a).length() / (c - a).length() / eps);
        }
    }
    (min_turn, max_front)
}

fn cube_corners(h: f32) -> Vec<Vec3> {
    (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 != 0 { h } else { -h },
                if i & 2 != 0 { h } else { -h },
                if i & 4 != 0 { h } else { -h },
            )
        })
        .collect()
}

/// Cube corners of half size 1, then interior points, points on faces and on edges.
fn cube_with_extras(rng: &mut Rng) -> Vec<Vec3> {
    let mut pts = cube_corners(1.0);
    for _ in 0..40 {
        pts.push(rng.vec3(Vec3::splat(-0.99), Vec3::splat(0.99)));
    }
    for _ in 0..60 {
        let mut p = rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0));
        let axis = rng.below(3);
        p[axis] = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
        pts.push(p); // on a face
        let other = (axis + 1 + rng.below(2)) % 3;
        p[other] = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
        pts.push(p); // on an edge
    }
    pts
}

fn counts(h: &ConvexHull) -> (usize, usize, usize) {
    (h.vertices().len(), h.face_count(), h.edges().len())
}

// ---------------------------------------------------------------- bad input

#[test]
fn too_few_points() {
    for n in 0..4 {
        let pts = &cube_corners(1.0)[..n];
        assert_eq!(
            ConvexHull::try_from_points(pts),
            Err(HullError::TooFewPoints(n))
        );
    }
}

#[test]
fn non_finite_points() {
    let mut rng = Rng::new(1);
    let mut pts = cube_with_extras(&mut rng);
    pts[57].y = f32::NAN;
    assert_eq!(
        ConvexHull::try_from_points(&pts),
        Err(HullError::NonFinite(57))
    );
    pts[57].y = 0.0;
    pts[3].z = f32::INFINITY;
    pts[90].x = f32::NEG_INFINITY;
    assert_eq!(
        ConvexHull::try_from_points(&pts),
        Err(HullError::NonFinite(3))
    );
}

#[test]
fn all_duplicates() {
    let p = Vec3::new(1.5, -2.0, 3.25);
    assert_eq!(
        ConvexHull::try_from_points(&[p; 100]),
        Err(HullError::AllDuplicate)
    );
    assert_eq!(
        ConvexHull::try_from_points(&[Vec3::ZERO; 4]),
        Err(HullError::AllDuplicate)
    );
    // Differences at the f32 rounding level of a large coordinate are duplicates too.
    let big = Vec3::splat(1e7);
    let pts = [big, big + Vec3::X, big + Vec3::Y, big + Vec3::Z];
    assert_eq!(
        ConvexHull::try_from_points(&pts),
        Err(HullError::AllDuplicate)
    );
}

#[test]
fn collinear_points() {
    let line: Vec<Vec3> = (0..20)
        .map(|i| Vec3::new(1.0, 2.0, -1.0) * i as f32)
        .collect();
    assert_eq!(
        ConvexHull::try_from_points(&line),
        Err(HullError::Collinear)
    );
    // A rotated, offset line in f32 (off the line by rounding only), with duplicates.
    let mut rng = Rng::new(2);
    let dir = rng.unit_vec3();
    let mut pts: Vec<Vec3> = (0..50)
        .map(|_| Vec3::new(3.0, -7.0, 11.0) + dir * rng.range(-5.0, 5.0))
        .collect();
    pts.push(pts[0]);
    assert_eq!(ConvexHull::try_from_points(&pts), Err(HullError::Collinear));
}

#[test]
fn coplanar_points() {
    let square = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)];
    assert_eq!(
        ConvexHull::try_from_points(&square),
        Err(HullError::Coplanar)
    );
    let mut rng = Rng::new(3);
    let rot = rng.rotation();
    let pts: Vec<Vec3> = (0..200)
        .map(|_| rot * Vec3::new(rng.range(-2.0, 2.0), rng.range(-1.0, 1.0), 0.0) + Vec3::ONE)
        .collect();
    assert_eq!(ConvexHull::try_from_points(&pts), Err(HullError::Coplanar));
    // Off the plane by far less than the tolerance: still coplanar.
    let mut bumped = pts.clone();
    bumped[10] += rot * Vec3::Z * 1e-6;
    assert_eq!(
        ConvexHull::try_from_points(&bumped),
        Err(HullError::Coplanar)
    );
    // Off the plane by much more than the tolerance: a thin tetrahedron-like hull.
    bumped[10] += rot * Vec3::Z * 1e-2;
    let hull = ConvexHull::try_from_points(&bumped).unwrap();
    check_hull(&bumped, &hull);
}

#[test]
fn cube_with_a_point_pushed_off_a_face() {
    for push in [1e-2f32, 1e-3] {
        let mut pts = cube_corners(1.0);
        pts.push(Vec3::new(1.0 + push, 0.2, -0.3));
        let hull = ConvexHull::try_from_points(&pts).unwrap();
        // The +x face becomes a pyramid of 4 triangles.
        assert_eq!(counts(&hull), (9, 9, 16), "push {push}");
        check_hull(&pts, &hull);
    }
    // Below the tolerance (1e-5 × diag ≈ 3.5e-5): the point counts as on the face.
    let mut pts = cube_corners(1.0);
    pts.push(Vec3::new(1.0 + 1e-6, 0.2, -0.3));
    let hull = ConvexHull::try_from_points(&pts).unwrap();
    assert_eq!(counts(&hull), (8, 6, 12));
    check_hull(&pts, &hull);
}

#[test]
fn extreme_scales() {
    let mut rng = Rng::new(4);
    let base = cube_with_extras(&mut rng);
    for (scale, offset) in [
        (1e6f32, 0.0f32),
        (1e-6, 0.0),
        (1.0, 1e6),
        (1e-6, 1.0),
        (1e3, -1e4),
    ] {
        let pts: Vec<Vec3> = base
            .iter()
            .map(|p| *p * scale + Vec3::splat(offset))
            .collect();
        match ConvexHull::try_from_points(&pts) {
            Ok(hull) => {
                assert_eq!(counts(&hull), (8, 6, 12), "scale {scale} offset {offset}");
                check_hull(&pts, &hull);
            }
            // Extent below f32 resolution at this offset: a named error is acceptable.
            Err(e) => assert_eq!(e, HullError::AllDuplicate, "scale {scale} offset {offset}"),
        }
    }
}

/// Every magnitude from 1e-20 to 1e37 (with offsets up to 1e4 times the extent): a
/// valid hull, or `AllDuplicate` below an extent of 1e-15, or `NonFinite` where the
/// input itself overflowed to infinity.
#[test]
fn all_magnitudes() {
    let mut rng = Rng::new(12);
    for e in -20..=37 {
        for _ in 0..10 {
            let s = 10f32.powi(e);
            let offset = Vec3::splat([0.0, 3.0, 1e3, -1e4][rng.below(4)]);
            let pts: Vec<Vec3> = (0..4 + rng.below(40))
                .map(|_| (rng.vec3(Vec3::splat(-1.0), Vec3::ONE) + offset) * s)
                .collect();
            let result = ConvexHull::try_from_points(&pts);
            if let Some(i) = pts.iter().position(|p| !p.is_finite()) {
                assert_eq!(result, Err(HullError::NonFinite(i)));
            } else if e <= -16 {
                assert_eq!(result, Err(HullError::AllDuplicate), "1e{e}");
            } else {
                check_hull(
                    &pts,
                    &result.unwrap_or_else(|err| panic!("1e{e} offset {offset}: {err:?}")),
                );
            }
        }
    }
}

// ---------------------------------------------------------------- known solids

#[test]
fn cube_with_interior_face_and_edge_points() {
    let mut rng = Rng::new(5);
    for trial in 0..20 {
        let mut pts = cube_with_extras(&mut rng);
        if trial % 2 == 1 {
            // Rotated and moved in f32: face points are coplanar only up to rounding.
            let (rot, t) = (
                rng.rotation(),
                rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0)),
            );
            pts.iter_mut().for_each(|p| *p = rot * *p + t);
        }
        let hull = ConvexHull::try_from_points(&pts).unwrap();
        assert_eq!(counts(&hull), (8, 6, 12), "trial {trial}");
        for f in 0..6 {
            assert_eq!(hull.face(f).len(), 4);
        }
        check_hull(&pts, &hull);
    }
}

#[test]
fn tetrahedron_octahedron_icosahedron() {
    let mut rng = Rng::new(6);
    let tet = vec![
        Vec3::ZERO,
        Vec3::X,
        Vec3::Y,
        Vec3::Z,
        Vec3::splat(0.2),
        Vec3::new(0.5, 0.5, 0.0),
    ];
    let hull = ConvexHull::try_from_points(&tet).unwrap();
    assert_eq!(counts(&hull), (4, 4, 6));
    check_hull(&tet, &hull);

    let mut oct: Vec<Vec3> = [Vec3::X, Vec3::Y, Vec3::Z]
        .iter()
        .flat_map(|a| [*a, -*a])
        .collect();
    for _ in 0..30 {
        oct.push(rng.unit_vec3() * 0.5); // inside (|x|+|y|+|z| <= 0.5 * sqrt 3 < 1)
        oct.push(Vec3::X.lerp(Vec3::Y, rng.unit())); // on an edge
        let (a, b) = (rng.unit(), rng.unit());
        let (a, b) = if a + b > 1.0 {
            (1.0 - a, 1.0 - b)
        } else {
            (a, b)
        };
        oct.push(Vec3::X * (1.0 - a - b) + Vec3::Y * a - Vec3::Z * b); // on a face
    }
    let hull = ConvexHull::try_from_points(&oct).unwrap();
    assert_eq!(counts(&hull), (6, 8, 12));
    check_hull(&oct, &hull);

    let phi = (1.0 + 5f32.sqrt()) / 2.0;
    let mut ico = Vec::new();
    for s1 in [-1.0, 1.0] {
        for s2 in [-1.0, 1.0] {
            ico.push(Vec3::new(0.0, s1, s2 * phi));
            ico.push(Vec3::new(s1, s2 * phi, 0.0));
            ico.push(Vec3::new(s2 * phi, 0.0, s1));
        }
    }
    for _ in 0..50 {
        ico.push(rng.unit_vec3() * 1.5); // inradius of this icosahedron is about 1.51
    }
    let rot = rng.rotation();
    let ico: Vec<Vec3> = ico.iter().map(|p| rot * *p).collect();
    let hull = ConvexHull::try_from_points(&ico).unwrap();
    assert_eq!(counts(&hull), (12, 20, 30));
    check_hull(&ico, &hull);
}

#[test]
fn cylinder_with_coplanar_caps() {
    let mut rng = Rng::new(7);
    let k = 24;
    let ring = |j: usize| {
        let a = j as f32 / k as f32 * std::f32::consts::TAU;
        Vec3::new(a.cos(), a.sin(), 0.0)
    };
    let mut pts = Vec::new();
    for j in 0..k {
        pts.push(ring(j) - Vec3::Z);
        pts.push(ring(j) + Vec3::Z);
    }
    for _ in 0..200 {
        let (r, a) = (
            rng.unit().sqrt() * 0.95,
            rng.range(0.0, std::f32::consts::TAU),
        );
        let z = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
        pts.push(Vec3::new(r * a.cos(), r * a.sin(), z)); // in a cap
        let j = rng.below(k);
        let side = ring(j).lerp(ring(j + 1), rng.unit());
        pts.push(side + Vec3::Z * rng.range(-1.0, 1.0)); // on a side quad
    }
    let hull = ConvexHull::try_from_points(&pts).unwrap();
    assert_eq!(counts(&hull), (2 * k, k + 2, 3 * k));
    let caps = (0..hull.face_count())
        .filter(|&f| hull.face(f).len() == k)
        .count();
    assert_eq!(caps, 2);
    check_hull(&pts, &hull);
}

/// Slabs a few 1e-5 thick: every rim edge joins two faces within about 1e-7 of
/// opposite (knife edges), where `n0 + n1` is round-off; their arcs must still reach
/// both faces.
#[test]
fn slabs_with_knife_edges() {
    let mut rng = Rng::new(0x51AB);
    for _ in 0..2_000 {
        let thickness = 10f32.powf(rng.range(-6.0, -3.0));
        let points: Vec<Vec3> = (0..rng.below(12) + 4)
            .map(|_| {
                rng.vec3(
                    Vec3::new(-1.0, -thickness, -1.0),
                    Vec3::new(1.0, thickness, 1.0),
                )
            })
            .collect();
        if let Ok(hull) = ConvexHull::try_from_points(&points) {
            check_hull(&points, &hull);
        }
    }
}

#[test]
fn deterministic() {
    let mut rng = Rng::new(8);
    let pts: Vec<Vec3> = (0..150).map(|_| rng.unit_vec3()).collect();
    let a = ConvexHull::try_from_points(&pts).unwrap();
    let b = ConvexHull::try_from_points(&pts).unwrap();
    assert_eq!(a, b);
}

// ---------------------------------------------------------------- randomized oracles

/// A random cloud of one of several kinds, randomly rotated, scaled and moved.
fn random_cloud(rng: &mut Rng, n: usize) -> Vec<Vec3> {
    let kind = rng.below(8);
    // Thickness of the thin kinds, around the tolerance (1e-5 of the extent).
    let thin = 10f32.powf(rng.range(-6.0, -3.0));
    let mut pts: Vec<Vec3> = (0..n)
        .map(|_| match kind {
            0 => rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0)),
            1 => rng.unit_vec3(),
            2 => rng.vec3(Vec3::new(-3.0, -0.2, -1.0), Vec3::new(3.0, 0.2, 1.0)),
            // Integer lattice: many exactly coplanar and collinear points.
            3 => Vec3::new(
                rng.below(4) as f32,
                rng.below(3) as f32,
                rng.below(4) as f32,
            ),
            // Unit sphere snapped to a coarse grid: nearly coplanar faces.
            4 => (rng.unit_vec3() * 8.0).round() / 8.0,
            // A slab and a needle whose thickness is near the tolerance.
            6 => rng.vec3(Vec3::new(-1.0, -1.0, -thin), Vec3::new(1.0, 1.0, thin)),
            7 => rng.vec3(Vec3::new(-1.0, -thin, -thin), Vec3::new(1.0, thin, thin)),
            _ => Vec3::ZERO,
        })
        .collect();
    if kind == 5 {
        // Clusters around a few centres.
        let centres: Vec<Vec3> = (0..1 + rng.below(5))
            .map(|_| rng.unit_vec3() * 2.0)
            .collect();
        for p in &mut pts {
            *p = centres[rng.below(centres.len())] + rng.unit_vec3() * rng.range(0.0, 0.1);
        }
    }
    // Duplicates.
    for _ in 0..rng.below(n / 4 + 1) {
        let i = rng.below(n);
        pts.push(pts[i]);
    }
    if rng.unit() < 0.5 {
        let (rot, s) = (rng.rotation(), 10f32.powf(rng.range(-3.0, 3.0)));
        let t = rng.vec3(Vec3::splat(-100.0), Vec3::splat(100.0));
        pts.iter_mut().for_each(|p| *p = rot * *p * s + t);
    }
    pts
}

#[test]
fn random_clouds_satisfy_hull_invariants() {
    let mut rng = Rng::new(9);
    let mut built = 0;
    let (mut min_turn, mut max_front) = (f64::INFINITY, f64::NEG_INFINITY);
    for trial in 0..1000 {
        let n = 4 + rng.below(197);
        let pts = random_cloud(&mut rng, n);
        match ConvexHull::try_from_points(&pts) {
            Ok(hull) => {
                built += 1;
                let (turn, front) = check_hull(&pts, &hull);
                min_turn = min_turn.min(turn);
                max_front = max_front.max(front);
            }
            Err(HullError::Collinear | HullError::Coplanar | HullError::AllDuplicate) => {}
            Err(e) => panic!("trial {trial}: {e:?} for {pts:?}"),
        }
    }
    assert!(built > 800, "only {built} hulls built");
    println!(
        "built {built}; smallest corner turn / eps {min_turn:.3e}; farthest point in front of a face / eps {max_front:.3e}"
    );
}

/// Supporting planes by brute force: every triple of points whose plane has all points
/// on one side, deduplicated. `None` when some triple is ambiguous (all points on one
/// side only within a tolerance band), where the answer depends on the tolerance.
fn brute_force_planes(points: &[Vec3]) -> Option<Vec<(DVec3, f64)>> {
    let p: Vec<DVec3> = points.iter().map(|v| v.as_dvec3()).collect();
    let diag = {
        let lo = p.iter().fold(DVec3::INFINITY, |a, q| a.min(*q));
        let hi = p.iter().fold(DVec3::NEG_INFINITY, |a, q| a.max(*q));
        (hi - lo).length()
    };
    let (exact, band) = (1e-9 * diag, 1e-3 * diag);
    let mut planes: Vec<(DVec3, f64)> = Vec::new();
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            for k in j + 1..p.len() {
                let c = (p[j] - p[i]).cross(p[k] - p[i]);
                if c.length() <= 1e-6 * diag * diag {
                    continue;
                }
                let n = c.normalize();
                let d = n.dot(p[i]);
                let (lo, hi) = p
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), q| {
                        (lo.min(n.dot(*q) - d), hi.max(n.dot(*q) - d))
                    });
                for (n, d, front, back) in [(n, d, hi, lo), (-n, -d, -lo, -hi)] {
                    if front <= exact && back < -exact {
                        if !planes
                            .iter()
                            .any(|(m, e)| (*m - n).length() < 1e-6 && (e - d).abs() < exact)
                        {
                            planes.push((n, d));
                        }
                    } else if front <= band && back < -exact {
                        return None;
                    }
                }
            }
        }
    }
    Some(planes)
}

#[test]
fn small_clouds_match_brute_force_planes() {
    let mut rng = Rng::new(10);
    let (mut compared, mut ambiguous) = (0, 0);
    for trial in 0..5000 {
        let n = 4 + rng.below(9);
        let pts: Vec<Vec3> = match trial % 3 {
            0 => (0..n)
                .map(|_| rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0)))
                .collect(),
            1 => (0..n).map(|_| rng.unit_vec3()).collect(),
            _ => (0..n)
                .map(|_| {
                    Vec3::new(
                        rng.below(3) as f32,
                        rng.below(3) as f32,
                        rng.below(2) as f32,
                    )
                })
                .collect(),
        };
        let hull = ConvexHull::try_from_points(&pts);
        let Some(brute) = brute_force_planes(&pts) else {
            ambiguous += 1;
            continue;
        };
        let Ok(hull) = hull else {
            // No supporting triple at all means the points span no volume.
            assert!(
                brute.len() <= 2,
                "trial {trial}: {hull:?} but {} planes",
                brute.len()
            );
            continue;
        };
        check_hull(&pts, &hull);
        compared += 1;
        let diag = tolerance(&pts) / 1e-5;
        assert_eq!(hull.face_count(), brute.len(), "trial {trial}: {pts:?}");
        for plane in hull.planes() {
            let (n, d) = (plane.normal.as_dvec3(), plane.offset as f64);
            assert!(
                brute
                    .iter()
                    .any(|(m, e)| (*m - n).length() < 1e-5 && (e - d).abs() < 1e-5 * diag),
                "trial {trial}: hull plane {plane:?} is not a supporting plane"
            );
        }
        // Vertices: exactly the points on three or more supporting planes (a point on an
        // edge is on two, inside a face on one), each duplicate once.
        let mut expected: Vec<Vec3> = Vec::new();
        for p in &pts {
            let on = brute
                .iter()
                .filter(|(n, d)| (n.dot(p.as_dvec3()) - d).abs() <= 1e-9 * diag)
                .count();
            if on >= 3 && !expected.contains(p) {
                expected.push(*p);
            }
        }
        let mut got = hull.vertices().to_vec();
        let key = |v: &Vec3| (v.x.to_bits(), v.y.to_bits(), v.z.to_bits());
        expected.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got, expected, "trial {trial}: {pts:?}");
    }
    assert!(
        compared > 4000 && ambiguous < 500,
        "compared {compared}, ambiguous {ambiguous}"
    );
    println!("compared {compared}, skipped as ambiguous {ambiguous}");
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn coord() -> impl Strategy<Value = f32> {
        prop_oneof![
            (-3i32..=3).prop_map(|i| i as f32),
            -1.0f32..1.0,
            (-1.0f32..1.0, -3i32..4).prop_map(|(m, e)| m * 10f32.powi(e)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Any finite cloud of moderate magnitude gives a valid hull or a degeneracy error.
        #[test]
        fn hull_or_named_error(pts in prop::collection::vec((coord(), coord(), coord()), 0..40)) {
            let pts: Vec<Vec3> = pts.into_iter().map(|(x, y, z)| Vec3::new(x, y, z)).collect();
            match ConvexHull::try_from_points(&pts) {
                Ok(hull) => { check_hull(&pts, &hull); }
                Err(HullError::TooFewPoints(n)) => prop_assert!(n < 4 && n == pts.len()),
                Err(e) => prop_assert!(
                    matches!(e, HullError::AllDuplicate | HullError::Collinear | HullError::Coplanar),
                    "{e:?}"
                ),
            }
        }
    }
}

/// Rotating and moving a cloud keeps the same input points as hull vertices. (Face
/// counts may differ when two faces are within the tolerance band of merging, since the
/// tolerance depends on the coordinates' magnitude; so only the vertex set is compared.)
#[test]
fn rigid_motion_keeps_vertices() {
    let mut rng = Rng::new(11);
    for trial in 0..300 {
        let pts: Vec<Vec3> = (0..4 + rng.below(100))
            .map(|_| rng.unit_vec3() * rng.unit().sqrt())
            .collect();
        let (q, t) = (
            rng.rotation(),
            rng.vec3(Vec3::splat(-5.0), Vec3::splat(5.0)),
        );
        let moved: Vec<Vec3> = pts.iter().map(|p| q * *p + t).collect();
        let a = ConvexHull::try_from_points(&pts).unwrap();
        let b = ConvexHull::try_from_points(&moved).unwrap();
        check_hull(&moved, &b);
        let index_of = |set: &[Vec3], v: &Vec3| set.iter().position(|p| p == v).unwrap();
        let ia: Vec<usize> = a.vertices().iter().map(|v| index_of(&pts, v)).collect();
        let ib: Vec<usize> = b.vertices().iter().map(|v| index_of(&moved, v)).collect();
        assert_eq!(ia, ib, "trial {trial}");
    }
}

/// How far outside the hull of a lens's vertices (in its plane, `y` across it) a point
/// inside every face plane lies, at most, over points around the lens's centre `centre`
/// at `radius` plus `0.002` to `0.5` of it, at five heights from `y.0` to `y.1`: the
/// reach of the face half-spaces past the vertices (0 when none is found).
fn plane_ghost(lens: &ConvexHull, centre: Vec2, radius: f32, y: (f32, f32)) -> f32 {
    // The vertices in the lens's plane (x, z), and a point's distance from their convex
    // polygon: 0 inside (no two vertices' line has every vertex on its left and the
    // point on its right), else the distance to the nearest segment of two vertices.
    let polygon: Vec<Vec2> = lens
        .vertices()
        .iter()
        .map(|v| Vec2::new(v.x, v.z))
        .collect();
    let pairs = || {
        polygon
            .iter()
            .flat_map(|&a| polygon.iter().map(move |&b| (a, b)))
    };
    let outside = |q: Vec2| -> f32 {
        let separated = pairs().any(|(a, b)| {
            let e = b - a;
            e.perp_dot(q - a) < 0.0 && polygon.iter().all(|&p| e.perp_dot(p - a) >= -1e-6)
        });
        if !separated {
            return 0.0;
        }
        pairs()
            .map(|(a, b)| {
                let e = b - a;
                let t =
                    ((q - a).dot(e) / e.length_squared().max(f32::MIN_POSITIVE)).clamp(0.0, 1.0);
                (a + e * t - q).length()
            })
            .fold(f32::INFINITY, f32::min)
    };
    let mut ghost = 0.0f32;
    for k in 0..360 {
        let angle = k as f32 * std::f32::consts::TAU / 360.0;
        for beyond in [0.002f32, 0.01, 0.05, 0.2, 0.5] {
            let q = centre + Vec2::from_angle(angle) * radius * (1.0 + beyond);
            let gap = outside(q);
            for h in 0..5 {
                let p = Vec3::new(q.x, y.0 + (y.1 - y.0) * h as f32 / 4.0, q.y);
                if lens.planes().iter().all(|pl| pl.normal.dot(p) <= pl.offset) {
                    ghost = ghost.max(gap);
                }
            }
        }
    }
    ghost
}

/// A lens 8e-4 thin and 40 wide, about twice the merge tolerance (found by the
/// `capsule_mesh` fuzz target): merged at that tolerance, its top and bottom faces bend
/// and their planes, which meet at 1e-4 rad, crossed up to 9 beyond the rim, so the
/// intersection of the face half-spaces, which every query measures, held points 3 and
/// 9 away from the hull of the vertices (a capsule that far got a contact). Such a hull
/// is built with a smaller merge tolerance now, until every edge's face planes meet
/// near its ends: no point around the lens, across its thickness, more than 0.05
/// outside the vertices (in the lens's plane) is inside every plane.
#[test]
fn a_thin_lens_s_planes_meet_at_its_rim() {
    let lens = ConvexHull::try_from_points(&[
        Vec3::new(14.587227, 10.75, -13.640015),
        Vec3::new(-5.92991, 10.749203, 12.451572),
        Vec3::new(-10.63693, 10.74931, 0.0),
        Vec3::new(-10.0, 10.749675, 20.333334),
        Vec3::new(-8.5932665, 10.749436, 17.609182),
        Vec3::new(-10.0, 10.749675, -20.333334),
        Vec3::new(-13.587227, 10.75, -13.640015),
        Vec3::new(0.5, 10.74931, 21.566757),
        Vec3::new(-13.587227, 10.749563, 0.0),
    ])
    .expect("a lens this thin is still a hull");
    let ghost = plane_ghost(&lens, Vec2::new(-2.0, 0.0), 25.0, (10.7492, 10.75));
    assert!(
        ghost < 0.05,
        "points {ghost} outside the vertices are inside every plane"
    );
}

/// Random lenses 1 to 3 merge tolerances thin (`1e-5` of the diagonal), 2 to 60 wide,
/// of 6 to 30 points, away from the origin: the face planes reach at most `1e-3` of
/// the width past the vertices, plus what f32 planes cannot help on a rim this sharp
/// (`1e-7` of the distance from the origin over the rim's angle, thickness over width).
#[test]
fn random_thin_lenses_keep_their_planes_near_their_vertices() {
    let mut rng = Rng::new(0x1e45);
    let (mut worst, mut built) = (0.0f32, 0);
    for trial in 0..300 {
        let radius = rng.range(1.0, 30.0);
        let centre = rng.vec3(Vec3::splat(-40.0), Vec3::splat(40.0));
        let thickness = rng.range(1.0, 3.0) * 1e-5 * 2.0 * radius;
        let n = 6 + rng.below(25);
        let points: Vec<Vec3> = (0..n)
            .map(|_| {
                let along = Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU));
                let r = radius * rng.range(0.3, 1.0).sqrt();
                let y = rng.range(-0.5, 0.5) * thickness;
                centre + Vec3::new(along.x * r, y, along.y * r)
            })
            .collect();
        let Ok(lens) = ConvexHull::try_from_points(&points) else {
            continue; // Coplanar: thinner than the tolerance after all.
        };
        built += 1;
        let y = (centre.y - thickness, centre.y + thickness);
        let ghost = plane_ghost(&lens, Vec2::new(centre.x, centre.z), radius, y);
        let floor = 1e-7 * (centre.length() + radius) / (thickness / radius);
        worst = worst.max(ghost / (2.0 * radius));
        assert!(
            ghost <= 2e-3 * radius + floor,
            "trial {trial}: points {ghost} outside a lens {radius} in radius are inside every plane ({points:?})"
        );
    }
    println!("{built} lenses; worst plane reach past the vertices: {worst:.2e} of the width");
    assert!(built > 150, "only {built} lenses built");
}

/// The hull's least width, up to a small factor: the smallest extent of its vertices
/// along one of its face normals.
fn face_width(hull: &ConvexHull) -> f64 {
    hull.planes()
        .iter()
        .map(|plane| {
            let n = plane.normal.as_dvec3();
            let (lo, hi) = hull
                .vertices()
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(n.dot(v.as_dvec3())), hi.max(n.dot(v.as_dvec3())))
                });
            hi - lo
        })
        .fold(f64::INFINITY, f64::min)
}

/// Needles, planks and plates of aspect 10 to 10,000, 8 to 200 points, turned and moved
/// at random: every face's vertices lie within `1e-5 · min(diag, 8 · width)` of its plane
/// (plus the f32 rounding of the coordinates and of the plane), the merge tolerance of
/// the module docs with a factor 2 for the width estimate. A thin hull's faces are
/// flat to its thickness, not to its length: faces that bend by `1e-5` of a needle's
/// length turn their normals by 2.5 % of a radian across it at aspect 2,500, and then
/// the Gauss map the queries read from the planes does not match the vertices.
#[test]
fn thin_hulls_are_flat_to_their_thickness() {
    let mut rng = Rng::new(0x7a1c);
    let (mut built, mut worst) = (0, 0.0f64);
    for trial in 0..2_000 {
        let long = 10f32.powf(rng.range(-1.0, 1.5));
        let sizes = [
            long,
            long * 10f32.powf(rng.range(-4.0, 0.0)),
            long * 10f32.powf(rng.range(-4.0, -1.0)),
        ];
        let first = rng.below(3);
        let second = (first + 1 + rng.below(2)) % 3;
        let mut radii = Vec3::splat(sizes[2]);
        radii[first] = sizes[0];
        radii[second] = sizes[1];
        let (rotation, shift) = (
            rng.rotation(),
            rng.vec3(Vec3::splat(-50.0), Vec3::splat(50.0)),
        );
        let round = rng.below(2) == 0;
        let points: Vec<Vec3> = (0..8 + rng.below(193))
            .map(|_| {
                let p = if round {
                    rng.unit_vec3() * radii
                } else {
                    rng.vec3(-radii, radii)
                };
                rotation * p + shift
            })
            .collect();
        let hull = match ConvexHull::try_from_points(&points) {
            Ok(hull) => hull,
            Err(HullError::Collinear | HullError::Coplanar) => continue,
            Err(e) => panic!("trial {trial}: {e:?}"),
        };
        built += 1;
        check_hull(&points, &hull);
        let eps = tolerance(&points);
        let max_abs = points
            .iter()
            .fold(0.0f64, |m, p| m.max(p.abs().max_element() as f64));
        let rounding = 8.0 * f32::EPSILON as f64 * max_abs;
        let diag = (eps - 4.0 * f32::EPSILON as f64 * max_abs) / 1e-5;
        let width = face_width(&hull);
        let flat = 1e-5 * diag.min(8.0 * width) + rounding;
        for (f, plane) in hull.planes().iter().enumerate() {
            let n = plane.normal.as_dvec3();
            let off = hull
                .face(f)
                .iter()
                .map(|&v| {
                    (n.dot(hull.vertices()[v as usize].as_dvec3()) - plane.offset as f64).abs()
                })
                .fold(0.0, f64::max);
            worst = worst.max(off / flat);
            assert!(
                off <= flat,
                "trial {trial}: face {f} of {} bends {off:e} off its plane, width {width:e}, diag {diag:e}",
                hull.face_count()
            );
        }
    }
    println!("{built} thin hulls; worst face bend / allowed {worst:.3}");
    assert!(built > 1_500, "only {built} hulls built");
}
