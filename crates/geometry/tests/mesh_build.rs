//! Issue 10, part 2: building a `TriMesh` from user data. Every bad input is a named
//! `MeshError` or a documented removal, never a panic; a built mesh's data (normals,
//! box, radius, BVH) holds together.

use glam::{Vec2, Vec3};
use proptest::prelude::*;
use sepax_geometry::{Aabb, MeshError, MeshTriangle, TriMesh};

fn quad() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let v = vec![
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 1.0),
    ];
    (v, vec![[0, 1, 2], [2, 1, 3]])
}

#[test]
fn named_errors_for_bad_input() {
    let (v, i) = quad();
    assert_eq!(
        TriMesh::try_new(vec![], i.clone()).err(),
        Some(MeshError::Empty)
    );
    assert_eq!(
        TriMesh::try_new(v.clone(), vec![]).err(),
        Some(MeshError::Empty)
    );

    let mut nan = v.clone();
    nan[2].y = f32::NAN;
    assert_eq!(
        TriMesh::try_new(nan, i.clone()).err(),
        Some(MeshError::NonFiniteVertex(2))
    );
    let mut inf = v.clone();
    inf[3].x = f32::NEG_INFINITY;
    assert_eq!(
        TriMesh::try_new(inf, i.clone()).err(),
        Some(MeshError::NonFiniteVertex(3))
    );
    let mut huge = v.clone();
    huge[1].z = 2e18;
    assert_eq!(
        TriMesh::try_new(huge, i.clone()).err(),
        Some(MeshError::TooLarge(1))
    );
    // A vertex no triangle uses is still checked: the input is refused as a whole.
    let mut unused = v.clone();
    unused.push(Vec3::splat(f32::NAN));
    assert_eq!(
        TriMesh::try_new(unused, i.clone()).err(),
        Some(MeshError::NonFiniteVertex(4))
    );

    assert_eq!(
        TriMesh::try_new(v.clone(), vec![[0, 1, 2], [2, 1, 4]]).err(),
        Some(MeshError::IndexOutOfRange {
            triangle: 1,
            index: 4
        })
    );
    assert_eq!(
        TriMesh::try_new(v.clone(), vec![[u32::MAX, 1, 2]]).err(),
        Some(MeshError::IndexOutOfRange {
            triangle: 0,
            index: u32::MAX
        })
    );
    assert_eq!(
        TriMesh::try_new(v.clone(), vec![[0, 0, 1], [1, 2, 1]]).err(),
        Some(MeshError::AllDegenerate)
    );
    for e in [
        MeshError::Empty,
        MeshError::TooLarge(1),
        MeshError::IndexOutOfRange {
            triangle: 1,
            index: 9,
        },
    ] {
        assert!(!e.to_string().is_empty());
        let _: &dyn std::error::Error = &e;
    }
}

#[test]
fn largest_coordinates_still_build() {
    // At MAX_COORDINATE every product of two lengths is still finite.
    let m = TriMesh::MAX_COORDINATE;
    let v = vec![
        Vec3::new(-m, -m, -m),
        Vec3::new(m, -m, m),
        Vec3::new(m, m, -m),
    ];
    let mesh = TriMesh::try_new(v, vec![[0, 1, 2]]).unwrap();
    let n = mesh.triangle(0).normal;
    assert!(n.is_finite() && (n.length() - 1.0).abs() < 1e-6);
    assert!(mesh.bounding_radius().is_finite() && mesh.aabb().surface_area().is_finite());
    let hit = mesh.cast_ray(
        Vec3::new(m, -m, -m) * 2.0,
        Vec3::new(-1.0, 0.3, 0.4),
        f32::INFINITY,
    );
    if let Some(hit) = hit {
        assert!(hit.t.is_finite() && hit.normal.is_finite());
    }
}

#[test]
fn degenerate_triangles_are_removed_and_listed() {
    let (mut v, _) = quad();
    v.push(Vec3::new(2.0, 0.0, 0.0)); // 4: on the line through 0 and 2
    v.push(Vec3::new(0.0, 0.0, 1.0)); // 5: same position as 1, another index
    v.push(Vec3::new(0.5, 1e-9, 0.0)); // 6: a hair off the line 0–2
    let indices = vec![
        [0, 1, 2], // kept 0
        [0, 0, 3], // repeated index
        [2, 1, 3], // kept 1
        [0, 2, 4], // collinear
        [0, 1, 5], // two corners at one position
        [0, 6, 2], // height 1e-9 on a side of 1: below the relative tolerance
        [3, 1, 0], // kept 2 (overlaps the quad, facing down)
    ];
    let mesh = TriMesh::try_new(v, indices).unwrap();
    assert_eq!(mesh.triangle_count(), 3);
    assert_eq!(mesh.removed_triangles(), &[1, 3, 4, 5]);
    assert_eq!(mesh.indices(), &[[0, 1, 2], [2, 1, 3], [3, 1, 0]]);
    assert_eq!(
        (0..3).map(|i| mesh.input_index(i)).collect::<Vec<_>>(),
        vec![0, 2, 6]
    );
    assert_eq!(mesh.triangle(2).normal, -Vec3::Y);

    // Tiny but well-shaped triangles stay (the tolerance is relative)...
    let s = 1e-8;
    let tiny = TriMesh::try_new(
        vec![Vec3::ZERO, Vec3::new(0.0, 0.0, s), Vec3::new(s, 0.0, 0.0)],
        vec![[0, 1, 2]],
    )
    .unwrap();
    assert_eq!(tiny.triangle(0).normal, Vec3::Y);
    // ...until twice their area squared underflows f32.
    let s = 1e-25;
    assert_eq!(
        TriMesh::try_new(
            vec![Vec3::ZERO, Vec3::new(0.0, 0.0, s), Vec3::new(s, 0.0, 0.0)],
            vec![[0, 1, 2]],
        )
        .err(),
        Some(MeshError::AllDegenerate)
    );
}

#[test]
fn heights_make_an_upward_grid() {
    let heights: Vec<f32> = (0..20).map(|k| (k % 3) as f32 * 0.25).collect();
    let mesh = TriMesh::try_from_heights(5, 4, Vec2::new(1.0, 2.0), &heights).unwrap();
    assert_eq!(mesh.triangle_count(), 4 * 3 * 2);
    assert!(mesh.normals().iter().all(|n| n.y > 0.5));
    assert_eq!(
        mesh.aabb(),
        Aabb::new(Vec3::new(0.0, 0.0, 0.0), Vec3::new(4.0, 0.5, 6.0))
    );
    assert_eq!(mesh.vertices()[7], Vec3::new(2.0, heights[7], 2.0));

    for bad in [
        TriMesh::try_from_heights(1, 4, Vec2::ONE, &[0.0; 4]),
        TriMesh::try_from_heights(3, 3, Vec2::ONE, &[0.0; 8]),
        TriMesh::try_from_heights(3, 3, Vec2::new(0.0, 1.0), &[0.0; 9]),
        TriMesh::try_from_heights(3, 3, Vec2::new(1.0, f32::NAN), &[0.0; 9]),
        TriMesh::try_from_heights(usize::MAX, 2, Vec2::ONE, &[0.0; 4]),
    ] {
        assert_eq!(bad.err(), Some(MeshError::InvalidGrid));
    }
    let mut nan = [0.0; 9];
    nan[4] = f32::NAN;
    assert_eq!(
        TriMesh::try_from_heights(3, 3, Vec2::ONE, &nan).err(),
        Some(MeshError::NonFiniteVertex(4))
    );
}

/// What a built mesh must satisfy, whatever the input.
fn check_mesh(mesh: &TriMesh, input_count: usize) {
    assert_eq!(
        mesh.triangle_count() + mesh.removed_triangles().len(),
        input_count
    );
    assert!(mesh.triangle_count() > 0);
    assert!(mesh.removed_triangles().windows(2).all(|w| w[0] < w[1]));
    let aabb = mesh.aabb();
    assert!(aabb.is_valid());
    for t in 0..mesh.triangle_count() as u32 {
        let tri = mesh.triangle(t);
        assert!(tri.normal.is_finite());
        assert!((tri.normal.length() - 1.0).abs() < 1e-5, "{:?}", tri.normal);
        // The same normal bits as a lone triangle with these corners.
        assert_eq!(
            MeshTriangle::lone(tri.vertices).map(|l| l.normal),
            Some(tri.normal)
        );
        for v in tri.vertices {
            assert!(aabb.contains_point(v));
            assert!(v.length() <= mesh.bounding_radius() * (1.0 + 1e-6));
        }
    }
    // The BVH holds every triangle exactly once.
    let mut order = mesh.bvh().triangle_order().to_vec();
    order.sort_unstable();
    assert!(order.iter().copied().eq(0..mesh.triangle_count() as u32));
    assert!(mesh.bvh().depth() <= sepax_geometry::mesh::bvh::MAX_DEPTH);
}

/// Coordinates from every corner of f32: ordinary, tiny, huge, beyond the limit, NaN,
/// infinite.
fn wild_coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => -10.0f32..10.0,
        1 => -1e-30f32..1e-30,
        1 => -1e18f32..1e18,
        1 => prop::sample::select(vec![
            f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX, -f32::MAX,
            1e18, -1e18, 1.0000001e18, f32::MIN_POSITIVE, 0.0, -0.0,
        ]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Never a panic: a mesh that checks out, or a named error that matches the input.
    #[test]
    fn any_input_gives_a_mesh_or_a_named_error(
        points in prop::collection::vec((wild_coord(), wild_coord(), wild_coord()), 0..12),
        indices in prop::collection::vec([0u32..14, 0u32..14, 0u32..14], 0..16),
        snap in any::<bool>(),
    ) {
        // Snapping coordinates to a coarse grid makes repeated positions and flat
        // neighbours common.
        let vertices: Vec<Vec3> = points
            .into_iter()
            .map(|(x, y, z)| {
                let v = Vec3::new(x, y, z);
                if snap { v.round() } else { v }
            })
            .collect();
        let n = indices.len();
        match TriMesh::try_new(vertices.clone(), indices.clone()) {
            Ok(mesh) => {
                check_mesh(&mesh, n);
                let mut out = Vec::new();
                mesh.query_aabb(&mesh.aabb(), &mut out);
                prop_assert_eq!(out.len(), mesh.triangle_count());
                let c = mesh.aabb().center();
                let _ = mesh.cast_ray(c + Vec3::Y * 5.0, -Vec3::Y, f32::INFINITY);
            }
            Err(MeshError::Empty) => prop_assert!(vertices.is_empty() || n == 0),
            Err(MeshError::NonFiniteVertex(i)) => prop_assert!(!vertices[i].is_finite()),
            Err(MeshError::TooLarge(i)) => {
                prop_assert!(vertices[i].abs().max_element() > TriMesh::MAX_COORDINATE)
            }
            Err(MeshError::IndexOutOfRange { triangle, index }) => {
                prop_assert!(indices[triangle].contains(&index));
                prop_assert!(index as usize >= vertices.len());
            }
            Err(MeshError::AllDegenerate) => {}
            Err(e) => prop_assert!(false, "unexpected {:?}", e),
        }
    }

    /// Random heights, including NaN and huge ones: a grid mesh or a named error.
    #[test]
    fn any_height_grid_gives_a_mesh_or_a_named_error(
        columns in 0usize..6,
        rows in 0usize..6,
        cell in (wild_coord(), wild_coord()),
        heights in prop::collection::vec(wild_coord(), 0..40),
    ) {
        match TriMesh::try_from_heights(columns, rows, Vec2::new(cell.0, cell.1), &heights) {
            Ok(mesh) => check_mesh(&mesh, 2 * (columns - 1) * (rows - 1)),
            Err(
                MeshError::InvalidGrid
                | MeshError::NonFiniteVertex(_)
                | MeshError::TooLarge(_)
                | MeshError::AllDegenerate,
            ) => {}
            Err(e) => prop_assert!(false, "unexpected {:?}", e),
        }
    }
}
