//! Setting poses and stepping a world at rest.
//!
//! `cargo bench -p sepax-benches --bench poses -- --warm-up-time 1 --measurement-time 3`
//!
//! * `set_poses_10k`: 10,000 bodies get a pose each, through one
//!   `CollisionWorld::set_poses` batch or a `set_pose` loop; `moved` alternates between
//!   two pose sets, so every body changes, `unchanged` sets the same poses again (the
//!   bodies keep resting). One iteration = 10,000 bodies.
//! * `pile_1k`: a settled pile of 1,000 boxes (`scenes::pile`), a `moving` frame (every
//!   box nudged by 1e-4 along y, every other frame) against a `resting` frame (every box
//!   given its pose again, bit for bit): the whole step, in the same run.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use sepax_pipeline::geometry::Pose;
use sepax_pipeline::{BodyHandle, CollisionWorld, Config};
use sepax_testkit::scenes::{self, Scene};
use std::hint::black_box;

const THREADS: usize = 2;

fn world_of(scene: &Scene) -> (CollisionWorld, Vec<BodyHandle>) {
    let mut world = CollisionWorld::new(Config {
        threads: THREADS,
        ..Config::default()
    })
    .unwrap();
    let handles = scene.populate(&mut world).unwrap();
    world.step();
    (world, handles)
}

/// The movers' poses at `frame`, nudged by `lift` along y, with their handles.
fn poses(scene: &Scene, handles: &[BodyHandle], frame: u32, lift: f32) -> Vec<(BodyHandle, Pose)> {
    scene
        .mover_poses(frame)
        .map(|(i, p)| {
            (
                handles[i],
                Pose::new(p.translation + Vec3::Y * lift, p.rotation),
            )
        })
        .collect()
}

fn bench_set_poses(c: &mut Criterion) {
    let scene = scenes::soup(10_000, 1);
    let (mut world, handles) = world_of(&scene);
    let sets = [
        poses(&scene, &handles, 1, 0.0),
        poses(&scene, &handles, 2, 0.0),
    ];
    let mut group = c.benchmark_group("set_poses_10k");
    let mut turn = 0;
    group.bench_function(BenchmarkId::new("batch", "moved"), |b| {
        b.iter(|| {
            turn ^= 1;
            black_box(world.set_poses(sets[turn].iter().copied()))
        })
    });
    group.bench_function(BenchmarkId::new("batch", "unchanged"), |b| {
        b.iter(|| black_box(world.set_poses(sets[0].iter().copied())))
    });
    group.bench_function(BenchmarkId::new("set_pose_loop", "moved"), |b| {
        b.iter(|| {
            turn ^= 1;
            for &(h, p) in &sets[turn] {
                world.set_pose(h, p).unwrap();
            }
        })
    });
    group.finish();
}

fn bench_resting_pile(c: &mut Criterion) {
    let scene = scenes::pile(1_000);
    let (mut world, handles) = world_of(&scene);
    let sets = [
        poses(&scene, &handles, 0, 0.0),
        poses(&scene, &handles, 0, 1e-4),
    ];
    let mut group = c.benchmark_group("pile_1k");
    group.sample_size(20);
    let mut turn = 0;
    group.bench_function("moving", |b| {
        b.iter(|| {
            turn ^= 1;
            let _ = world.set_poses(sets[turn].iter().copied());
            black_box(world.step().contacts.len())
        })
    });
    group.bench_function("resting", |b| {
        b.iter(|| {
            let _ = world.set_poses(sets[turn].iter().copied());
            black_box(world.step().contacts.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench_set_poses, bench_resting_pile);
criterion_main!(benches);
