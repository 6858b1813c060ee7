//! A few bodies, one step, the contacts printed.
//! `cargo run --release --example quickstart`

use glam::{Quat, Vec3};
use sepax_pipeline::geometry::{ConvexHull, Cuboid, Pose, Sphere};
use sepax_pipeline::{BodyDesc, CollisionWorld, Config};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A margin of a few percent of the smallest body keeps resting contacts alive
    // through the tiny gaps a solver leaves (they come back as speculative points with
    // negative depth, `touching == false`, and start no event).
    let config = Config {
        margin: 0.02,
        ..Config::default()
    };
    let mut world = CollisionWorld::new(config)?;

    // A static ground slab whose top face is y = 0.
    let ground = Cuboid::try_from_half_extents(Vec3::new(10.0, 0.5, 10.0))?;
    world.insert(BodyDesc::fixed(
        ground,
        Pose::from_translation(Vec3::new(0.0, -0.5, 0.0)),
    ))?;

    // A tilted box, a ball and a tetrahedron, each sunk a little into the ground.
    let cube = Cuboid::try_from_size(Vec3::splat(1.0))?;
    let tilted = Pose::new(Vec3::new(-2.0, 0.55, 0.0), Quat::from_rotation_z(0.3));
    world.insert(BodyDesc {
        user_data: 42, // your entity id, say
        ..BodyDesc::dynamic(cube, tilted)
    })?;
    let ball = Sphere::try_new(0.5)?;
    world.insert(BodyDesc::dynamic(
        ball,
        Pose::from_translation(Vec3::new(0.0, 0.48, 0.0)),
    ))?;
    let tetra = ConvexHull::try_from_points(&[
        Vec3::new(0.0, -0.5, 0.0),
        Vec3::new(0.5, 0.5, 0.0),
        Vec3::new(-0.5, 0.5, 0.5),
        Vec3::new(-0.5, 0.5, -0.5),
    ])?;
    world.insert(BodyDesc::dynamic(
        tetra,
        Pose::from_translation(Vec3::new(2.0, 0.49, 0.0)),
    ))?;

    world.step();
    // Read the report through `report()`: a shared borrow, so the world's getters
    // (poses, shapes, user data) stay usable while you walk the contacts.
    let report = world.report();
    println!(
        "{} contacts, {} events",
        report.contacts.len(),
        report.events.len()
    );
    for c in &report.contacts {
        println!(
            "bodies {} and {} (user data {:?}, b at {:.2}): normal {:.3} (from the first to the second), touching {}",
            c.a.index(),
            c.b.index(),
            c.user_data,
            world.pose(c.b)?.translation,
            c.manifold.normal,
            c.touching
        );
        for p in &c.manifold.points {
            println!(
                "  point {:.3}  depth {:.4}  feature {:#x}  on a {:.3}  on b {:.3}",
                p.position, p.depth, p.id, p.anchor_a, p.anchor_b
            );
        }
    }
    Ok(())
}
