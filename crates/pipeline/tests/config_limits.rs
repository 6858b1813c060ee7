//! Issue 9, item 4: what `CollisionWorld::new` does with extreme `Config` values.
//! `threads = 5000` used to be accepted (9 s to build the pool) and `margin = +inf`
//! silently quarantined every body at every step.

use glam::Vec3;
use sepax_pipeline::geometry::{Pose, Sphere};
use sepax_pipeline::{BodyDesc, CollisionWorld, Config, WorldError};
use std::time::{Duration, Instant};

fn config(threads: usize, margin: f32) -> Config {
    Config {
        threads,
        margin,
        ..Config::default()
    }
}

#[test]
fn issue_9_thread_counts_above_the_limit_are_refused_at_once() {
    let start = Instant::now();
    assert_eq!(
        CollisionWorld::new(config(5000, 0.0)).unwrap_err(),
        WorldError::TooManyThreads(5000)
    );
    assert_eq!(
        CollisionWorld::new(config(usize::MAX, 0.0)).unwrap_err(),
        WorldError::TooManyThreads(usize::MAX)
    );
    assert!(start.elapsed() < Duration::from_secs(1));
    // The limit itself and 0 (one per core) are accepted.
    let world = CollisionWorld::new(config(Config::MAX_THREADS, 0.0)).unwrap();
    assert_eq!(world.threads(), Config::MAX_THREADS);
    assert!(CollisionWorld::new(config(0, 0.0)).unwrap().threads() >= 1);
}

#[test]
fn issue_9_non_finite_margins_are_refused_and_negative_ones_count_as_zero() {
    for margin in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN] {
        assert_eq!(
            CollisionWorld::new(config(1, margin)).unwrap_err(),
            WorldError::NonFiniteMargin,
            "{margin}"
        );
    }
    let world = CollisionWorld::new(config(1, -3.0)).unwrap();
    assert_eq!(world.config().margin, 0.0);
    // The largest finite margin is stepped: bodies near the origin pair, bodies whose
    // grown AABB passes f32::MAX are quarantined.
    let mut world = CollisionWorld::new(config(1, f32::MAX)).unwrap();
    let ball = Sphere::try_new(1.0).unwrap();
    world
        .insert(BodyDesc::dynamic(ball, Pose::IDENTITY))
        .unwrap();
    world
        .insert(BodyDesc::dynamic(
            ball,
            Pose::from_translation(Vec3::X * 10.0),
        ))
        .unwrap();
    let far = world
        .insert(BodyDesc::dynamic(
            ball,
            Pose::from_translation(Vec3::X * 1e33),
        ))
        .unwrap();
    let r = world.step();
    assert_eq!(r.candidate_pairs, 1);
    assert_eq!(r.quarantined.len(), 1);
    assert_eq!(r.quarantined[0].body, far);
}
