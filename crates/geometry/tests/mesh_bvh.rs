//! Issue 10, part 2: the mesh BVH's region and ray queries against their brute-force
//! twins (`query_aabb_brute_force`, `cast_ray_brute_force`: every triangle tested), on
//! random soups, terrains, degenerate tree shapes and a 100,000-triangle mesh. The
//! answers must be equal, bit for bit.

use glam::{Vec2, Vec3};
use sepax_geometry::mesh::bvh::{MAX_DEPTH, MAX_LEAF, SAH_DEPTH};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Aabb, TriMesh};
use std::time::Instant;

/// `count` random triangles: centres in a cube of side `world`, sizes log-uniform
/// from 0.01 to 10, a few spanning the whole world, a few stacked on one centre.
fn soup(rng: &mut Rng, count: usize, world: f32) -> TriMesh {
    let mut vertices = Vec::with_capacity(3 * count);
    let stacked = rng.vec3(Vec3::splat(-world), Vec3::splat(world)) * 0.5;
    for k in 0..count {
        let centre = if k % 97 == 0 {
            stacked
        } else {
            rng.vec3(Vec3::splat(-world), Vec3::splat(world)) * 0.5
        };
        let size = if k % 211 == 0 {
            world
        } else {
            0.01 * 1000f32.powf(rng.unit())
        };
        for _ in 0..3 {
            vertices.push(centre + rng.unit_vec3() * size);
        }
    }
    let indices = (0..count as u32)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    TriMesh::try_new(vertices, indices).unwrap()
}

/// A `side × side` height grid with gentle random hills and unit cells (integer x and
/// z: rays along grid lines go through shared edges and corners).
fn terrain(rng: &mut Rng, side: usize) -> TriMesh {
    let (a, b) = (rng.range(0.05, 0.3), rng.range(0.05, 0.3));
    let heights: Vec<f32> = (0..side * side)
        .map(|k| {
            let (x, z) = ((k % side) as f32, (k / side) as f32);
            2.0 * (a * x).sin() * (b * z).cos() + if k % 7 == 0 { 0.0 } else { 0.1 * x.fract() }
        })
        .collect();
    TriMesh::try_from_heights(side, side, Vec2::ONE, &heights).unwrap()
}

fn random_region(rng: &mut Rng, mesh: &TriMesh) -> Aabb {
    let around = mesh.aabb();
    let pad = around.size().max_element() * 0.1 + 1.0;
    let centre = if rng.below(2) == 0 {
        // Near a vertex, so thin meshes (terrains) are hit too.
        let v = mesh.vertices()[rng.below(mesh.vertices().len())];
        v + rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0))
    } else {
        rng.vec3(around.min - pad, around.max + pad)
    };
    let half = Vec3::new(
        0.01 * 1000f32.powf(rng.unit()),
        0.01 * 1000f32.powf(rng.unit()),
        0.01 * 1000f32.powf(rng.unit()),
    ) * (around.size().max_element() / 200.0).max(0.01);
    match rng.below(10) {
        0 => Aabb::new(centre, centre),                     // a point
        1 => Aabb::new(around.min - 1.0, around.max + 1.0), // everything
        _ => Aabb::from_center_half_extents(centre, half),
    }
}

/// A ray (origin, dir, max_t) aimed near the mesh: random, axis-aligned (zero
/// direction components), along grid lines, short, long, with huge and tiny `dir`.
fn random_ray(rng: &mut Rng, around: Aabb) -> (Vec3, Vec3, f32) {
    let pad = around.size().max_element() * 0.2 + 1.0;
    let mut origin = rng.vec3(around.min - pad, around.max + pad);
    let target = rng.vec3(around.min, around.max);
    let mut dir = match rng.below(6) {
        0 => [Vec3::X, -Vec3::Y, Vec3::Z, -Vec3::X, Vec3::Y, -Vec3::Z][rng.below(6)],
        1 => {
            // Straight down through a grid line or corner.
            origin = Vec3::new(origin.x.round(), around.max.y + 1.0, origin.z.round());
            if rng.below(2) == 0 {
                origin.z += 0.5;
            }
            -Vec3::Y
        }
        2 => rng.unit_vec3(),
        _ => (target - origin).normalize_or(Vec3::X),
    };
    dir *= [1.0, 1e-6, 1e6, 0.3][rng.below(4)];
    let reach = (around.size().length() + 2.0 * pad) / dir.length();
    let max_t = match rng.below(4) {
        0 => f32::INFINITY,
        1 => reach * rng.unit() * 0.5,
        _ => reach,
    };
    (origin, dir, max_t)
}

/// The tree's invariants: every node's box is the exact union of its children's (of
/// its triangles' for a leaf); leaves hold at most `MAX_LEAF` triangles unless their
/// centres coincide; the left child follows its parent.
fn check_tree(mesh: &TriMesh) {
    let nodes = mesh.bvh().nodes();
    let order = mesh.bvh().triangle_order();
    for (i, node) in nodes.iter().enumerate() {
        match (node.leaf_range(), node.right_child()) {
            (Some(range), None) => {
                let boxes: Vec<Aabb> = order[range]
                    .iter()
                    .map(|&t| mesh.triangle_aabb(t))
                    .collect();
                let union = boxes.iter().skip(1).fold(boxes[0], |a, b| a.union(b));
                assert_eq!(node.aabb, union, "leaf {i}");
                let centre = boxes[0].center();
                assert!(boxes.len() <= MAX_LEAF || boxes.iter().all(|b| b.center() == centre));
            }
            (None, Some(right)) => {
                assert!(right > i + 1 && right < nodes.len());
                assert_eq!(
                    node.aabb,
                    nodes[i + 1].aabb.union(&nodes[right].aabb),
                    "node {i}"
                );
            }
            _ => panic!("node {i} is neither leaf nor inner"),
        }
    }
}

/// Runs `boxes` region queries and `rays` ray casts on `mesh`, each against its twin.
/// Returns how many of each found something.
fn compare(mesh: &TriMesh, rng: &mut Rng, boxes: usize, rays: usize) -> (usize, usize) {
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    check_tree(mesh);
    let mut found = (0, 0);
    for _ in 0..boxes {
        let region = random_region(rng, mesh);
        mesh.query_aabb(&region, &mut fast);
        mesh.query_aabb_brute_force(&region, &mut slow);
        assert_eq!(fast, slow, "region {region:?}");
        found.0 += !fast.is_empty() as usize;
    }
    for _ in 0..rays {
        let (o, d, max_t) = random_ray(rng, mesh.aabb());
        let hit = mesh.cast_ray(o, d, max_t);
        assert_eq!(
            hit,
            mesh.cast_ray_brute_force(o, d, max_t),
            "ray {o} {d} {max_t}"
        );
        if let Some(hit) = hit {
            assert!(hit.normal.dot(d) <= 0.0 && hit.t >= 0.0 && hit.t <= max_t);
            found.1 += 1;
        }
    }
    found
}

#[test]
fn queries_equal_brute_force_on_random_meshes() {
    let mut rng = Rng::new(2026);
    let mut total = (0, 0, 0);
    for round in 0..60 {
        let mesh = if round % 2 == 0 {
            let count = 1 + rng.below(3000);
            soup(&mut rng, count, [10.0, 100.0, 1e4][round % 3])
        } else {
            let side = 2 + rng.below(40);
            terrain(&mut rng, side)
        };
        let found = compare(&mesh, &mut rng, 200, 200);
        total = (total.0 + 400, total.1 + found.0, total.2 + found.1);
    }
    assert!(total.0 >= 20_000);
    // Most queries find something, so the comparison is not between empty answers.
    assert!(total.1 > 2_400 && total.2 > 3_000, "{total:?}");
}

#[test]
fn queries_equal_brute_force_on_100k_triangles() {
    let mut rng = Rng::new(100_000);
    for mesh in [soup(&mut rng, 100_000, 200.0), terrain(&mut rng, 225)] {
        assert!(mesh.triangle_count() >= 100_000);
        let found = compare(&mesh, &mut rng, 500, 500);
        assert!(found.0 > 150 && found.1 > 150, "{found:?}");
    }
}

#[test]
fn exponential_spacing_stays_within_the_depth_bound() {
    // Unit triangles standing at x = 16^k · 2^-124, k = 0..46 (2^-124 to 2^56): on
    // the binned sweep every centre but the last falls in the first of the 12 bins, so
    // each SAH plane cuts off one triangle, and without the median fallback the tree
    // would be 45 deep.
    let mut vertices = Vec::new();
    for k in 0..46 {
        let x = 2f32.powi(4 * k - 124);
        vertices.extend([
            Vec3::new(x, 0.0, 0.0),
            Vec3::new(x, 1.0, 0.0),
            Vec3::new(x, 0.0, 1.0),
        ]);
    }
    let indices = (0..46u32).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
    let mesh = TriMesh::try_new(vertices, indices).unwrap();
    let depth = mesh.bvh().depth();
    assert!(depth > SAH_DEPTH && depth <= MAX_DEPTH, "depth {depth}");
    compare(&mesh, &mut Rng::new(3), 2000, 2000);

    // Many copies of one triangle: no plane separates them; halved by position.
    let v = vec![Vec3::ZERO, Vec3::Z, Vec3::X];
    let mesh = TriMesh::try_new(v, vec![[0, 1, 2]; 1000]).unwrap();
    assert!(mesh.bvh().depth() <= 10);
    let mut out = Vec::new();
    let point = Vec3::new(0.5, 0.0, 0.5);
    mesh.query_aabb(&Aabb::new(point, point), &mut out);
    assert!(out.iter().copied().eq(0..1000));
    assert_eq!(
        mesh.cast_ray(Vec3::new(0.2, 1.0, 0.2), -Vec3::Y, 2.0)
            .unwrap()
            .triangle,
        0
    );
}

#[test]
fn bad_queries_find_nothing() {
    let mesh = terrain(&mut Rng::new(1), 10);
    let mut out = vec![7, 7];
    mesh.query_aabb(&Aabb::new(Vec3::NAN, Vec3::splat(100.0)), &mut out);
    assert!(out.is_empty());
    let o = Vec3::new(3.3, 10.0, 3.3);
    assert!(mesh.cast_ray(o, -Vec3::Y, 100.0).is_some());
    assert_eq!(mesh.cast_ray(o, Vec3::ZERO, 100.0), None);
    assert_eq!(mesh.cast_ray(o, -Vec3::Y * 1e-45, 100.0), None);
    assert_eq!(mesh.cast_ray(o, -Vec3::Y, f32::NAN), None);
    assert_eq!(mesh.cast_ray(o, -Vec3::Y, -1.0), None);
    assert_eq!(mesh.cast_ray(Vec3::NAN, -Vec3::Y, 1.0), None);
    // From below: the back of the terrain, the normal turned to face the ray.
    let up = mesh
        .cast_ray(Vec3::new(3.3, -10.0, 3.3), Vec3::Y, 100.0)
        .unwrap();
    let down = mesh.cast_ray(o, -Vec3::Y, 100.0).unwrap();
    assert_eq!(up.triangle, down.triangle);
    assert_eq!(up.normal, -down.normal);
    assert!(down.normal.y > 0.0);
}

/// Build time of 100,000 triangles (a terrain of 225 × 225 samples, 100,352 triangles, and a
/// 100,000-triangle soup). Run in release:
/// `cargo test --release -p sepax-geometry --test mesh_bvh -- --ignored --nocapture build_time`
#[test]
#[ignore = "a measurement, run by hand in release"]
fn build_time_of_100k_triangles() {
    let mut rng = Rng::new(7);
    let side = 225;
    let heights: Vec<f32> = (0..side * side).map(|_| rng.range(0.0, 1.0)).collect();
    let soup_vertices: Vec<Vec3> = (0..300_000)
        .map(|k| {
            let centre = Vec3::new((k / 3 % 1000) as f32, 0.0, (k / 3000) as f32);
            centre + rng.unit_vec3()
        })
        .collect();
    let soup_indices: Vec<[u32; 3]> = (0..100_000u32)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    for run in 0..3 {
        let start = Instant::now();
        let grid = TriMesh::try_from_heights(side, side, Vec2::ONE, &heights).unwrap();
        let grid_time = start.elapsed();
        let start = Instant::now();
        let soup = TriMesh::try_new(soup_vertices.clone(), soup_indices.clone()).unwrap();
        let soup_time = start.elapsed();
        println!(
            "run {run}: terrain {} triangles in {grid_time:?} (depth {}), soup {} triangles in {soup_time:?} (depth {})",
            grid.triangle_count(),
            grid.bvh().depth(),
            soup.triangle_count(),
            soup.bvh().depth()
        );
    }
}

/// Queries for instruction counts: 100,000 region queries (boxes of about a 1 m body on
/// the surface) and 100,000 downward rays on the 100,352-triangle terrain. Run in
/// release under callgrind and read the inclusive counts of `TriMesh::query_aabb` and
/// `TriMesh::cast_ray`:
/// `valgrind --tool=callgrind --callgrind-out-file=/tmp/q.out <mesh_bvh binary> --ignored --exact query_workload`
#[test]
#[ignore = "a workload for callgrind, run by hand in release"]
fn query_workload() {
    let mut rng = Rng::new(8);
    let side = 225;
    let heights: Vec<f32> = (0..side * side)
        .map(|k| 2.0 * ((k % side) as f32 * 0.1).sin() * ((k / side) as f32 * 0.07).cos())
        .collect();
    let mesh = TriMesh::try_from_heights(side, side, Vec2::ONE, &heights).unwrap();
    let mut out = Vec::with_capacity(64);
    let (mut found, mut hits) = (0usize, 0usize);
    for _ in 0..100_000 {
        let (x, z) = (rng.range(0.0, 224.0), rng.range(0.0, 224.0));
        let y = 2.0 * (x * 0.1).sin() * (z * 0.07).cos();
        let centre = Vec3::new(x, y + 0.4, z);
        mesh.query_aabb(
            &Aabb::from_center_half_extents(centre, Vec3::splat(0.5)),
            &mut out,
        );
        found += out.len();
        let ray = mesh.cast_ray(Vec3::new(x, 10.0, z), -Vec3::Y, 100.0);
        hits += ray.is_some() as usize;
    }
    println!("{found} triangles found, {hits} rays hit");
}
