//! Triangle meshes as bodies (issue 10, part 4): a static terrain mesh under boxes and
//! capsules (the `terrain` scene), stepped for several frames with 1, 2 and 4 threads,
//! against a brute-force twin that asks the narrow phase about every mover directly:
//! * the touching pairs of each step are exactly the twin's (margin-0 contact, every
//!   mover against the mesh and against every other mover);
//! * every contact with the mesh carries the manifold a cold `collide` gives, bit for
//!   bit (mesh pairs do not use the pair cache), and 1, 2 and 4 threads agree;
//! * rays hit the mesh where `ray_shape` says; meshes on non-static bodies are refused.

use glam::Vec3;
use sepax_pipeline::geometry::{Cuboid, Pose, Shape, TriMesh};
use sepax_pipeline::narrowphase::{PairCache, collide};
use sepax_pipeline::ray::ray_shape;
use sepax_pipeline::{BodyDesc, CollisionWorld, Config, StepReport, WorldError};
use sepax_testkit::scenes;
use sepax_testkit::terrain::flat_floor;
use sepax_testkit::world::{brute_force_touching, reported_touching};

fn run(threads: usize, frames: u32) -> Vec<StepReport> {
    let scene = scenes::terrain(240, 5);
    let config = Config {
        threads,
        margin: 0.01,
        ..Config::default()
    };
    let mut world = CollisionWorld::new(config).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    let mut reports = Vec::new();
    let (mut mesh_contacts, mut touching_total) = (0, 0);
    for frame in 0..frames {
        // Big steps (10 scene frames) so that bodies cross many triangles.
        scene.apply(&mut world, &handles, frame * 10).unwrap();
        let report = world.step().clone();
        let want = brute_force_touching(&world, &handles);
        let got = reported_touching(&report);
        assert_eq!(got, want, "frame {frame}: touching pairs");
        touching_total += got.len();
        for c in &report.contacts {
            let (sa, sb) = (world.shape(c.a).unwrap(), world.shape(c.b).unwrap());
            if !(matches!(sa, Shape::TriMesh(_)) || matches!(sb, Shape::TriMesh(_))) {
                continue;
            }
            let (pa, pb) = (world.pose(c.a).unwrap(), world.pose(c.b).unwrap());
            let cold = collide(sa, &pa, sb, &pb, config.margin, &mut PairCache::default());
            assert_eq!(Some(&c.manifold), cold.as_ref(), "frame {frame}: {c:?}");
            mesh_contacts += 1;
        }
        reports.push(report);
    }
    // Most movers rest on the terrain: the mesh pairs dominate.
    assert!(
        mesh_contacts > 150 * frames as usize && touching_total >= mesh_contacts,
        "{mesh_contacts} mesh contacts, {touching_total} touching"
    );
    reports
}

#[test]
fn terrain_scene_matches_the_brute_force_on_1_2_and_4_threads() {
    let one = run(1, 6);
    for threads in [2, 4] {
        let other = run(threads, 6);
        for (frame, (a, b)) in one.iter().zip(&other).enumerate() {
            assert_eq!(a.contacts, b.contacts, "frame {frame}, {threads} threads");
        }
    }
}

#[test]
fn rays_hit_the_terrain() {
    let scene = scenes::terrain(0, 1);
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    let mesh = handles[0];
    let shape = world.shape(mesh).unwrap().clone();
    let mut rng = sepax_pipeline::geometry::rng::Rng::new(9);
    for k in 0..500 {
        let o = Vec3::new(rng.range(-45.0, 45.0), 5.0, rng.range(-45.0, 45.0));
        let d = Vec3::new(rng.range(-0.3, 0.3), -1.0, rng.range(-0.3, 0.3));
        let (body, hit) = world
            .cast_ray(o, d, 20.0)
            .unwrap()
            .expect("the terrain is below");
        assert_eq!(body, mesh, "ray {k}");
        let direct = ray_shape(&shape, &Pose::IDENTITY, o, d, 20.0).unwrap();
        assert_eq!(hit.t, direct.t, "ray {k}");
        assert!(hit.normal.y > 0.9, "ray {k}: the gentle terrain faces up");
    }
}

#[test]
fn meshes_go_on_static_bodies_only() {
    let data = flat_floor(4, 1.0);
    let floor = Shape::from(TriMesh::try_new(data.vertices, data.indices).unwrap());
    let cube = Shape::from(Cuboid::try_from_half_extents(Vec3::splat(0.5)).unwrap());
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let at = Pose::IDENTITY;
    assert_eq!(
        world.insert(BodyDesc::dynamic(floor.clone(), at)),
        Err(WorldError::MeshNotStatic)
    );
    assert_eq!(
        world.insert(BodyDesc::kinematic(floor.clone(), at)),
        Err(WorldError::MeshNotStatic)
    );
    assert!(world.is_empty(), "a refused body is not inserted");
    let ground = world.insert(BodyDesc::fixed(floor.clone(), at)).unwrap();
    let mover = world
        .insert(BodyDesc::dynamic(
            cube.clone(),
            Pose::from_translation(Vec3::Y * 0.49),
        ))
        .unwrap();
    assert_eq!(
        world.set_shape(mover, floor.clone()),
        Err(WorldError::MeshNotStatic)
    );
    assert!(
        matches!(world.shape(mover).unwrap(), Shape::Cuboid(_)),
        "shape kept"
    );
    // A static body may become a mesh and back.
    world.set_shape(ground, cube).unwrap();
    world.set_shape(ground, floor).unwrap();
    let report = world.step();
    assert_eq!(report.contacts.len(), 1);
    assert!((report.contacts[0].manifold.normal - Vec3::Y).length() < 1e-6);
    assert_eq!(report.contacts[0].manifold.points.len(), 4);
}

/// Ghost collisions through the whole world: a box, a sphere, a lying capsule and a hull
/// slide across a floor of 2,048 triangles (every seam: along x, along z, diagonal), sunk
/// 0.01, in steps of three sizes; every manifold's normal stays within 1° of up.
#[test]
fn bodies_slide_across_a_mesh_floor_without_ghost_contacts() {
    use sepax_pipeline::geometry::{Capsule, Sphere};
    let data = flat_floor(32, 1.0);
    let floor = Shape::from(TriMesh::try_new(data.vertices, data.indices).unwrap());
    let lying = glam::Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    let bodies: [(Shape, glam::Quat, f32); 4] = [
        (
            Cuboid::try_from_half_extents(Vec3::new(0.4, 0.3, 0.35))
                .unwrap()
                .into(),
            glam::Quat::from_rotation_y(0.3),
            0.3,
        ),
        (
            Sphere::try_new(0.35).unwrap().into(),
            glam::Quat::IDENTITY,
            0.35,
        ),
        (Capsule::try_new(0.5, 0.25).unwrap().into(), lying, 0.25),
        (
            Shape::from(sepax_testkit::scenes::scene_hull(
                &mut sepax_pipeline::geometry::rng::Rng::new(4),
            )),
            glam::Quat::IDENTITY,
            0.0,
        ),
    ];
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let ground = world
        .insert(BodyDesc::fixed(floor, Pose::IDENTITY))
        .unwrap();
    let mut handles = Vec::new();
    for (shape, rotation, _) in &bodies {
        handles.push(
            world
                .insert(BodyDesc::dynamic(
                    shape.clone(),
                    Pose::new(Vec3::ZERO, *rotation),
                ))
                .unwrap(),
        );
    }
    // The hull's lowest point along −y, so that it too sinks 0.01.
    let hull_reach = -bodies[3].0.local_support(-Vec3::Y).y;
    let (mut worst, mut contacts) = (0.0f32, 0);
    for step in [0.013f32, 0.05, 0.11] {
        for k in 0..(28.0 / step) as usize {
            let s = -14.0 + k as f32 * step;
            for (i, (_, rotation, reach)) in bodies.iter().enumerate() {
                let reach = if i == 3 { hull_reach } else { *reach };
                // Different headings per body: across x seams, z seams and diagonals.
                let at = match i {
                    0 => Vec3::new(s, 0.0, 0.37 * s),
                    1 => Vec3::new(0.61, 0.0, s),
                    2 => Vec3::new(s, 0.0, -s),
                    _ => Vec3::new(s, 0.0, 1.7),
                };
                let pose = Pose::new(at + Vec3::Y * (reach - 0.01), *rotation);
                world.set_pose(handles[i], pose).unwrap();
            }
            let report = world.step();
            // Paths cross now and then: only the contacts with the floor count.
            let on_floor: Vec<_> = report
                .contacts
                .iter()
                .filter(|c| c.a == ground || c.b == ground)
                .collect();
            assert_eq!(on_floor.len(), 4, "step {step}, k {k}: every body touches");
            for c in on_floor {
                let angle = c
                    .manifold
                    .normal
                    .dot(Vec3::Y)
                    .clamp(-1.0, 1.0)
                    .acos()
                    .to_degrees();
                worst = worst.max(angle);
                contacts += 1;
            }
        }
    }
    assert!(worst < 1.0, "worst normal {worst}° from up");
    assert!(contacts > 10_000, "{contacts}");
}
