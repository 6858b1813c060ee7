//! One contact of the hull pile (`scenes::hull_pile`), from sepax and from parry3d:
//! its 24-point frustum (a 12-gon of radius 0.5 below, 0.4 above) sunk 0.01 into one
//! below it and turned 15°, so that the contact is the lower one's top 12-gon against
//! the upper one's bottom 12-gon.
//!
//! ```sh
//! cargo run --release -p sepax-benches --example pile_contact_vs_parry
//! ```
//!
//! sepax gives four points 0.01 deep spread over the 12-gon (their centre on the axis);
//! parry3d 0.31 gives one point near the rim: its `ConvexPolyhedron` hands the clipper
//! only the first four vertices of a face (`local_support_feature`: "if there are more
//! than 4 vertices, we need to select four vertices that maximize the area"), a sliver
//! of the 12-gon. That is the manifold rapier3d steps the `hull_pile_2k` bench with:
//! cheap, but a solver would hold the column up on one point at its edge.

use glam::{Quat, Vec3};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use sepax_benches::parry_pairs;
use sepax_geometry::{Pose, Shape};
use sepax_narrowphase::{PairCache, collide};
use sepax_testkit::pairs::Pair;
use sepax_testkit::scenes;

fn main() {
    let hull = Shape::from(scenes::pile_frustum());
    let pair = Pair {
        a: hull.clone(),
        pose_a: Pose::new(Vec3::ZERO, Quat::IDENTITY),
        b: hull,
        pose_b: Pose::new(
            Vec3::new(0.0, 0.99, 0.0),
            Quat::from_rotation_y(15f32.to_radians()),
        ),
    };

    let mut cache = PairCache::default();
    match collide(
        &pair.a,
        &pair.pose_a,
        &pair.b,
        &pair.pose_b,
        0.0,
        &mut cache,
    ) {
        Some(m) => {
            println!("sepax: normal {:?}, {} points", m.normal, m.points.len());
            for p in m.points.iter() {
                println!("  {:?} depth {:.5}", p.position, p.depth);
            }
        }
        None => println!("sepax: apart"),
    }

    let peers = parry_pairs(std::slice::from_ref(&pair));
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let mut workspace = None;
    let peer = &peers[0];
    let found = DefaultQueryDispatcher.contact_manifolds(
        &peer.pose_ab,
        &*peer.a,
        &*peer.b,
        0.0,
        &mut manifolds,
        &mut workspace,
    );
    if found.is_err() {
        println!("parry3d: unsupported pair");
    }
    for m in &manifolds {
        println!(
            "parry3d: normal {:?}, {} points",
            m.local_n1,
            m.points.len()
        );
        for p in &m.points {
            println!("  {:?} depth {:.5}", p.local_p1, -p.dist);
        }
    }
}
