//! The shared scenes have the properties their docs promise.

use sepax_pipeline::scenes;
use sepax_pipeline::{CollisionWorld, Config};

fn pairs_per_body(scene: &scenes::Scene) -> (f64, usize) {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    scene.populate(&mut world).unwrap();
    let r = world.step();
    (r.candidate_pairs as f64 / scene.len() as f64, r.contacts.len())
}

#[test]
fn soup_has_about_one_and_a_half_aabb_pairs_per_body() {
    let (ppb, _) = pairs_per_body(&scenes::soup(4000, 1));
    eprintln!("soup pairs per body {ppb}");
    assert!((1.2..1.8).contains(&ppb), "{ppb}");
}

#[test]
fn hulls_density() {
    let (ppb, _) = pairs_per_body(&scenes::hulls(2000, 1));
    eprintln!("hulls pairs per body {ppb}");
    assert!((1.0..2.0).contains(&ppb), "{ppb}");
}
