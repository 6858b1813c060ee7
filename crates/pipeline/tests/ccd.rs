//! Issue 11, part 4: fast bodies in the world. Small boxes, spheres, capsules and
//! hulls fired at thin static walls at 10–100 times their size per step, in random
//! directions, judged by the fine-stepping twin (`sepax_testkit::ccd::first_overlap`,
//! 1,000 sub-steps of `intersects`): every body that overlaps a wall at some sub-step
//! of the step (and not at its start) gets a CCD hit or a touching contact with that
//! wall in that step, and a hit's time is never after the first overlapping sub-step.

use glam::{Quat, Vec3};
use sepax_pipeline::geometry::rng::Rng;
use sepax_pipeline::geometry::{Capsule, Cuboid, Pose, Shape, Sphere, TriMesh};
use sepax_pipeline::{
    BodyDesc, BodyHandle, CcdHit, CollisionWorld, Config, StepReport, WorldError,
};
use sepax_testkit::ccd::{SUB_STEPS, first_overlap};
use sepax_testkit::shapes::ball_hull;
use std::collections::HashMap;

/// A hit may come this much after the first overlapping sub-step: the round-off of
/// `intersects` on a contact the cast stops just short of (`1e-5` of a step is a
/// hundredth of a sub-step).
const TIME_SLACK: f32 = 1e-5;

/// A thin wall: 0.05 thick, 6 × 6.
fn wall() -> Shape {
    Cuboid::try_from_half_extents(Vec3::new(0.025, 3.0, 3.0))
        .unwrap()
        .into()
}

/// A small shape of 0.1–0.3 across: box, sphere, capsule and hull in turn.
fn bullet(rng: &mut Rng, k: usize) -> Shape {
    match k % 4 {
        0 => Cuboid::try_from_size(rng.vec3(Vec3::splat(0.1), Vec3::splat(0.3)))
            .unwrap()
            .into(),
        1 => Sphere::try_new(rng.range(0.05, 0.15)).unwrap().into(),
        2 => Capsule::try_new(rng.range(0.03, 0.1), rng.range(0.03, 0.08))
            .unwrap()
            .into(),
        _ => Shape::from(std::sync::Arc::new(ball_hull(rng, 12, 0.05, 0.15))),
    }
}

/// One round of shots: each bullet's start and end pose.
struct Round {
    shots: Vec<(Pose, Pose)>,
}

/// Walls at random places and turns, and bullets fired at them: each shot aims at a
/// random point of a random wall, from a random direction at least 17° off the
/// wall's plane, covers 10–100 times the bullet's size in the step, starts 10–90% of
/// that before the wall, and turns by up to 1 rad on the way.
struct Plan {
    walls: Vec<Pose>,
    bullets: Vec<Shape>,
    rounds: Vec<Round>,
}

fn plan(seed: u64, walls: usize, bullets: usize, rounds: usize) -> Plan {
    let mut rng = Rng::new(seed);
    let walls: Vec<Pose> = (0..walls)
        .map(|_| {
            Pose::new(
                rng.vec3(Vec3::splat(-8.0), Vec3::splat(8.0)),
                rng.rotation(),
            )
        })
        .collect();
    let shapes: Vec<Shape> = (0..bullets).map(|k| bullet(&mut rng, k)).collect();
    let rounds = (0..rounds)
        .map(|_| Round {
            shots: shapes
                .iter()
                .map(|shape| {
                    let w = walls[rng.below(walls.len())];
                    let target = w.transform_point(Vec3::new(
                        0.0,
                        rng.range(-2.8, 2.8),
                        rng.range(-2.8, 2.8),
                    ));
                    let normal = w.transform_vector(Vec3::X);
                    let dir = loop {
                        let d = rng.unit_vec3();
                        if d.dot(normal).abs() > 0.3 {
                            break d;
                        }
                    };
                    let travel = 2.0 * shape.bounding_radius() * rng.range(10.0, 100.0);
                    let start = target - dir * travel * rng.range(0.1, 0.9);
                    let from = Pose::new(start, rng.rotation());
                    let turn = Quat::from_axis_angle(rng.unit_vec3(), rng.range(0.0, 1.0));
                    let to = Pose::new(start + dir * travel, (turn * from.rotation).normalize());
                    (from, to)
                })
                .collect(),
        })
        .collect();
    Plan {
        walls,
        bullets: shapes,
        rounds,
    }
}

/// What the check of one step found.
#[derive(Debug, Default)]
struct Tally {
    /// Bullet–wall pairs overlapping at some sub-step but not at the start.
    crossings: usize,
    /// Of those, reported by a hit, and by a touching contact.
    by_hit: usize,
    by_contact: usize,
    /// Hits of pairs the twin never saw overlap (a near miss within the cast's
    /// tolerance, or a touch between two sub-steps).
    near_misses: usize,
}

/// Checks one step's report against the twin for every bullet–wall pair.
fn check(
    report: &StepReport,
    plan: &Plan,
    shots: &[(Pose, Pose)],
    walls: &[BodyHandle],
    bullets: &[BodyHandle],
    tally: &mut Tally,
) {
    let hits: HashMap<(BodyHandle, BodyHandle), &CcdHit> =
        report.ccd_hits.iter().map(|h| ((h.a, h.b), h)).collect();
    let touching: std::collections::HashSet<(BodyHandle, BodyHandle)> = report
        .contacts
        .iter()
        .filter(|c| c.touching)
        .map(|c| (c.a, c.b))
        .collect();
    let wall_shape = wall();
    for (i, (&b, (from, to))) in bullets.iter().zip(shots).enumerate() {
        for (&w, pose) in walls.iter().zip(&plan.walls) {
            let key = (w.min(b), w.max(b));
            let first = first_overlap(
                &plan.bullets[i],
                from,
                to,
                &wall_shape,
                pose,
                pose,
                SUB_STEPS,
            );
            let hit = hits.get(&key);
            match first {
                Some(0) => continue,
                None => {
                    tally.near_misses += usize::from(hit.is_some());
                    continue;
                }
                Some(k) => {
                    tally.crossings += 1;
                    if let Some(hit) = hit {
                        let first_time = k as f32 / SUB_STEPS as f32;
                        assert!(
                            hit.time <= first_time + TIME_SLACK,
                            "bullet {i}: hit at {} after the first overlap at {first_time}",
                            hit.time
                        );
                        assert!((0.0..=1.0).contains(&hit.time));
                        assert!((hit.normal.length() - 1.0).abs() < 1e-4);
                        tally.by_hit += 1;
                    } else {
                        assert!(
                            touching.contains(&key),
                            "bullet {i} ({:?}) crossed wall {} at sub-step {k} unreported: {from:?} → {to:?}",
                            plan.bullets[i],
                            w.index()
                        );
                        tally.by_contact += 1;
                    }
                }
            }
        }
    }
}

/// A world with the plan's walls and bullets (CCD on or off); the handles.
fn world_of(
    plan: &Plan,
    config: Config,
    ccd: bool,
) -> (CollisionWorld, Vec<BodyHandle>, Vec<BodyHandle>) {
    let mut world = CollisionWorld::new(config).unwrap();
    let walls = plan
        .walls
        .iter()
        .map(|&p| world.insert(BodyDesc::fixed(wall(), p)).unwrap())
        .collect();
    let start = &plan.rounds[0].shots;
    let bullets = plan
        .bullets
        .iter()
        .zip(start)
        .map(|(s, (from, _))| {
            let desc = BodyDesc {
                ccd,
                ..BodyDesc::dynamic(s.clone(), *from)
            };
            world.insert(desc).unwrap()
        })
        .collect();
    (world, walls, bullets)
}

/// Runs every round (teleport to the starts, step, move to the ends, step) and
/// returns the reports of the moving steps.
fn run(
    plan: &Plan,
    config: Config,
    ccd: bool,
) -> (Vec<StepReport>, Vec<BodyHandle>, Vec<BodyHandle>) {
    let (mut world, walls, bullets) = world_of(plan, config, ccd);
    let mut reports = Vec::new();
    for round in &plan.rounds {
        for (&b, (from, _)) in bullets.iter().zip(&round.shots) {
            world.teleport(b, *from).unwrap();
        }
        let r = world.step();
        assert!(r.ccd_hits.is_empty(), "a teleport sweeps nothing");
        let batch = world.set_poses(bullets.iter().copied().zip(round.shots.iter().map(|s| s.1)));
        assert!(batch.all_applied());
        reports.push(world.step().clone());
    }
    (reports, walls, bullets)
}

#[test]
fn issue_11_fast_bodies_through_thin_walls_are_never_missed() {
    let plan = plan(20261123, 6, 400, 4);
    let config = Config {
        threads: 2,
        ..Config::default()
    };
    let (reports, walls, bullets) = run(&plan, config, true);
    let mut tally = Tally::default();
    for (report, round) in reports.iter().zip(&plan.rounds) {
        assert_eq!(report.ccd_skipped, 0);
        check(report, &plan, &round.shots, &walls, &bullets, &mut tally);
    }
    println!("{tally:?}");
    assert!(tally.crossings >= 1_000, "{tally:?}");
    assert!(tally.by_hit > 10 * tally.by_contact, "{tally:?}");
    assert!(tally.near_misses * 100 <= tally.crossings, "{tally:?}");
}

/// The same shots with a contact margin: speculative contacts at the end pose do not
/// hide a crossing (such pairs are cast too).
#[test]
fn issue_11_crossings_are_found_with_a_margin() {
    let plan = plan(7, 4, 200, 2);
    let config = Config {
        threads: 1,
        margin: 0.02,
        ..Config::default()
    };
    let (reports, walls, bullets) = run(&plan, config, true);
    let mut tally = Tally::default();
    for (report, round) in reports.iter().zip(&plan.rounds) {
        check(report, &plan, &round.shots, &walls, &bullets, &mut tally);
    }
    assert!(tally.crossings >= 200, "{tally:?}");
}

/// Without the flag the same shots pass through unseen: the scene does test CCD.
#[test]
fn without_the_flag_most_crossings_are_missed() {
    let plan = plan(20261123, 6, 400, 1);
    let (reports, _, _) = run(&plan, Config::default(), false);
    let report = &reports[0];
    assert!(report.ccd_hits.is_empty());
    // At most the bullets ending inside a wall touch it.
    assert!(report.contacts.len() < 40, "{}", report.contacts.len());
}

/// The hits' bits for 1, 2 and 4 threads and small chunks: all equal; sorted by key,
/// and never a pair that touches at the end.
#[test]
fn hits_are_bitwise_the_same_for_any_thread_count() {
    let plan = plan(99, 5, 300, 3);
    let bits = |threads: usize| -> Vec<Vec<[u32; 11]>> {
        let config = Config {
            threads,
            narrow_chunk: 16,
            ..Config::default()
        };
        let (reports, _, _) = run(&plan, config, true);
        reports
            .iter()
            .map(|r| {
                let keys: Vec<_> = r
                    .ccd_hits
                    .iter()
                    .map(|h| (h.a.index(), h.b.index()))
                    .collect();
                assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted, unique");
                for c in r.contacts.iter().filter(|c| c.touching) {
                    assert!(keys.binary_search(&(c.a.index(), c.b.index())).is_err());
                }
                r.ccd_hits
                    .iter()
                    .map(|h| {
                        let v = |v: Vec3| v.to_array().map(f32::to_bits);
                        let [nx, ny, nz] = v(h.normal);
                        let [ax, ay, az] = v(h.point_a);
                        let [bx, by, bz] = v(h.point_b);
                        [
                            h.a.index(),
                            h.b.index(),
                            h.time.to_bits(),
                            nx,
                            ny,
                            nz,
                            ax,
                            ay,
                            az,
                            bx,
                            by,
                        ]
                        .map(|x| x ^ bz.rotate_left(7))
                    })
                    .collect()
            })
            .collect()
    };
    let one = bits(1);
    assert!(one.iter().map(Vec::len).sum::<usize>() > 200);
    assert_eq!(bits(2), one, "2 threads");
    assert_eq!(bits(4), one, "4 threads");
}

/// CCD adds hits and never changes the contacts of pairs without a CCD body: the
/// same moving soup with and without fast CCD bullets among it.
#[test]
fn pairs_without_a_ccd_body_are_unchanged() {
    let scene = sepax_testkit::scenes::soup(300, 5);
    let plan = plan(3, 3, 60, 3);
    let contacts = |with_bullets: bool| {
        let mut world = CollisionWorld::new(Config::default()).unwrap();
        let handles = scene.populate(&mut world).unwrap();
        let bullets: Vec<BodyHandle> = if with_bullets {
            plan.bullets
                .iter()
                .zip(&plan.rounds[0].shots)
                .map(|(s, (from, _))| {
                    let desc = BodyDesc {
                        ccd: true,
                        ..BodyDesc::dynamic(s.clone(), *from)
                    };
                    world.insert(desc).unwrap()
                })
                .collect()
        } else {
            Vec::new()
        };
        let (mut out, mut hits) = (Vec::new(), 0);
        for (frame, round) in plan.rounds.iter().enumerate() {
            scene.apply(&mut world, &handles, frame as u32).unwrap();
            let batch =
                world.set_poses(bullets.iter().copied().zip(round.shots.iter().map(|s| s.1)));
            assert!(batch.all_applied());
            let r = world.step();
            hits += r.ccd_hits.len();
            out.push(
                r.contacts
                    .iter()
                    .filter(|c| c.a.index() < 300 && c.b.index() < 300)
                    // Not `previous`: an index into the step's contacts, which the
                    // bullets' contacts shift.
                    .map(|c| {
                        format!(
                            "{:?}",
                            (c.a.index(), c.b.index(), &c.manifold, c.previous_points)
                        )
                    })
                    .collect::<Vec<_>>(),
            );
        }
        (out, hits)
    };
    let ((with, hits), (without, none)) = (contacts(true), contacts(false));
    assert!(hits > 10 && none == 0, "{hits} hits");
    for (f, (w, o)) in with.iter().zip(&without).enumerate() {
        assert_eq!(w.len(), o.len(), "frame {f}: number of contacts");
        for (x, y) in w.iter().zip(o) {
            assert!(x == y, "frame {f}:\n{x}\n{y}");
        }
    }
}

/// `teleport` jumps (no hit), `set_pose` moves (a hit); a step without motion after
/// a sweep has no hit and gives the body its plain box back.
#[test]
fn teleports_jump_and_resting_steps_unsweep() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    world
        .insert(BodyDesc::fixed(wall(), Pose::IDENTITY))
        .unwrap();
    let cube = Cuboid::try_from_half_extents(Vec3::splat(0.1)).unwrap();
    let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0));
    let bullet = world
        .insert(BodyDesc {
            ccd: true,
            ..BodyDesc::dynamic(cube, at(-2.0))
        })
        .unwrap();
    assert!(world.step().ccd_hits.is_empty());
    world.teleport(bullet, at(2.0)).unwrap();
    assert!(world.step().ccd_hits.is_empty(), "a teleport is no motion");
    world.set_pose(bullet, at(-2.0)).unwrap();
    let r = world.step();
    assert_eq!(r.ccd_hits.len(), 1);
    assert!(
        (r.ccd_hits[0].normal - Vec3::X).length() < 1e-4,
        "wall → bullet, moving -x"
    );
    let swept = world.aabb(bullet).unwrap().unwrap();
    assert!(swept.max.x > 1.9 && swept.min.x < -1.9);
    // Nothing moves: no hit, and the plain box again.
    let r = world.step();
    assert!(r.ccd_hits.is_empty());
    let plain = world.aabb(bullet).unwrap().unwrap();
    assert!(plain.max.x < -1.8);
    // Then a resting step proper.
    assert!(world.step().ccd_hits.is_empty());
    // The flag off: the same motion is not reported.
    world.set_ccd(bullet, false).unwrap();
    assert!(!world.ccd(bullet).unwrap());
    world.set_pose(bullet, at(2.0)).unwrap();
    let r = world.step();
    assert!(r.ccd_hits.is_empty() && r.contacts.is_empty());
    // Handles: the world's usual errors.
    world.remove(bullet).unwrap();
    assert_eq!(
        world.set_ccd(bullet, true),
        Err(WorldError::StaleHandle(bullet))
    );
    assert_eq!(world.ccd(bullet), Err(WorldError::StaleHandle(bullet)));
    assert_eq!(
        world.teleport(bullet, at(0.0)),
        Err(WorldError::StaleHandle(bullet))
    );
}

/// The flag set on a body that already took part in steps: its next motion is swept
/// (the world starts keeping last-step poses with the first flag, from the poses the
/// last step saw).
#[test]
fn a_flag_set_later_sweeps_the_next_motion() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let w = world
        .insert(BodyDesc::fixed(wall(), Pose::IDENTITY))
        .unwrap();
    let cube = Cuboid::try_from_half_extents(Vec3::splat(0.1)).unwrap();
    let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0));
    let bullet = world.insert(BodyDesc::dynamic(cube, at(-2.0))).unwrap();
    world.step();
    world.step();
    world.set_ccd(bullet, true).unwrap();
    world.set_pose(bullet, at(2.0)).unwrap();
    let r = world.step();
    assert_eq!(r.ccd_hits.len(), 1);
    assert_eq!((r.ccd_hits[0].a, r.ccd_hits[0].b), (w, bullet));
    assert!((r.ccd_hits[0].time - 1.875 / 4.0).abs() < 1e-4);
}

/// A kinematic CCD body (a fast door) sweeps through a dynamic box: a hit; static
/// walls are not its pairs (the kind rule), so none there.
#[test]
fn kinematic_ccd_bodies_hit_dynamic_ones() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    world
        .insert(BodyDesc::fixed(wall(), Pose::IDENTITY))
        .unwrap();
    let cube = Cuboid::try_from_half_extents(Vec3::splat(0.2)).unwrap();
    let crate_ = world
        .insert(BodyDesc::dynamic(
            cube,
            Pose::from_translation(Vec3::new(0.0, 0.0, 4.0)),
        ))
        .unwrap();
    let door = world
        .insert(BodyDesc {
            ccd: true,
            ..BodyDesc::kinematic(wall(), Pose::from_translation(Vec3::new(-3.0, 0.0, 4.0)))
        })
        .unwrap();
    world.step();
    world
        .set_pose(door, Pose::from_translation(Vec3::new(3.0, 0.0, 4.0)))
        .unwrap();
    let r = world.step();
    assert_eq!(r.ccd_hits.len(), 1, "{:?}", r.ccd_hits);
    assert_eq!((r.ccd_hits[0].a, r.ccd_hits[0].b), (crate_, door));
}

/// A CCD body through a static mesh floor is a hit (from above, and from below through
/// its back: casts against meshes are two-sided); a NaN pose is quarantined, never
/// panics, and does not sweep when it comes back.
#[test]
fn meshes_are_cast_and_bad_poses_quarantined() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    let floor = TriMesh::try_new(
        vec![
            Vec3::new(-5.0, 0.0, -5.0),
            Vec3::new(5.0, 0.0, -5.0),
            Vec3::new(5.0, 0.0, 5.0),
            Vec3::new(-5.0, 0.0, 5.0),
        ],
        vec![[0, 2, 1], [0, 3, 2]],
    )
    .unwrap();
    world
        .insert(BodyDesc::fixed(floor, Pose::IDENTITY))
        .unwrap();
    let ball = Sphere::try_new(0.1).unwrap();
    let b = world
        .insert(BodyDesc {
            ccd: true,
            ..BodyDesc::dynamic(ball, Pose::from_translation(Vec3::Y * 3.0))
        })
        .unwrap();
    world.step();
    world
        .set_pose(b, Pose::from_translation(-Vec3::Y * 3.0))
        .unwrap();
    let r = world.step();
    assert_eq!(r.ccd_skipped, 0);
    assert_eq!(r.ccd_hits.len(), 1, "{:?}", r.ccd_hits);
    let hit = r.ccd_hits[0];
    // The ball (radius 0.1) falls from y = 3 to y = -3: its bottom meets the floor
    // at y = 0.1, 2.9 / 6 of the way.
    assert!((hit.time - 2.9 / 6.0).abs() < 1e-4, "{hit:?}");
    world.step();
    world
        .set_pose(b, Pose::from_translation(Vec3::Y * 3.0))
        .unwrap();
    let r = world.step();
    assert_eq!(r.ccd_hits.len(), 1, "from below: {:?}", r.ccd_hits);
    world
        .set_pose(b, Pose::from_translation(-Vec3::Y * 3.0))
        .unwrap();
    world.step();
    world
        .set_pose(b, Pose::from_translation(Vec3::NAN))
        .unwrap();
    assert_eq!(world.step().quarantined.len(), 1);
    world
        .set_pose(b, Pose::from_translation(Vec3::Y * 3.0))
        .unwrap();
    let r = world.step();
    assert!(
        r.quarantined.is_empty() && r.ccd_skipped == 0,
        "no sweep from a bad pose"
    );
}

/// Extreme motions never panic: across most of the f32 range (the velocity may
/// overflow: the cast refuses it, counted), and with rotations up to the 1e-3 off unit
/// length the world accepts (still a hit).
#[test]
fn extreme_motions_never_panic() {
    let mut world = CollisionWorld::new(Config::default()).unwrap();
    world
        .insert(BodyDesc::fixed(wall(), Pose::IDENTITY))
        .unwrap();
    let ball = Sphere::try_new(0.1).unwrap();
    let at = |x: f32| Pose::from_translation(Vec3::new(x, 0.0, 0.0));
    let b = world
        .insert(BodyDesc {
            ccd: true,
            ..BodyDesc::dynamic(ball, at(-1.0))
        })
        .unwrap();
    world.step();
    for x in [1e38, -1e38, 3e38, -3e38, f32::MAX, -f32::MAX, 0.5, -2.0] {
        world.set_pose(b, at(x)).unwrap();
        let r = world.step();
        assert!(r.ccd_hits.iter().all(|h| (0.0..=1.0).contains(&h.time)));
    }
    // Slightly off unit rotations (accepted by the world): the sweep's slack covers
    // the cast's renormalised poses.
    let cube = Cuboid::try_from_half_extents(Vec3::new(0.3, 0.05, 0.05)).unwrap();
    let tilted = |x: f32, angle: f32| {
        Pose::new(
            Vec3::new(x, 0.0, 0.0),
            Quat::from_rotation_z(angle) * 1.0009,
        )
    };
    let c = world
        .insert(BodyDesc {
            ccd: true,
            ..BodyDesc::dynamic(cube, tilted(-3.0, 0.0))
        })
        .unwrap();
    world.step();
    world.set_pose(c, tilted(3.0, 2.0)).unwrap();
    let r = world.step();
    assert!(r.ccd_hits.iter().any(|h| h.b == c), "{:?}", r.ccd_hits);
}
