//! Issue 10, part 3 (adjacency): the active-edge and active-corner flags of
//! `TriMesh::triangle`, against a brute-force twin that pairs edges by scanning every
//! triangle (O(n²)) and classifies bends by its own formula (angle by `acos`, convexity
//! by `(nA × nB) · (q − p)`), on random meshes with flat, convex, concave, boundary,
//! non-manifold and inconsistently wound edges.

use glam::{DVec3, Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{MeshTriangle, TriMesh};

/// What the twin saw at one edge (for coverage counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum EdgeKind {
    Boundary,
    NonManifold,
    Inconsistent,
    Flat,
    Convex,
    Concave,
}

fn unit_normal(mesh: &TriMesh, tri: [u32; 3]) -> DVec3 {
    let [a, b, c] = tri.map(|i| mesh.vertices()[i as usize].as_dvec3());
    (b - a).cross(c - a).normalize()
}

/// The twin: the kind of edge `e` of triangle `t`.
fn edge_kind(mesh: &TriMesh, t: usize, e: usize) -> EdgeKind {
    let tris = mesh.indices();
    let tri = tris[t];
    let (p, q) = (tri[e], tri[(e + 1) % 3]);
    let others: Vec<usize> = (0..tris.len())
        .filter(|&u| u != t && tris[u].contains(&p) && tris[u].contains(&q))
        .collect();
    match others[..] {
        [] => EdgeKind::Boundary,
        [u] => {
            let other = tris[u];
            if (0..3).any(|k| other[k] == p && other[(k + 1) % 3] == q) {
                return EdgeKind::Inconsistent;
            }
            let (na, nb) = (unit_normal(mesh, tri), unit_normal(mesh, other));
            let angle = na.dot(nb).clamp(-1.0, 1.0).acos();
            if angle < MeshTriangle::FLAT_ANGLE as f64 {
                return EdgeKind::Flat;
            }
            let along =
                mesh.vertices()[q as usize].as_dvec3() - mesh.vertices()[p as usize].as_dvec3();
            if na.cross(nb).dot(along) > 0.0 {
                EdgeKind::Convex
            } else {
                EdgeKind::Concave
            }
        }
        _ => EdgeKind::NonManifold,
    }
}

/// Compares every flag of `mesh` with the twin; counts the kinds seen in `seen`.
fn check_flags(mesh: &TriMesh, seen: &mut std::collections::HashMap<EdgeKind, usize>) {
    let n = mesh.triangle_count();
    let mut active_vertex = vec![false; mesh.vertices().len()];
    let mut expected_edges = vec![[false; 3]; n];
    for (t, expected) in expected_edges.iter_mut().enumerate() {
        for (e, edge_active) in expected.iter_mut().enumerate() {
            let kind = edge_kind(mesh, t, e);
            *seen.entry(kind).or_default() += 1;
            let active = !matches!(kind, EdgeKind::Flat | EdgeKind::Concave);
            *edge_active = active;
            if active {
                let tri = mesh.indices()[t];
                active_vertex[tri[e] as usize] = true;
                active_vertex[tri[(e + 1) % 3] as usize] = true;
            }
        }
    }
    for (t, expected_edges) in expected_edges.iter().enumerate() {
        let tri = mesh.triangle(t as u32);
        assert_eq!(tri.active_edges, *expected_edges, "edges of triangle {t}");
        let expected = mesh.indices()[t].map(|v| active_vertex[v as usize]);
        assert_eq!(tri.active_vertices, expected, "corners of triangle {t}");
        // The flags' triangle is the mesh's triangle.
        assert_eq!(
            tri.vertices,
            mesh.indices()[t].map(|v| mesh.vertices()[v as usize])
        );
        assert_eq!(tri.normal, mesh.normals()[t]);
    }
}

/// A random grid terrain: integer heights (flat patches, ridges, valleys, steps), each
/// cell split along a random diagonal, some cells left out (holes: boundary edges),
/// some triangles flipped (inconsistent winding), some duplicated or fanned out on an
/// edge (non-manifold), some degenerate (removed), heights jittered by `noise`, the
/// whole rotated.
fn random_terrain(rng: &mut Rng, size: usize, noise: f32) -> TriMesh {
    let heights: Vec<f32> = (0..size * size)
        .map(|_| [0.0, 0.0, 0.0, 1.0, 2.0][rng.below(5)] + rng.range(-noise, noise))
        .collect();
    let rotation = if rng.below(2) == 0 {
        Quat::IDENTITY
    } else {
        rng.rotation()
    };
    let mut vertices: Vec<Vec3> = (0..size * size)
        .map(|k| rotation * Vec3::new((k % size) as f32, heights[k], (k / size) as f32))
        .collect();
    let at = |i: usize, j: usize| (j * size + i) as u32;
    let mut indices = Vec::new();
    for j in 0..size - 1 {
        for i in 0..size - 1 {
            if rng.below(20) == 0 {
                continue; // a hole
            }
            let (a, b, c, d) = (at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
            let pair = if rng.below(2) == 0 {
                [[a, b, c], [c, b, d]]
            } else {
                [[a, b, d], [a, d, c]]
            };
            for mut tri in pair {
                if rng.below(40) == 0 {
                    tri.swap(1, 2); // flipped
                }
                indices.push(tri);
                match rng.below(60) {
                    0 => indices.push(tri), // duplicated
                    1 => {
                        // A fin on the first edge: three triangles on one edge.
                        let top = rotation * Vec3::new(i as f32 + 0.5, 5.0, j as f32 + 0.5);
                        vertices.push(top);
                        indices.push([tri[1], tri[0], vertices.len() as u32 - 1]);
                    }
                    2 => indices.push([tri[0], tri[1], tri[1]]), // degenerate
                    _ => {}
                }
            }
        }
    }
    TriMesh::try_new(vertices, indices).unwrap()
}

#[test]
fn flags_match_the_brute_force_twin_on_random_terrains() {
    let mut rng = Rng::new(10);
    let mut seen = std::collections::HashMap::new();
    for round in 0..300 {
        let noise = [0.0, 1e-4, 0.02][round % 3];
        let size = 3 + rng.below(10);
        let mesh = random_terrain(&mut rng, size, noise);
        check_flags(&mesh, &mut seen);
    }
    for kind in [
        EdgeKind::Boundary,
        EdgeKind::NonManifold,
        EdgeKind::Inconsistent,
        EdgeKind::Flat,
        EdgeKind::Convex,
        EdgeKind::Concave,
    ] {
        assert!(
            seen.get(&kind).copied().unwrap_or(0) > 100,
            "{kind:?}: {seen:?}"
        );
    }
}

/// The eight corners of the unit cube and its twelve triangles, facing out.
fn cube() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let v = (0..8)
        .map(|k| Vec3::new((k & 1) as f32, ((k >> 1) & 1) as f32, ((k >> 2) & 1) as f32))
        .collect();
    let quads = [
        [0, 2, 3, 1], // z = 0, facing -z
        [4, 5, 7, 6], // z = 1
        [0, 1, 5, 4], // y = 0
        [2, 6, 7, 3], // y = 1
        [0, 4, 6, 2], // x = 0
        [1, 3, 7, 5], // x = 1
    ];
    let tris = quads
        .iter()
        .flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]])
        .collect();
    (v, tris)
}

#[test]
fn a_cube_has_convex_edges_and_flat_diagonals_and_inside_out_all_inactive() {
    let (v, tris) = cube();
    let mesh = TriMesh::try_new(v.clone(), tris.clone()).unwrap();
    for t in 0..12 {
        let tri = mesh.triangle(t);
        let centre = (tri.vertices[0] + tri.vertices[1] + tri.vertices[2]) / 3.0;
        assert!(tri.normal.dot(centre - Vec3::splat(0.5)) > 0.0, "faces out");
        // Each triangle: two cube edges (active) and the diagonal (flat, inactive).
        assert_eq!(tri.active_edges.iter().filter(|&&a| a).count(), 2);
        assert_eq!(tri.active_vertices, [true; 3]);
    }
    // Turned inside out (a room seen from inside): every edge concave or flat.
    let inside: Vec<[u32; 3]> = tris.iter().map(|&[a, b, c]| [a, c, b]).collect();
    let room = TriMesh::try_new(v, inside).unwrap();
    for t in 0..12 {
        assert_eq!(room.triangle(t).active_edges, [false; 3]);
        assert_eq!(room.triangle(t).active_vertices, [false; 3]);
    }
}

#[test]
fn bends_just_below_and_above_the_flat_angle() {
    // Two triangles on the x axis, the second tilted by `angle` about it.
    for (angle, active) in [(0.4f32, false), (0.6, true), (-0.6, false), (-0.4, false)] {
        let a = angle.to_radians();
        let v = vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.5, 0.0, -1.0),
            Vec3::new(0.5, -a.sin(), a.cos()),
        ];
        // Both face +y: [0, 1, 2] (z < 0 side) and [1, 0, 3] (z > 0 side, tilted down
        // for a positive angle: convex). The shared edge is edge 0 of both.
        let mesh = TriMesh::try_new(v, vec![[0, 1, 2], [1, 0, 3]]).unwrap();
        assert!(mesh.normals()[0].y > 0.99 && mesh.normals()[1].y > 0.99);
        assert_eq!(
            mesh.triangle(0).active_edges,
            [active, true, true],
            "{angle}°"
        );
        assert_eq!(
            mesh.triangle(1).active_edges,
            [active, true, true],
            "{angle}°"
        );
    }
}

#[test]
fn duplicated_vertices_are_not_welded() {
    // The flat quad of two triangles, once with a shared edge and once with the edge's
    // vertices duplicated: the second sees two boundary edges there.
    let v = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 1.0),
        Vec3::new(0.0, 0.0, 1.0), // 4 = 1
        Vec3::new(1.0, 0.0, 0.0), // 5 = 2
    ];
    let shared = TriMesh::try_new(v.clone(), vec![[0, 1, 2], [2, 1, 3]]).unwrap();
    assert_eq!(shared.triangle(0).active_edges, [true, false, true]);
    let split = TriMesh::try_new(v, vec![[0, 1, 2], [5, 4, 3]]).unwrap();
    assert_eq!(split.triangle(0).active_edges, [true; 3]);
}

#[test]
fn welding_split_vertices_gives_back_the_shared_mesh() {
    let mut rng = Rng::new(11);
    for round in 0..50 {
        let mesh = random_terrain(&mut rng, 3 + round % 9, 0.0);
        // Every triangle with its own three vertices.
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        for tri in mesh.indices() {
            let base = vertices.len() as u32;
            vertices.extend(tri.map(|v| mesh.vertices()[v as usize]));
            indices.push([base, base + 1, base + 2]);
        }
        let split = TriMesh::try_new(vertices.clone(), indices.clone()).unwrap();
        assert!(
            (0..split.triangle_count() as u32).all(|t| split.triangle(t).active_edges == [true; 3])
        );
        // Welding does not depend on how the vertices were split. (The terrain itself
        // may have two fin tops at one position, which welding joins.)
        let welded = TriMesh::try_new_welded(vertices, indices).unwrap();
        let shared =
            TriMesh::try_new_welded(mesh.vertices().to_vec(), mesh.indices().to_vec()).unwrap();
        assert_eq!(welded.triangle_count(), mesh.triangle_count());
        for t in 0..mesh.triangle_count() as u32 {
            assert_eq!(welded.triangle(t), shared.triangle(t), "triangle {t}");
        }
    }
    // −0.0 and +0.0 are one position; out-of-range indices are still reported.
    let v = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::X,
        Vec3::Z,
        Vec3::new(-0.0, 0.0, -0.0),
    ];
    let welded = TriMesh::try_new_welded(v.clone(), vec![[3, 2, 1]]).unwrap();
    assert_eq!(welded.indices(), &[[0, 2, 1]]);
    assert_eq!(
        TriMesh::try_new_welded(v, vec![[3, 2, 9]]).err(),
        Some(sepax_geometry::MeshError::IndexOutOfRange {
            triangle: 0,
            index: 9
        })
    );
}
