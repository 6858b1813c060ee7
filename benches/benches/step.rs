//! The whole collision step, sepax's `CollisionWorld` against rapier3d 0.36's
//! `CollisionPipeline`, on the very same scenes (`sepax_testkit::scenes`), in the same
//! criterion group, both on 2 threads.
//!
//! `cargo bench -p sepax-benches --bench step -- --warm-up-time 1 --measurement-time 3`
//!
//! One iteration = one frame: every moving body gets its pose for the next frame
//! (`set_poses` / `Collider::set_position`), then the step runs; only that is timed.
//! The scene's motion (the poses of the frame, a sine and a rotation per body: 0.19 ms
//! for the 10,000-box soup, the same for both sides) is computed before, each side's
//! poses in its own types, outside the timed span (`iter_custom`): it stands for the
//! user's solver, not for either library's work. (Until 3 December 2026 it was timed
//! too.) rapier: colliders without
//! rigid bodies, prediction distance 0, `parallel` feature, run inside a 2-thread rayon
//! pool; moving colliders use `ActiveCollisionTypes::all()` (parent-less colliders count
//! as fixed), static ones the default, so static–static pairs are skipped on both sides.
//!
//! `hull_pile_2k`: 2,000 hulls of 24 points resting in columns on a ground box, each
//! swaying by 0.002 (`scenes::hull_pile`): shallow face contacts whose features stay
//! from frame to frame, as a solver keeps them, where `hulls_2k`'s bodies pass through
//! each other. First run (4 December 2026): sepax 2.15 ms, rapier3d 0.79 ms — sepax
//! 2.7× *slower*, though its warm path answers every pair: each warm pair still clips
//! its two 12-gon faces and reduces the points (about 13,300 instructions a pair,
//! 9,400 of them in `face_contact`; callgrind, `stress --scene hull-pile --bodies 2001
//! --frames 20 --threads 1`), where rapier3d's persistent manifolds update theirs.
//! After the clipper's shortcuts for many-sided faces and the hull's own side planes
//! (4 December, later): sepax 1.39–1.49 ms against 0.63–0.83 ms (four runs), still
//! 1.7–2.3× slower; 11,900 instructions a pair. Not like for like: parry3d 0.31 clips
//! only the first four vertices of a hull face, so rapier3d's manifold for a pile
//! contact is one point near the rim of the 12-gon, sepax's four points spread over it
//! (`benches/examples/pile_contact_vs_parry.rs`). After the replay of kept clips (4–5
//! December, this machine, which is faster): sepax 0.61 ms against rapier3d's
//! 0.76–0.80 ms, 1.25–1.31× faster (two runs, 5 December).
//!
//! `terrain_1k`: 1,000 boxes and capsules on a 20,000-triangle terrain mesh; rapier's
//! mesh is built from the same kept triangles with `TriMeshFlags::FIX_INTERNAL_EDGES`
//! (its own ghost-collision fix, as sepax's mesh removes internal edges).
//!
//! The group `narrow_10k` times only the narrow phase of sepax (from the step's own
//! timings, through `iter_custom`) on soup 10k with 1 and with 2 threads; the group
//! `step_10k_threads` the whole sepax step (`CollisionWorld::step`, the poses set
//! outside the timed span) on the same scene with 1 and with 2 threads (issue 13's
//! "2 threads ≥ 1.8× 1 thread").

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rapier3d::prelude::{
    ActiveCollisionTypes, ColliderBuilder, ColliderHandle, ColliderSet, CollisionPipeline,
    DefaultBroadPhase, IslandManager, NarrowPhase, RigidBodySet, SharedShape,
};
use sepax_benches::to_parry;
use sepax_pipeline::geometry::{Pose, Shape};
use sepax_pipeline::{BodyHandle, CollisionWorld, Config};
use sepax_testkit::scenes::{self, Scene};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A pose as rapier takes it.
type RapierPose = rapier3d::math::Pose;

const THREADS: usize = 2;
/// Frames stepped before measuring, so both sides start warm (pairs found, caches full).
const WARM_FRAMES: u32 = 3;

struct Sepax {
    world: CollisionWorld,
    handles: Vec<BodyHandle>,
    frame: u32,
}

impl Sepax {
    fn new(scene: &Scene, threads: usize) -> Sepax {
        let mut world = CollisionWorld::new(Config {
            threads,
            ..Config::default()
        })
        .unwrap();
        let handles = scene.populate(&mut world).unwrap();
        let mut s = Sepax {
            world,
            handles,
            frame: 0,
        };
        for _ in 0..WARM_FRAMES {
            s.frame(scene);
        }
        s
    }

    fn frame(&mut self, scene: &Scene) -> usize {
        let poses = self.next_poses(scene);
        self.set_and_step(&poses)
    }

    /// The movers' poses of the next frame, with their handles.
    fn next_poses(&mut self, scene: &Scene) -> Vec<(BodyHandle, Pose)> {
        self.frame += 1;
        (scene.mover_poses(self.frame))
            .map(|(i, pose)| (self.handles[i], pose))
            .collect()
    }

    /// One frame's work on the library's side: the poses in, the step.
    fn set_and_step(&mut self, poses: &[(BodyHandle, Pose)]) -> usize {
        let batch = self.world.set_poses(poses.iter().copied());
        assert_eq!(batch.stale, 0);
        self.world.step().contacts.len()
    }
}

/// Criterion's `iter_custom` over frames of `side`: `prepare` untimed, then `run`
/// timed (the prepared input is freed after the timed span).
fn timed_frames<S, T>(
    iters: u64,
    side: &mut S,
    prepare: impl Fn(&mut S) -> T,
    run: impl Fn(&mut S, &T),
) -> Duration {
    let mut spent = Duration::ZERO;
    for _ in 0..iters {
        let input = prepare(side);
        let start = Instant::now();
        run(side, &input);
        spent += start.elapsed();
        drop(input);
    }
    spent
}

struct Rapier {
    pool: rayon::ThreadPool,
    pipeline: CollisionPipeline,
    islands: IslandManager,
    broad: DefaultBroadPhase,
    narrow: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    handles: Vec<ColliderHandle>,
    frame: u32,
}

fn rapier_shape(shape: &Shape) -> SharedShape {
    match shape {
        Shape::Sphere(s) => SharedShape::ball(s.radius()),
        Shape::Capsule(c) => SharedShape::capsule_y(c.half_height(), c.radius()),
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            SharedShape::cuboid(h.x, h.y, h.z)
        }
        Shape::ConvexHull(h) => {
            let points: Vec<_> = h
                .vertices()
                .iter()
                .map(|v| rapier3d::math::Vector::new(v.x, v.y, v.z))
                .collect();
            SharedShape::convex_hull(&points).expect("a sepax hull is a valid rapier hull")
        }
        Shape::TriMesh(m) => SharedShape::new(to_parry::trimesh(m)),
    }
}

impl Rapier {
    fn new(scene: &Scene) -> Rapier {
        let mut colliders = ColliderSet::new();
        let handles = (0..scene.len())
            .map(|i| {
                let types = if scene.is_moving(i) {
                    ActiveCollisionTypes::all()
                } else {
                    ActiveCollisionTypes::default()
                };
                let builder = ColliderBuilder::new(rapier_shape(&scene.bodies[i].shape))
                    .position(to_parry::pose(&scene.pose(i, 0)))
                    .active_collision_types(types);
                colliders.insert(builder)
            })
            .collect();
        let mut r = Rapier {
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(THREADS)
                .build()
                .unwrap(),
            pipeline: CollisionPipeline::new(),
            islands: IslandManager::new(),
            broad: DefaultBroadPhase::new(),
            narrow: NarrowPhase::new(),
            bodies: RigidBodySet::new(),
            colliders,
            handles,
            frame: 0,
        };
        for _ in 0..WARM_FRAMES {
            r.frame(scene);
        }
        r
    }

    fn frame(&mut self, scene: &Scene) {
        let poses = self.next_poses(scene);
        self.set_and_step(&poses);
    }

    /// The movers' poses of the next frame in rapier's type, with their handles.
    fn next_poses(&mut self, scene: &Scene) -> Vec<(ColliderHandle, RapierPose)> {
        self.frame += 1;
        (scene.mover_poses(self.frame))
            .map(|(i, pose)| (self.handles[i], to_parry::pose(&pose)))
            .collect()
    }

    /// One frame's work on the library's side: the poses in, the step.
    fn set_and_step(&mut self, poses: &[(ColliderHandle, RapierPose)]) {
        for &(handle, pose) in poses {
            if let Some(c) = self.colliders.get_mut(handle) {
                c.set_position(pose);
            }
        }
        let Rapier {
            pool,
            pipeline,
            islands,
            broad,
            narrow,
            bodies,
            colliders,
            ..
        } = self;
        pool.install(|| {
            pipeline.step(0.0, islands, broad, narrow, bodies, colliders, &(), &());
        });
    }

    fn touching(&self) -> usize {
        self.narrow
            .contact_pairs()
            .filter(|p| p.has_any_active_contact())
            .count()
    }
}

fn cases() -> Vec<(&'static str, Scene)> {
    vec![
        ("soup_1k", scenes::soup(1_000, 1)),
        ("soup_10k", scenes::soup(10_000, 1)),
        ("soup_50k", scenes::soup(50_000, 1)),
        ("hulls_2k", scenes::hulls(2_000, 1)),
        ("hull_pile_2k", scenes::hull_pile(2_001, 1)),
        ("static_heavy_51k", scenes::static_heavy(50_000, 1_000, 1)),
        ("terrain_1k", scenes::terrain(1_000, 1)),
    ]
}

fn bench_step(c: &mut Criterion) {
    for (name, scene) in cases() {
        let mut group = c.benchmark_group(format!("step_{name}"));
        group.sample_size(10);
        let mut sepax = Sepax::new(&scene, THREADS);
        let mut rapier = Rapier::new(&scene);
        // Same scene, same frame: say how many pairs each side finds touching.
        eprintln!(
            "{name}: touching pairs at frame {WARM_FRAMES}: sepax {}, rapier3d {}",
            sepax.world.report().contacts.len(),
            rapier.touching()
        );
        group.bench_function(BenchmarkId::new("sepax", THREADS), |b| {
            b.iter_custom(|iters| {
                timed_frames(
                    iters,
                    &mut sepax,
                    |s| s.next_poses(&scene),
                    |s, poses| {
                        black_box(s.set_and_step(poses));
                    },
                )
            })
        });
        group.bench_function(BenchmarkId::new("rapier3d", THREADS), |b| {
            b.iter_custom(|iters| {
                timed_frames(
                    iters,
                    &mut rapier,
                    |r| r.next_poses(&scene),
                    |r, poses| r.set_and_step(poses),
                )
            })
        });
        group.finish();
    }
}

fn bench_narrow_threads(c: &mut Criterion) {
    let scene = scenes::soup(10_000, 1);
    let mut group = c.benchmark_group("narrow_10k");
    group.sample_size(10);
    for threads in [1, 2] {
        let mut sepax = Sepax::new(&scene, threads);
        group.bench_function(BenchmarkId::new("sepax_threads", threads), |b| {
            b.iter_custom(|iters| {
                let mut narrow = Duration::ZERO;
                let start = Instant::now();
                for _ in 0..iters {
                    sepax.frame(&scene);
                    narrow += sepax.world.report().timings.narrow;
                }
                black_box(start.elapsed());
                narrow
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("step_10k_threads");
    group.sample_size(10);
    for threads in [1, 2] {
        let mut sepax = Sepax::new(&scene, threads);
        group.bench_function(BenchmarkId::new("sepax_threads", threads), |b| {
            // The step alone: the poses are set outside the timed span.
            b.iter_custom(|iters| {
                let prepare = |s: &mut Sepax| {
                    s.frame += 1;
                    scene.apply(&mut s.world, &s.handles, s.frame).unwrap();
                };
                timed_frames(iters, &mut sepax, prepare, |s, _| {
                    black_box(s.world.step().contacts.len());
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_step, bench_narrow_threads);
criterion_main!(benches);
