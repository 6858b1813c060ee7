//! The step's output is bit-identical for 1, 2 and 4 threads (Box2D's determinism test
//! across worker counts), on boxes and hulls, with a body quarantined part of the time
//! and bodies removed and inserted between steps; and the same when the step runs on a
//! pool of the caller's (`step_in`) of any size, or from inside that pool. Scenes with
//! resting frames (the pile) and a large static world are covered too, and a pool whose
//! threads sleep between the stages (`Config::keep_threads_awake` off).

mod common;

use glam::Vec3;
use sepax_pipeline::geometry::Pose;
use sepax_pipeline::{BodyDesc, CollisionWorld, Config, rayon};
use sepax_testkit::scenes;
use std::hash::DefaultHasher;

/// Where a world's steps run.
#[derive(Clone, Copy)]
enum Runner<'p> {
    /// `step()` on the world's own pool of this many threads.
    Own(usize),
    /// `Own` with [`Config::keep_threads_awake`] off.
    Sleepy(usize),
    /// `step_in(pool)` from the calling thread.
    Caller(&'p rayon::ThreadPool),
    /// `step_in(pool)` from a thread of that very pool.
    Inside(&'p rayon::ThreadPool),
    /// `wake_ahead_in(wake)` before each frame's poses, then `step_in(step)`.
    Woken {
        wake: &'p rayon::ThreadPool,
        step: &'p rayon::ThreadPool,
    },
}

impl Runner<'_> {
    fn config(self) -> Config {
        let threads = match self {
            Runner::Own(n) | Runner::Sleepy(n) => n,
            _ => 1,
        };
        Config {
            threads,
            keep_threads_awake: !matches!(self, Runner::Sleepy(_)),
            narrow_chunk: 16,
            aabb_chunk: 64,
            ..Config::default()
        }
    }

    fn step(self, world: &mut CollisionWorld, h: &mut DefaultHasher) -> (usize, usize) {
        let mut hash = |r: &sepax_pipeline::StepReport| {
            common::report_hash(r, h);
            (r.contacts.len(), r.events.len())
        };
        match self {
            Runner::Own(_) | Runner::Sleepy(_) => hash(world.step()),
            Runner::Caller(pool) => hash(world.step_in(pool)),
            Runner::Inside(pool) => pool.install(|| hash(world.step_in(pool))),
            Runner::Woken { step, .. } => hash(world.step_in(step)),
        }
    }

    /// Before a frame's poses are set.
    fn before_poses(self, world: &mut CollisionWorld) {
        if let Runner::Woken { wake, .. } = self {
            world.wake_ahead_in(wake);
        }
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn run(threads: usize) -> (u64, usize, usize) {
    run_on(Runner::Own(threads))
}

fn run_on(runner: Runner) -> (u64, usize, usize) {
    let scene = scenes::soup(3000, 11);
    let hulls = scenes::hulls(600, 12);
    let mut world = CollisionWorld::new(runner.config()).unwrap();
    let mut handles = scene.populate(&mut world).unwrap();
    let hull_handles = hulls.populate(&mut world).unwrap();
    let mut h = DefaultHasher::new();
    let (mut contacts, mut events) = (0, 0);
    for frame in 0..12u32 {
        runner.before_poses(&mut world);
        scene.apply(&mut world, &handles, frame).unwrap();
        hulls.apply(&mut world, &hull_handles, frame).unwrap();
        if frame % 4 == 1 {
            world
                .set_pose(handles[7], Pose::from_translation(Vec3::NAN))
                .unwrap();
        }
        if frame == 6 {
            world.remove(handles[100]).unwrap();
            handles[100] = world
                .insert(BodyDesc::dynamic(
                    scene.bodies[100].shape.clone(),
                    scene.pose(101, 6),
                ))
                .unwrap();
        }
        let (c, e) = runner.step(&mut world, &mut h);
        contacts += c;
        events += e;
    }
    (common::finish(h), contacts, events)
}

#[test]
fn same_bits_for_one_two_and_four_threads() {
    let one = run(1);
    assert!(
        one.1 > 1000 && one.2 > 100,
        "the scene must collide: {one:?}"
    );
    assert_eq!(run(2), one);
    assert_eq!(run(4), one);
    // The helpers that keep the threads awake change who computes, not what.
    assert_eq!(run_on(Runner::Sleepy(2)), one);
}

#[test]
fn same_bits_on_a_pool_of_the_callers() {
    let one = run(1);
    for threads in [1, 3] {
        let p = pool(threads);
        assert_eq!(run_on(Runner::Caller(&p)), one, "{threads} threads");
        assert_eq!(run_on(Runner::Inside(&p)), one, "{threads} threads, inside");
    }
    // Woken ahead in the pool of the step, and in another one (whose threads then
    // leave): the same bits.
    let (p, other) = (pool(2), pool(2));
    let woken = Runner::Woken { wake: &p, step: &p };
    assert_eq!(run_on(woken), one, "woken ahead");
    let elsewhere = Runner::Woken {
        wake: &other,
        step: &p,
    };
    assert_eq!(run_on(elsewhere), one, "woken in another pool");
}

/// A pile that rests most frames (the short way) and moves now and then, and a static
/// world of 40,000 cubes with movers gliding on it, in one world; a pile of swaying
/// hulls (the narrow phase's warm path) in a second: the same bits on every runner.
#[test]
fn same_bits_on_resting_and_static_heavy_scenes() {
    let pile = scenes::pile(301);
    let hull_pile = scenes::hull_pile(201, 4);
    let large = scenes::large_world(40_000, 60, 3);
    let run_scenes = |runner: Runner| {
        let mut world = CollisionWorld::new(runner.config()).unwrap();
        let piled = pile.populate(&mut world).unwrap();
        let gliding = large.populate(&mut world).unwrap();
        // The hull pile stands where the box pile does: a world of its own.
        let mut hull_world = CollisionWorld::new(runner.config()).unwrap();
        let hulls = hull_pile.populate(&mut hull_world).unwrap();
        let mut h = DefaultHasher::new();
        let (mut contacts, mut hull_contacts) = (0, 0);
        for frame in 0..12u32 {
            pile.apply(&mut world, &piled, frame).unwrap();
            if frame % 4 == 0 {
                large.apply(&mut world, &gliding, frame).unwrap();
            }
            contacts += runner.step(&mut world, &mut h).0;
            hull_pile.apply(&mut hull_world, &hulls, frame).unwrap();
            hull_contacts += runner.step(&mut hull_world, &mut h).0;
        }
        (common::finish(h), contacts, hull_contacts)
    };
    let one = run_scenes(Runner::Own(1));
    assert!(one.1 > 12 * 300, "the scenes must collide: {one:?}");
    assert_eq!(one.2, 12 * 200, "every hull touches the one below: {one:?}");
    assert_eq!(run_scenes(Runner::Own(2)), one);
    assert_eq!(run_scenes(Runner::Own(4)), one);
    let p = pool(3);
    assert_eq!(run_scenes(Runner::Caller(&p)), one);
    assert_eq!(run_scenes(Runner::Inside(&p)), one);
}

/// No answer depends on the narrow phase's chunking, which the step cuts finer than
/// `narrow_chunk` when the pairs are few: the same bits for chunks of 1, 16, 128 (the
/// default) and 100,000 pairs, on 1 and 2 threads, with few pairs (a gliding large
/// world) and with many (a box and hull soup).
#[test]
fn same_bits_for_any_narrow_chunk() {
    let large = scenes::large_world(40_000, 60, 3);
    let soup = scenes::soup(1500, 5);
    let hulls = scenes::hulls(300, 6);
    let run_chunked = |narrow_chunk: usize, threads: usize| {
        let config = Config {
            threads,
            narrow_chunk,
            ..Config::default()
        };
        let mut world = CollisionWorld::new(config).unwrap();
        let gliding = large.populate(&mut world).unwrap();
        let mut h = DefaultHasher::new();
        let mut few = 0;
        for frame in 0..6u32 {
            large.apply(&mut world, &gliding, frame).unwrap();
            few += Runner::Own(threads).step(&mut world, &mut h).0;
        }
        let boxes = soup.populate(&mut world).unwrap();
        let hull_handles = hulls.populate(&mut world).unwrap();
        let mut many = 0;
        for frame in 0..6u32 {
            large.apply(&mut world, &gliding, frame).unwrap();
            soup.apply(&mut world, &boxes, frame).unwrap();
            hulls.apply(&mut world, &hull_handles, frame).unwrap();
            many += Runner::Own(threads).step(&mut world, &mut h).0;
        }
        (common::finish(h), few, many)
    };
    let default = run_chunked(Config::default().narrow_chunk, 1);
    assert!(
        default.1 > 6 * 40 && default.2 > 6 * 500,
        "the scenes must collide: {default:?}"
    );
    for (chunk, threads) in [(1, 1), (16, 2), (128, 2), (100_000, 1), (100_000, 2)] {
        assert_eq!(
            run_chunked(chunk, threads),
            default,
            "chunk {chunk}, {threads} threads"
        );
    }
}

/// Two worlds stepped at the same time on one pool of the caller's (an engine stepping
/// its scenes in parallel), from inside the pool and from two outside threads: every
/// step returns, each world's reports are those it gives stepped alone. (A helper of
/// `Config::keep_threads_awake` that one world's step left on a thread holding part of
/// the other's stalls that one until it leaves: it leaves when its own step ends or
/// after 1 ms without work, so neither step can wait for the other forever.)
#[test]
fn two_worlds_stepped_at_once_on_one_pool() {
    let soup = scenes::soup(800, 5);
    let hulls = scenes::hulls(200, 6);
    let run_pair = |runner: &dyn Fn(&mut CollisionWorld, &mut CollisionWorld) -> (u64, u64)| {
        let mut a = CollisionWorld::new(Runner::Own(1).config()).unwrap();
        let mut b = CollisionWorld::new(Runner::Own(1).config()).unwrap();
        let (ha, hb) = (
            soup.populate(&mut a).unwrap(),
            hulls.populate(&mut b).unwrap(),
        );
        let (mut sum_a, mut sum_b) = (DefaultHasher::new(), DefaultHasher::new());
        for frame in 0..60u32 {
            soup.apply(&mut a, &ha, frame).unwrap();
            hulls.apply(&mut b, &hb, frame).unwrap();
            let (x, y) = runner(&mut a, &mut b);
            std::hash::Hash::hash(&x, &mut sum_a);
            std::hash::Hash::hash(&y, &mut sum_b);
        }
        (common::finish(sum_a), common::finish(sum_b))
    };
    let report_hash = |r: &sepax_pipeline::StepReport| {
        let mut h = DefaultHasher::new();
        common::report_hash(r, &mut h);
        common::finish(h)
    };
    let alone = run_pair(&|a, b| (report_hash(a.step()), report_hash(b.step())));
    for threads in [2, 3] {
        let p = pool(threads);
        let inside = run_pair(&|a, b| {
            p.install(|| rayon::join(|| report_hash(a.step_in(&p)), || report_hash(b.step_in(&p))))
        });
        assert_eq!(inside, alone, "{threads} threads, inside");
        let outside = run_pair(&|a, b| {
            std::thread::scope(|s| {
                let x = s.spawn(|| report_hash(a.step_in(&p)));
                let y = report_hash(b.step_in(&p));
                (x.join().unwrap(), y)
            })
        });
        assert_eq!(outside, alone, "{threads} threads, two outside threads");
    }
}
