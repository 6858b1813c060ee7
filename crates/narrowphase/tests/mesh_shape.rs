//! A mesh as a `Shape`: `collide`, `contact`, `intersects` and `ray_shape` with a
//! `Shape::TriMesh` against the slow twins that skip the BVH.
//!
//! * The BVH cull is the documented one: `collide(mesh, convex)` equals
//!   `collide_mesh_triangles` fed every triangle whose box overlaps the convex's box
//!   (in the mesh frame, grown by the margin) found by a plain scan of all triangles,
//!   bit for bit, on random boxes, spheres, capsules and hulls around a rolling terrain
//!   at a random mesh pose. (Not *every* triangle of the mesh: the active-edge cones
//!   look for a touched edge's neighbours among the triangles passed, and on deep
//!   overlaps a neighbour outside the box can change the clamp.)
//! * Both orders agree: `collide(convex, mesh)` is the mirror image, bit for bit.
//! * `contact` is `contact_mesh_triangles` on the same triangles, bit for bit: the
//!   manifold's normal and the deepest point before its reduction (no shallower than the
//!   manifold's deepest); `intersects` is `contact` at margin 0.
//! * Meshes never collide with meshes; a ray hits the mesh where the brute-force scan
//!   of its triangles says.

use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Aabb, Pose, Shape, TriMesh};
use sepax_narrowphase::mesh::{MeshScratch, collide_mesh_triangles, contact_mesh_triangles};
use sepax_narrowphase::ray::ray_shape;
use sepax_narrowphase::{PairCache, collide, contact, intersects};
use sepax_testkit::scenes::scene_hull;
use sepax_testkit::shapes::{random_capsule, random_cuboid};
use sepax_testkit::terrain::rolling_terrain;
use std::sync::Arc;

fn terrain() -> Arc<TriMesh> {
    let data = rolling_terrain(16, 1.0, 0.6, 2.5);
    Arc::new(TriMesh::try_new(data.vertices, data.indices).unwrap())
}

fn random_shape(rng: &mut Rng, k: usize) -> Shape {
    match k % 4 {
        0 => random_cuboid(rng),
        1 => Shape::from(sepax_geometry::Sphere::try_new(rng.range(0.1, 1.0)).unwrap()),
        2 => random_capsule(rng),
        _ => Shape::from(scene_hull(rng)),
    }
}

/// A pose near the surface of the terrain (mesh frame), turned to the mesh's pose.
fn near_surface(rng: &mut Rng, mesh_pose: &Pose) -> Pose {
    let local = Vec3::new(
        rng.range(-9.0, 9.0),
        rng.range(-1.5, 1.5),
        rng.range(-9.0, 9.0),
    );
    Pose::new(
        mesh_pose.transform_point(local),
        (mesh_pose.rotation * rng.rotation()).normalize(),
    )
}

/// The shape's box in the mesh frame grown by `margin`, computed apart from the
/// library's own (same formula as its docs state).
fn region_in_mesh(mesh_pose: &Pose, shape: &Shape, pose: &Pose, margin: f32) -> Aabb {
    let inverse = mesh_pose.inverse();
    let relative = Pose::new(
        inverse.transform_point(pose.translation),
        (inverse.rotation * pose.rotation).normalize(),
    );
    let b = shape.aabb(&relative);
    Aabb::new(b.min - Vec3::splat(margin), b.max + Vec3::splat(margin))
}

#[test]
fn the_bvh_cull_and_the_order_change_no_bit() {
    let mesh = terrain();
    let mesh_shape = Shape::from(mesh.clone());
    let every: Vec<_> = (0..mesh.triangle_count() as u32)
        .map(|i| (i, mesh.triangle(i)))
        .collect();
    let mut rng = Rng::new(0x5eed_3e54);
    let mut scratch = MeshScratch::default();
    let (mut touching, mut kinds) = (0, [0usize; 4]);
    for k in 0..100_000 {
        let mesh_pose = if k % 3 == 0 {
            Pose::IDENTITY
        } else {
            Pose::new(
                rng.vec3(Vec3::splat(-20.0), Vec3::splat(20.0)),
                rng.rotation(),
            )
        };
        let shape = random_shape(&mut rng, k);
        let pose = near_surface(&mut rng, &mesh_pose);
        let margin = if k % 5 == 0 { 0.05 } else { 0.0 };
        let region = region_in_mesh(&mesh_pose, &shape, &pose, margin);
        let culled = || {
            (every.iter())
                .filter(|(i, _)| mesh.triangle_aabb(*i).overlaps(&region))
                .copied()
        };
        let slow =
            collide_mesh_triangles(culled(), &mesh_pose, &shape, &pose, margin, &mut scratch);
        let fast = collide(
            &mesh_shape,
            &mesh_pose,
            &shape,
            &pose,
            margin,
            &mut PairCache::default(),
        );
        assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "case {k}");
        let mirrored = collide(
            &shape,
            &pose,
            &mesh_shape,
            &mesh_pose,
            margin,
            &mut PairCache::default(),
        )
        .map(|mut m| {
            m.flip();
            m
        });
        assert_eq!(
            format!("{mirrored:?}"),
            format!("{slow:?}"),
            "case {k} (b, a)"
        );
        let slow_contact =
            contact_mesh_triangles(culled(), &mesh_pose, &shape, &pose, margin, &mut scratch);
        let c = contact(&mesh_shape, &mesh_pose, &shape, &pose, margin);
        assert_eq!(c.is_some(), slow.is_some(), "case {k}");
        assert_eq!(c, slow_contact, "case {k}");
        if let (Some(c), Some(m)) = (c, &slow) {
            assert_eq!(c.normal.to_array(), m.normal.to_array(), "case {k}");
            // The deepest point before the reduction to four keeps one within the
            // clip tolerance of it.
            assert!(c.depth >= m.depth(), "case {k}");
            let back = contact(&shape, &pose, &mesh_shape, &mesh_pose, margin).unwrap();
            assert_eq!((-back.normal).to_array(), c.normal.to_array(), "case {k}");
        }
        let at_zero = contact(&mesh_shape, &mesh_pose, &shape, &pose, 0.0).is_some();
        assert_eq!(
            intersects(&mesh_shape, &mesh_pose, &shape, &pose),
            at_zero,
            "case {k}"
        );
        assert_eq!(
            intersects(&shape, &pose, &mesh_shape, &mesh_pose),
            at_zero,
            "case {k}"
        );
        if slow.is_some() {
            touching += 1;
            kinds[k % 4] += 1;
        }
    }
    // The placement must exercise both verdicts for every kind.
    assert!(
        touching > 20_000 && touching < 80_000,
        "{touching} touching"
    );
    assert!(kinds.iter().all(|&n| n > 3_000), "{kinds:?}");
}

#[test]
fn meshes_do_not_collide_with_meshes() {
    let mesh = Shape::from(terrain());
    let lifted = Pose::new(Vec3::new(0.1, 0.05, 0.0), Quat::from_rotation_y(0.3));
    assert!(
        collide(
            &mesh,
            &Pose::IDENTITY,
            &mesh,
            &lifted,
            0.1,
            &mut PairCache::default()
        )
        .is_none()
    );
    assert!(contact(&mesh, &Pose::IDENTITY, &mesh, &lifted, 0.1).is_none());
    assert!(!intersects(&mesh, &Pose::IDENTITY, &mesh, &lifted));
}

#[test]
fn rays_hit_the_mesh_where_the_brute_force_scan_says() {
    let mesh = terrain();
    let shape = Shape::from(mesh.clone());
    let mut rng = Rng::new(77);
    let mut hits = 0;
    for k in 0..3_000 {
        let pose = Pose::new(
            rng.vec3(Vec3::splat(-5.0), Vec3::splat(5.0)),
            rng.rotation(),
        );
        let origin =
            pose.transform_point(Vec3::new(rng.range(-9.0, 9.0), 3.0, rng.range(-9.0, 9.0)));
        let dir =
            pose.transform_vector(Vec3::new(rng.range(-0.5, 0.5), -1.0, rng.range(-0.5, 0.5)));
        let got = ray_shape(&shape, &pose, origin, dir, 10.0);
        let local = mesh.cast_ray_brute_force(
            pose.inverse_transform_point(origin),
            pose.inverse_transform_vector(dir),
            10.0,
        );
        assert_eq!(got.is_some(), local.is_some(), "ray {k}");
        if let (Some(g), Some(l)) = (got, local) {
            hits += 1;
            assert_eq!(g.t, l.t, "ray {k}");
            let n = pose.transform_vector(l.normal);
            assert!((g.normal - n).length() < 1e-5, "ray {k}: {g:?} vs {n}");
            assert!(
                g.normal.dot(dir) <= 0.0,
                "ray {k}: the normal faces the ray"
            );
        }
    }
    assert!(hits > 2_000, "{hits} hits");
}

#[test]
fn bad_poses_and_margins_with_a_mesh_give_no_contact_and_no_panic() {
    let mesh = Shape::from(terrain());
    let cube = random_cuboid(&mut Rng::new(3));
    let good = Pose::from_translation(Vec3::new(0.0, 0.2, 0.0));
    let bad = [
        Pose::from_translation(Vec3::new(f32::NAN, 0.0, 0.0)),
        Pose::from_translation(Vec3::new(f32::INFINITY, 0.0, 0.0)),
        Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)),
        Pose::from_translation(Vec3::splat(3e38)),
    ];
    for p in bad {
        for (a, pa, b, pb) in [
            (&mesh, p, &cube, good),
            (&cube, good, &mesh, p),
            (&mesh, good, &cube, p),
        ] {
            assert!(collide(a, &pa, b, &pb, 0.0, &mut PairCache::default()).is_none());
            assert!(contact(a, &pa, b, &pb, 0.0).is_none());
            assert!(!intersects(a, &pa, b, &pb));
        }
    }
    for margin in [f32::NAN, -1.0, f32::INFINITY, f32::MAX] {
        let _ = collide(
            &mesh,
            &Pose::IDENTITY,
            &cube,
            &good,
            margin,
            &mut PairCache::default(),
        );
        let _ = contact(&cube, &good, &mesh, &Pose::IDENTITY, margin);
    }
}
