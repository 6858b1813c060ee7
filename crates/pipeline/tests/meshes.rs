//! Triangle meshes as bodies (issue 10, part 4): a static terrain mesh under boxes and
//! capsules (the `terrain` scene), stepped for several frames with 1 and 2 threads,
//! against a brute-force twin that asks the narrow phase about every mover directly:
//! * the touching pairs of each step are exactly the twin's (margin-0 contact, every
//!   mover against the mesh and against every other mover);
//! * every contact with the mesh carries the manifold a cold `collide` gives, bit for
//!   bit (mesh pairs do not use the pair cache), and both thread counts agree;
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
fn terrain_scene_matches_the_brute_force_and_any_thread_count() {
    let one = run(1, 6);
    let two = run(2, 6);
    for (frame, (a, b)) in one.iter().zip(&two).enumerate() {
        assert_eq!(a.contacts, b.contacts, "frame {frame}");
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
