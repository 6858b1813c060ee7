//! Stacks that must stand on sepax's manifolds (issue 8, item 8): a tower of 10
//! equal unit cubes and a 10-row pyramid (55 cubes), 10 s at 60 Hz with the
//! example solver's defaults (10 iterations + 2 relax passes, warm-started through
//! `previous` / `previous_points`). The alternating tower (1.0 / 0.9 m wide cubes,
//! no flush equal faces) is the control: it guards the solver itself.
//!
//! Each run asserts:
//! * **the top body drifts < 2 cm** sideways;
//! * **every body is slow over the last second**: `|v| < 0.05 m/s` and
//!   `|ω| < 0.05 rad/s`. At rest this solver leaves ~1e-3 m/s; gravity alone adds
//!   g·dt = 0.16 m/s in a frame whose contacts fail to hold, and a body creeping at
//!   0.05 m/s moves 5 cm a second, a visible slide;
//! * **≥ 99 % of points persist** over the last 5 s: among points of pairs that were
//!   in contact the frame before, those with `previous_points[i]` set; and ≥ 99 % of
//!   those keep their feature id (not only a nearby anchor: a solver that matches by
//!   id alone must keep its warm start too);
//! * **no point deeper than 2 cm** over the last 5 s: slop (5 mm) plus the soft
//!   contact's static give (≈ n·g/ω² = 2.8 mm under 10 boxes) is ≈ 1 cm.
//!
//! What a failure says about the manifolds:
//! * **persistence below 99 %**: feature ids renew (and anchors move beyond the match
//!   distance) between frames on resting faces; the renewed points start from zero
//!   impulse, warm starting is lost, 10 passes cannot carry the stack's weight
//!   down, and the tower sinks and creeps. Then **drift** fails next.
//! * **drift or speed** with good persistence: the normal flips between the two
//!   faces' references (a body pushed the long way, sideways kicks), or points jump
//!   between clip configurations so lever arms change every frame and the stack
//!   rocks.
//! * **depth**: the reduction lost the deepest point, and the body sinks at that
//!   corner until it is deep enough to be picked again.

use sepax_examples::stacking::stats::ManifoldStats;
use sepax_examples::stacking::{Simulation, SolverConfig};
use sepax_testkit::stacks::{self, StackScene};

const FRAMES: usize = 600;
/// The statistics count from here on (the last 5 s).
const SETTLED: usize = 300;
/// The speed check covers the last second.
const LAST_SECOND: usize = FRAMES - 60;

struct Outcome {
    drift: f32,
    max_speed: f32,
    max_angular_speed: f32,
    settled: ManifoldStats,
}

fn run(scene: &StackScene) -> Outcome {
    let mut sim = Simulation::new(scene, SolverConfig::default(), 1).expect("a valid scene");
    let (mut max_speed, mut max_angular_speed) = (0.0f32, 0.0f32);
    let mut settled = ManifoldStats::default();
    for frame in 0..FRAMES {
        let stats = sim.step().expect("the scene's own bodies");
        if frame >= SETTLED {
            settled.merge(&stats.manifolds);
        }
        if frame >= LAST_SECOND {
            max_speed = max_speed.max(sim.max_speed());
            max_angular_speed = max_angular_speed.max(sim.max_angular_speed());
        }
    }
    Outcome {
        drift: sim.drift(sim.top()),
        max_speed,
        max_angular_speed,
        settled,
    }
}

fn assert_stands(name: &str, o: &Outcome) {
    let m = &o.settled;
    let summary = format!(
        "{name}: top drift {:.1} mm, last-second |v| {:.4} m/s |ω| {:.4} rad/s, \
         persistence {:.2} % ({} of {} points; same id {:.2} %), deepest {:.1} mm, \
         largest normal turn {:.3}°",
        o.drift * 1e3,
        o.max_speed,
        o.max_angular_speed,
        m.persistence() * 100.0,
        m.persisted,
        m.continuing,
        m.id_persistence() * 100.0,
        m.max_depth * 1e3,
        m.max_normal_turn.to_degrees(),
    );
    println!("{summary}");
    assert!(m.continuing > 0, "{summary}: no resting contacts counted");
    assert!(m.persistence() >= 0.99, "points renew: {summary}");
    assert!(m.id_persistence() >= 0.99, "feature ids renew: {summary}");
    assert!(o.drift < 0.02, "the top body drifted: {summary}");
    assert!(o.max_speed < 0.05, "a body keeps moving: {summary}");
    assert!(
        o.max_angular_speed < 0.05,
        "a body keeps turning: {summary}"
    );
    assert!(m.max_depth < 0.02, "a body sinks: {summary}");
}

/// The case the narrow phase's flush-face fixes are for: equal 1 m faces, exactly
/// aligned, where every clip is a tie.
#[test]
fn tower_of_ten_equal_cubes_stands() {
    assert_stands("tower(10)", &run(&stacks::tower(10)));
}

/// 55 cubes, each on two: many pairs share a body, the weight spreads sideways.
#[test]
fn pyramid_of_ten_rows_stands() {
    assert_stands("pyramid(10)", &run(&stacks::pyramid(10)));
}

/// The control: no two touching faces are equal, so clipping has no ties. If this
/// fails, the solver is wrong, not the manifolds.
#[test]
fn alternating_tower_stands() {
    assert_stands("alternating(10)", &run(&stacks::alternating_tower(10)));
}
