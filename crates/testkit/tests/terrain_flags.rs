//! Issue 10: `TriMesh`'s adjacency flags against this crate's brute-force twin
//! (`terrain::triangles_with_flags`, written from the rules on `MeshTriangle`) on the
//! shared test meshes: the flat floor and the rolling terrain the sliding tests use.
//! Every triangle must be equal, corners, normal bits and flags.

use sepax_geometry::TriMesh;
use sepax_testkit::terrain::{MeshData, flat_floor, rolling_terrain, triangles_with_flags};

fn check(mesh: &MeshData) {
    let built = TriMesh::try_new(mesh.vertices.clone(), mesh.indices.clone()).unwrap();
    let twin = triangles_with_flags(mesh);
    assert_eq!(built.triangle_count(), twin.len());
    assert!(built.removed_triangles().is_empty());
    for (t, expected) in twin.iter().enumerate() {
        assert_eq!(built.triangle(t as u32), *expected, "triangle {t}");
    }
}

#[test]
fn flags_equal_the_testkit_twin_on_floors_and_terrains() {
    check(&flat_floor(32, 1.0));
    check(&flat_floor(7, 0.3));
    check(&rolling_terrain(16, 0.5, 0.3, 1.0));
    check(&rolling_terrain(40, 0.25, 0.5, 2.0));
    // Gentle enough that every inner bend is below the flat angle, then steeper.
    check(&rolling_terrain(24, 0.1, 0.05, 4.0));
    check(&rolling_terrain(24, 1.0, 3.0, 1.5));
}
