//! A step allocates nothing once its lists have grown: every list the step fills (pair
//! states, staged contacts and events, the changed-body list, the broad phase's pair
//! keys, candidate lists, sweep tasks, patch and static-query lists, the narrow pass's
//! batch and manifold scratch) is a buffer kept from step to step. A real-time engine
//! steps thousands of times a second; an allocation per step (there were 70 a frame
//! on the 10,000-box soup, most of them one list of touch events per chunk) is a call
//! into the allocator on its hot path, and a lock when it shares that allocator.
//!
//! Counted with a counting global allocator on a world of one thread (the step runs on
//! the calling thread; a world with a pool runs it on the pool's threads, and each step
//! there also makes two small allocations for the helpers that keep the pool awake, see
//! `awake`). After a warm-up, the measured frames may still allocate when a list must
//! grow past every earlier frame's length (the candidate count creeping to a new
//! maximum, a static query's candidate list spilling past its inline room): at most
//! one frame in five, one allocation in three frames (measured: 0–7 allocations in 60
//! frames, in at most 6 of them).

use sepax_pipeline::{CollisionWorld, Config};
use sepax_testkit::counting_alloc::{Counting, allocations, count_this_thread};
use sepax_testkit::scenes::{self, Scene};

#[global_allocator]
static GLOBAL: Counting = Counting;

const WARM_UP: u32 = 40;
const MEASURED: u32 = 60;

/// The allocations of each measured step of `scene` on a one-thread world, and of its
/// first step.
fn allocations_per_step(scene: &Scene) -> (usize, Vec<usize>) {
    let config = Config {
        threads: 1,
        ..Config::default()
    };
    let mut world = CollisionWorld::new(config).unwrap();
    let handles = scene.populate(&mut world).unwrap();
    count_this_thread();
    let before = allocations();
    world.step();
    let first = allocations() - before;
    let mut counts = Vec::with_capacity(MEASURED as usize);
    for frame in 1..=WARM_UP + MEASURED {
        scene.apply(&mut world, &handles, frame).unwrap();
        let before = allocations();
        let contacts = world.step().contacts.len();
        let spent = allocations() - before;
        assert!(contacts > 0, "the scene touches somewhere");
        if frame > WARM_UP {
            counts.push(spent);
        }
    }
    (first, counts)
}

#[test]
fn steps_allocate_nothing_once_their_lists_have_grown() {
    let scenes = [
        ("soup", scenes::soup(2_000, 3)),
        ("hulls", scenes::hulls(400, 5)),
        ("static-heavy", scenes::static_heavy(4_000, 200, 7)),
        ("terrain", scenes::terrain(100, 9)),
        ("pile", scenes::pile(300)),
    ];
    for (name, scene) in &scenes {
        let (first, counts) = allocations_per_step(scene);
        // The counter sees the world's allocations: the first step fills every list.
        assert!(first > 0, "{name}: the first step allocated nothing?");
        let total: usize = counts.iter().sum();
        let allocating = counts.iter().filter(|&&n| n > 0).count();
        assert!(
            allocating * 5 <= counts.len() && total * 3 <= counts.len(),
            "{name}: {total} allocations in {} steps, {allocating} steps allocating: {counts:?}",
            counts.len()
        );
    }
}
