//! A pinned hash of mesh contacts: `collide` of a rolling terrain mesh with 20,000
//! random convex shapes (boxes, spheres, capsules, hulls), half of them at random poses
//! near the surface, half resting on it the way the `terrain` scene's bodies do (upright
//! boxes and lying capsules sunk a little, turned about the vertical), hashed (FNV-1a
//! over the bit patterns of every normal, point, depth, id, anchor and feature).
//!
//! Speed-ups of the mesh narrow phase must not change an answer: any change of a bit
//! changes the hash. Update `FINGERPRINT` on purpose only, with the reason in the
//! commit message. Pinned for x86-64 (SSE2, no FMA: the default target), where it was
//! measured.

use glam::{Quat, Vec3};
use sepax_geometry::rng::Rng;
use sepax_geometry::{Pose, Shape, TriMesh};
use sepax_narrowphase::{PairCache, collide};
use sepax_testkit::fingerprint::Fnv;
use sepax_testkit::scenes::scene_hull;
use sepax_testkit::shapes::{random_capsule, random_cuboid};
use sepax_testkit::terrain::rolling_terrain;
use std::sync::Arc;

/// The hash of `fingerprint`: changed on purpose only. (5 December 2026: a box's or hull's
/// deepest vertex under a triangle without a patch, next to a touched one, joins the
/// merge (`merge::corner_past_a_seam`): 230 of the 20,000 manifolds changed, 225 at
/// random poses (the deepest vertex 0.25–2.9 below), 5 resting; each deeper and nearer the
/// depth of the shape's deepest vertex below the terrain straight under it: the median
/// shortfall 0.067 → 0.019, the worst 0.86 → 0.32. Then the cones' fall-back to the
/// exact axis (`cone`): 3 changed, two deep pairs at random poses taking the exact
/// axis on an active edge (at the mesh's boundary for one): 0.21 and 0.14 deep along
/// it, against 1.05 and 0.34 along a face normal before, their deepest vertex 0.90 and
/// 0.21 below the terrain; and one hull 0.008 deep whose normal turned by 1.5°. Then a
/// patch moved by a cone keeping its own deepest point (`cone`): 1 changed, a box 0.87
/// deep whose four points changed, not its depth or normal. Then the corner rule's walk
/// across untouched triangles (`merge::corner_past_a_seam`): 47 changed, all at random
/// poses with the deepest vertex 0.34–2.7 below the terrain, each deeper and nearer
/// that vertex's depth: the median shortfall 0.378 → 0.028, none beyond it.)
const FINGERPRINT: u64 = 0x554d_0fac_9612_d213;

fn random_shape(rng: &mut Rng, k: usize) -> Shape {
    match k % 4 {
        0 => random_cuboid(rng),
        1 => Shape::from(sepax_geometry::Sphere::try_new(rng.range(0.1, 1.0)).unwrap()),
        2 => random_capsule(rng),
        _ => Shape::from(scene_hull(rng)),
    }
}

/// The terrain's height under `(x, z)` (mesh frame), by a ray from above.
fn height(mesh: &TriMesh, x: f32, z: f32) -> f32 {
    mesh.cast_ray(Vec3::new(x, 10.0, z), Vec3::NEG_Y, 20.0)
        .map_or(0.0, |hit| 10.0 - hit.t)
}

/// A pose resting on the surface: upright (a capsule lying on its side), turned about
/// the vertical, its lowest point `sink` below the surface under its centre.
fn resting(rng: &mut Rng, mesh: &TriMesh, shape: &Shape) -> Pose {
    let (x, z) = (rng.range(-9.0, 9.0), rng.range(-9.0, 9.0));
    let yaw = Quat::from_rotation_y(rng.range(0.0, std::f32::consts::TAU));
    let rotation = match shape {
        Shape::Capsule(_) => yaw * Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        _ => yaw,
    };
    let lowest = shape.aabb(&Pose::new(Vec3::ZERO, rotation)).min.y;
    let sink = rng.range(-0.02, 0.05);
    Pose::new(
        Vec3::new(x, height(mesh, x, z) - lowest - sink, z),
        rotation,
    )
}

fn fingerprint() -> (u64, usize) {
    let data = rolling_terrain(16, 1.0, 0.6, 2.5);
    let mesh = Arc::new(TriMesh::try_new(data.vertices, data.indices).unwrap());
    let mesh_shape = Shape::from(mesh.clone());
    let mut rng = Rng::new(0xf1_9e59_1a7e);
    let mut hash = Fnv::new();
    let mut touching = 0;
    for k in 0..20_000 {
        let shape = random_shape(&mut rng, k);
        let margin = if k % 5 == 0 { 0.05 } else { 0.0 };
        let local = if k % 2 == 0 {
            Pose::new(
                Vec3::new(
                    rng.range(-9.0, 9.0),
                    rng.range(-1.5, 1.5),
                    rng.range(-9.0, 9.0),
                ),
                rng.rotation(),
            )
        } else {
            resting(&mut rng, &mesh, &shape)
        };
        let mesh_pose = if k % 3 == 0 {
            Pose::IDENTITY
        } else {
            Pose::new(
                rng.vec3(Vec3::splat(-20.0), Vec3::splat(20.0)),
                rng.rotation(),
            )
        };
        let pose = Pose::new(
            mesh_pose.transform_point(local.translation),
            (mesh_pose.rotation * local.rotation).normalize(),
        );
        let m = collide(
            &mesh_shape,
            &mesh_pose,
            &shape,
            &pose,
            margin,
            &mut PairCache::default(),
        );
        touching += m.is_some() as usize;
        hash.manifold(&m);
    }
    (hash.0, touching)
}

#[test]
fn mesh_contacts_match_the_pinned_fingerprint() {
    let (hash, touching) = fingerprint();
    assert!(touching > 8_000 && touching < 16_000, "{touching} touching");
    if cfg!(target_arch = "x86_64") {
        assert_eq!(hash, FINGERPRINT, "the answers changed: {hash:#x}");
    }
}
