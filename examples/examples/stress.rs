//! The main job: step a scene for a number of frames and report per-stage times.
//!
//! ```text
//! cargo run --release --example stress -- [--scene soup|hulls|static-heavy|pile|hull-pile|large-world|terrain|ccd]
//!     [--bodies N] [--frames N] [--threads N] [--seed N] [--resting N] [--check] [--per-frame]
//!     [--pool own|caller|caller-asleep]
//! ```
//!
//! Defaults: soup, 10,000 bodies (51,000 for static-heavy: 50,000 static + 1,000
//! moving; 1,000,100 for large-world: 1,000,000 static + 100 moving; 1,001 for terrain:
//! one 20,000-triangle mesh + 1,000 boxes and capsules; 1,010 for ccd: 10 thin walls +
//! 1,000 fast boxes with CCD on), 60 frames, one
//! thread per core. Prints the insertion cost (the `insert` calls, then the first step,
//! which computes every AABB and builds the static tree), the memory, a per-stage
//! table (median, mean and max over the frames after 5 warm-up frames: the mean counts
//! the rare costly frames, such as the broad phase's full sweeps, that the median
//! leaves out), the pair counts (candidates, touching, the pairs the narrow phase's warm
//! path kept: `StepReport::kept_pairs`, contact points), then as its last line one JSON
//! object: the stages' medians, and the step's and the broad phase's means
//! (`step_mean_ms`, `broad_mean_ms`).
//!
//! The `step` row is the step's own time (`StepReport::timings`, measured on the thread
//! that runs it); the `call` row (`call_ms`) is the wall time `world.step()` took for
//! the caller, which adds handing the step to the world's pool and getting the report
//! back. On the 2-core machine of 2 December 2026, `--scene large-world` gave `call`
//! 33 µs against `step` 28 µs on two threads. With `--threads 1` the world has no pool
//! (the step runs on the caller's thread) and the rows agree, 29–30 µs on 3 December;
//! handed to a one-thread pool, whose thread slept between steps, it was 101–108 µs.
//!
//! `--pool caller` steps the world on a rayon pool of the example's own, as an engine
//! with its pool would: the world is made with one thread (no pool of its own), and
//! each frame calls `wake_ahead_in(&pool)`, sets the poses and calls `step_in(&pool)`
//! (`--threads` threads in that pool, one per core by default). `--pool
//! caller-asleep` does the same without `wake_ahead_in`: the pool's threads are woken
//! by the step itself. The default, `own`, is `set_poses` and `step` on the world's
//! own pool. On the 2-core machine (3 December 2026; `--threads 2`, six runs of each
//! alternated, geometric means of the `call` medians): soup of 1,000 boxes (1,500
//! frames) `caller` 0.230 ms, `caller-asleep` 0.278, `own` 0.266; soup of 10,000
//! (200 frames) 2.23, 2.34 and 2.35 ms.
//!
//! Memory is the process's resident set size as Linux reports it in
//! `/proc/self/status` (`VmRSS` after the first step, `VmHWM` its peak at the end):
//! the scene's own data (about 60 bytes a body) is included; elsewhere it prints "n/a".
//!
//! `--resting N`: after each moving frame come `N` resting frames, in which every
//! moving body gets its pose again with the same bits (`set_poses`), and the table
//! shows moving and resting frames apart (medians of each, from the same run). On a
//! moving frame, each moving body gets the scene's pose nudged by 1e-4 along y on
//! every other moving frame, so that scenes whose bodies keep still (`pile`) move too.
//!
//! In a scene with CCD bodies (`ccd`), the table has a `ccd` row (the step's CCD pass:
//! the casts; the swept boxes are in `aabb` and `broad`), and a line counts the wall
//! crossings (a CCD body's origin went through a static body in a step), how many
//! the steps reported (a CCD hit or a touching contact) and how many they missed
//! (`sepax_examples::ccd`); any miss makes the exit status 1.
//!
//! `--per-frame` prints every frame's stage times (ms) and pair counts before the table,
//! the warm-up frames marked `w`: the costly frames the medians leave out, and when
//! they come. On the 10,000-box soup, for instance, the broad phase takes about 0.5 ms
//! a frame but 2–3 ms every twelfth one (a full sweep: the movers that left their fat
//! boxes since the last one passed `MAX_PATCHED_ESCAPES`' allowance).
//!
//! `--check` compares every frame with the oracles (brute-force pairs, f64 SAT) and
//! exits with status 1 on a mismatch. The brute force tests every dynamic body against
//! every body when dynamic bodies are few (large-world: 10⁸ box tests a frame), every
//! pair otherwise. In a scene with CCD bodies it also runs the fine-stepping twin
//! (1,000 sub-steps of `intersects` per CCD body and wall the motion comes near): every
//! pair that overlaps within a step must be reported, with a hit time no later than
//! the first overlapping sub-step.

use glam::Vec3;
use sepax_examples::args::Args;
use sepax_examples::ccd::CcdJudge;
use sepax_examples::check::Checker;
use sepax_pipeline::geometry::Pose;
use sepax_pipeline::{BodyHandle, CollisionWorld, Config, rayon};
use sepax_testkit::scenes::{self, Scene};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: stress [--scene soup|hulls|static-heavy|pile|hull-pile|large-world|terrain|ccd] [--bodies N] [--frames N] [--threads N] [--seed N] [--resting N] [--check] [--per-frame] [--pool own|caller|caller-asleep]";
const WARM_UP: usize = 5;
/// How far a moving frame of `--resting` nudges each body along y, every other time.
const NUDGE: f32 = 1e-4;

struct Options {
    scene: String,
    bodies: usize,
    frames: usize,
    threads: usize,
    seed: u64,
    /// `--resting N`: resting frames after each moving frame.
    resting: Option<usize>,
    check: bool,
    /// `--per-frame`: every frame's stage times and pair counts, before the table.
    per_frame: bool,
    /// `--pool`: the world's own pool, or one of the example's (`step_in`), woken
    /// ahead of each step or not.
    pool: PoolChoice,
}

/// Where the steps run (`--pool`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum PoolChoice {
    Own,
    Caller { wake_ahead: bool },
}

fn options() -> Result<Options, String> {
    let args = Args::parse(
        std::env::args().skip(1),
        &[
            "scene", "bodies", "frames", "threads", "seed", "resting", "pool",
        ],
        &["check", "per-frame"],
    )?;
    let scene = args.value("scene").unwrap_or("soup").to_string();
    if !scenes::NAMES.contains(&scene.as_str()) {
        return Err(format!(
            "unknown scene `{scene}` (known: {})",
            scenes::NAMES.join(", ")
        ));
    }
    let default_bodies = match scene.as_str() {
        "static-heavy" => 51_000,
        "large-world" => 1_000_100,
        "terrain" => 1_001,
        "ccd" => 1_010,
        _ => 10_000,
    };
    let pool = match args.value("pool").unwrap_or("own") {
        "own" => PoolChoice::Own,
        "caller" => PoolChoice::Caller { wake_ahead: true },
        "caller-asleep" => PoolChoice::Caller { wake_ahead: false },
        other => {
            return Err(format!(
                "unknown pool `{other}` (own, caller, caller-asleep)"
            ));
        }
    };
    let resting = match args.value("resting") {
        Some(_) => Some(args.number("resting", 0)?),
        None => None,
    };
    let o = Options {
        bodies: args.number("bodies", default_bodies)?,
        frames: args.number("frames", 60)?,
        threads: args.number("threads", 0)?,
        seed: args.number("seed", 1)? as u64,
        resting,
        check: args.switch("check"),
        per_frame: args.switch("per-frame"),
        pool,
        scene,
    };
    if o.frames == 0 {
        return Err("`--frames` must be at least 1".into());
    }
    Ok(o)
}

/// `--per-frame`: one line per frame, the warm-up frames included (marked `w`), so
/// that the costly frames the medians leave out show where they come.
fn print_frames(rows: &[[f64; 12]]) {
    println!(
        "{:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>10} {:>9}",
        "frame", "aabb", "broad", "narrow", "events", "step", "candidates", "touching"
    );
    for (frame, r) in rows.iter().enumerate() {
        let mark = if frame < WARM_UP { "w" } else { "" };
        println!(
            "{frame:>5}{mark:1} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>8.3} {:>10} {:>9}",
            r[0], r[1], r[2], r[3], r[4], r[5], r[6]
        );
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Resident set size and its peak, in MiB, from `/proc/self/status` (Linux); `None`
/// elsewhere.
fn memory_mib() -> Option<(f64, f64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib = |key: &str| -> Option<f64> {
        let line = status.lines().find(|l| l.starts_with(key))?;
        line[key.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()
    };
    Some((kib("VmRSS:")? / 1024.0, kib("VmHWM:")? / 1024.0))
}

/// Sets the poses of frame `frame`. Without `--resting` every frame is the scene's;
/// with it, a moving frame sets the scene's poses (nudged on every other one) and keeps
/// them in `last`, and a resting frame sets `last` again. Returns true on a moving frame.
fn set_frame(
    o: &Options,
    scene: &Scene,
    world: &mut CollisionWorld,
    handles: &[BodyHandle],
    last: &mut Vec<(BodyHandle, Pose)>,
    frame: usize,
) -> bool {
    let Some(resting) = o.resting else {
        scene
            .apply(world, handles, frame as u32)
            .expect("handles are live");
        return true;
    };
    let period = resting + 1;
    let moving = frame.is_multiple_of(period);
    if moving {
        let lift = Vec3::Y * (NUDGE * ((frame / period) % 2) as f32);
        last.clear();
        last.extend(scene.mover_poses(frame as u32).map(|(i, pose)| {
            (
                handles[i],
                Pose::new(pose.translation + lift, pose.rotation),
            )
        }));
    }
    let batch = world.set_poses(last.iter().copied());
    assert!(batch.all_applied(), "handles are live");
    moving
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let scene = scenes::by_name(&o.scene, o.bodies, o.seed).expect("name checked above");
    // With `--pool caller` the steps run on this pool, the world has none.
    let caller_pool = match o.pool {
        PoolChoice::Own => None,
        PoolChoice::Caller { .. } => {
            let built = rayon::ThreadPoolBuilder::new()
                .num_threads(o.threads)
                .build();
            match built {
                Ok(pool) => Some(pool),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            }
        }
    };
    let config = Config {
        threads: if caller_pool.is_some() { 1 } else { o.threads },
        ..Config::default()
    };
    let mut world = match CollisionWorld::new(config) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let handles = scene
        .populate(&mut world)
        .expect("a fresh world takes every body");
    let insert_ms = start.elapsed().as_secs_f64() * 1e3;
    let mut checker = o.check.then(Checker::new);
    let mut judge = CcdJudge::new(&world, o.check);
    let mut failure: Option<String> = None;
    let mut last = Vec::new();
    let mut first_step_ms = 0.0;
    let mut rss_after_first = None;
    // Columns: aabb, broad, narrow, events, step (ms); candidates, touching, points;
    // 1 for a moving frame; ccd (ms); pairs the narrow phase's warm path kept; the
    // call's wall time (ms).
    let mut rows: Vec<[f64; 12]> = Vec::with_capacity(o.frames);
    for frame in 0..o.frames {
        if let Some(j) = judge.as_mut() {
            j.before_frame(&world);
        }
        if let (PoolChoice::Caller { wake_ahead: true }, Some(pool)) = (o.pool, &caller_pool) {
            world.wake_ahead_in(pool);
        }
        let moving = set_frame(&o, &scene, &mut world, &handles, &mut last, frame);
        let called = Instant::now();
        let r = match &caller_pool {
            Some(pool) => world.step_in(pool),
            None => world.step(),
        };
        let call = called.elapsed();
        let t = r.timings;
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        rows.push([
            ms(t.aabb),
            ms(t.broad),
            ms(t.narrow),
            ms(t.events),
            ms(t.total),
            r.candidate_pairs as f64,
            r.contacts.len() as f64,
            r.contact_points() as f64,
            moving as u8 as f64,
            ms(t.ccd),
            r.kept_pairs as f64,
            ms(call),
        ]);
        if frame == 0 {
            first_step_ms = ms(t.total);
            rss_after_first = memory_mib();
        }
        if let (Some(c), None) = (checker.as_mut(), &failure)
            && let Err(e) = c.check(&world)
        {
            failure = Some(format!("frame {frame}: {e}"));
        }
        if let (Some(j), None) = (judge.as_mut(), &failure)
            && let Err(e) = j.after_step(&world)
        {
            failure = Some(format!("frame {frame}: {e}"));
        }
    }
    let measured = if rows.len() > WARM_UP {
        &rows[WARM_UP..]
    } else {
        &rows[..]
    };
    let of_kind = |moving: bool| -> Vec<[f64; 12]> {
        let keep = |r: &&[f64; 12]| o.resting.is_none() || (r[8] == 1.0) == moving;
        measured.iter().filter(keep).copied().collect()
    };
    let (moving_rows, resting_rows) = (of_kind(true), of_kind(false));
    let col_of =
        |rows: &[[f64; 12]], k: usize| median(&mut rows.iter().map(|r| r[k]).collect::<Vec<_>>());
    let max_of = |rows: &[[f64; 12]], k: usize| rows.iter().map(|r| r[k]).fold(0.0, f64::max);
    let mean_of = |rows: &[[f64; 12]], k: usize| {
        rows.iter().map(|r| r[k]).sum::<f64>() / rows.len().max(1) as f64
    };
    let col = |k: usize| col_of(&moving_rows, k);
    // The threads the steps ran on: the world's own, or the example's pool's.
    let threads = caller_pool
        .as_ref()
        .map_or(world.threads(), |pool| pool.current_num_threads());
    let pool_note = match o.pool {
        PoolChoice::Own => "",
        PoolChoice::Caller { wake_ahead: true } => " (caller's pool, woken ahead)",
        PoolChoice::Caller { wake_ahead: false } => " (caller's pool, not woken ahead)",
    };
    println!(
        "scene {} | {} bodies | {} frames ({} measured) | {} threads{pool_note}",
        o.scene,
        scene.len(),
        o.frames,
        measured.len(),
        threads
    );
    let memory = memory_mib();
    let mib = |m: Option<f64>| m.map_or("n/a".to_string(), |v| format!("{v:.0} MiB"));
    println!(
        "insert {insert_ms:.1} ms, first step {first_step_ms:.1} ms (every AABB, static tree) | resident {} after the first step, peak {}",
        mib(rss_after_first.map(|m| m.0)),
        mib(memory.map(|m| m.1))
    );
    if o.per_frame {
        print_frames(&rows);
    }
    // Stage name and column; the ccd pass only in a scene with CCD bodies.
    let mut stages = vec![("aabb", 0), ("broad", 1), ("narrow", 2), ("events", 3)];
    if judge.is_some() {
        stages.push(("ccd", 9));
    }
    stages.push(("step", 4));
    stages.push(("call", 11));
    if o.resting.is_some() {
        println!(
            "{:<8} {:>10} {:>10} {:>12} {:>12}",
            "stage", "moving ms", "max ms", "resting ms", "max ms"
        );
        for &(name, k) in &stages {
            println!(
                "{name:<8} {:>10.3} {:>10.3} {:>12.4} {:>12.4}",
                col(k),
                max_of(&moving_rows, k),
                col_of(&resting_rows, k),
                max_of(&resting_rows, k)
            );
        }
        let (m, r) = (col(4), col_of(&resting_rows, 4));
        println!(
            "resting frame: {:.1}% of a moving one ({} moving, {} resting frames measured)",
            100.0 * r / m.max(f64::MIN_POSITIVE),
            moving_rows.len(),
            resting_rows.len()
        );
    } else {
        // The mean counts the rare costly frames (a full sweep of the broad phase) that
        // the median leaves out.
        println!(
            "{:<8} {:>10} {:>10} {:>10}",
            "stage", "median ms", "mean ms", "max ms"
        );
        for &(name, k) in &stages {
            println!(
                "{name:<8} {:>10.3} {:>10.3} {:>10.3}",
                col(k),
                mean_of(&moving_rows, k),
                max_of(&moving_rows, k)
            );
        }
    }
    println!(
        "pairs: {} candidates, {} touching, {} kept by the warm path, {} contact points (medians)",
        col(5),
        col(6),
        col(10),
        col(7)
    );
    let mut ccd_json = String::new();
    if let Some(j) = &judge {
        let t = &j.tally;
        println!(
            "ccd: {} wall crossings, {} reported ({} CCD hits, {} contacts), {} missed | {} hits in all | ccd pass {:.3} ms a frame (median)",
            t.crossings,
            t.by_hit + t.by_contact,
            t.by_hit,
            t.by_contact,
            t.missed,
            t.hits,
            col(9)
        );
        if o.check {
            println!(
                "ccd check: {} body–wall overlaps within a step by fine stepping ({} sub-steps), all reported in time",
                t.fine_overlaps,
                sepax_testkit::ccd::SUB_STEPS
            );
        }
        if t.missed > 0 && failure.is_none() {
            failure = Some(format!("{} wall crossings missed", t.missed));
        }
        ccd_json = format!(
            ",\"ccd_crossings\":{},\"ccd_reported\":{},\"ccd_missed\":{},\"ccd_ms\":{:.4}",
            t.crossings,
            t.by_hit + t.by_contact,
            t.missed,
            col(9)
        );
    }
    let check = match (&checker, &failure) {
        (_, Some(f)) => format!("failed: {f}"),
        (None, None) => "skipped".to_string(),
        (Some(c), None) => {
            println!(
                "check: {} frames, {} verdicts judged by the oracle, {} without oracle",
                o.frames, c.judged, c.unjudged
            );
            "ok".to_string()
        }
    };
    let resting_json = if o.resting.is_some() {
        format!(
            ",\"resting_broad_ms\":{:.4},\"resting_narrow_ms\":{:.4},\"resting_step_ms\":{:.4}",
            col_of(&resting_rows, 1),
            col_of(&resting_rows, 2),
            col_of(&resting_rows, 4)
        )
    } else {
        String::new()
    };
    let json_mib = |m: Option<f64>| m.map_or("null".to_string(), |v| format!("{v:.1}"));
    println!(
        "{{\"scene\":\"{}\",\"bodies\":{},\"frames\":{},\"threads\":{},\"insert_ms\":{:.2},\"first_step_ms\":{:.2},\"rss_mib\":{},\"peak_rss_mib\":{},\"candidate_pairs\":{},\"touching_pairs\":{},\"kept_pairs\":{},\"contact_points\":{},\"aabb_ms\":{:.4},\"broad_ms\":{:.4},\"narrow_ms\":{:.4},\"events_ms\":{:.4},\"step_ms\":{:.4},\"step_mean_ms\":{:.4},\"broad_mean_ms\":{:.4},\"call_ms\":{:.4}{}{},\"check\":\"{}\"}}",
        o.scene,
        scene.len(),
        o.frames,
        threads,
        insert_ms,
        first_step_ms,
        json_mib(rss_after_first.map(|m| m.0)),
        json_mib(memory.map(|m| m.1)),
        col(5),
        col(6),
        col(10),
        col(7),
        col(0),
        col(1),
        col(2),
        col(3),
        col(4),
        mean_of(&moving_rows, 4),
        mean_of(&moving_rows, 1),
        col(11),
        resting_json,
        ccd_json,
        check.replace('\\', "\\\\").replace('"', "\\\"")
    );
    if failure.is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
