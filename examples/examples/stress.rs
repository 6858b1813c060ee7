//! The main job: step a scene for a number of frames and report per-stage times.
//!
//! ```text
//! cargo run --release --example stress -- [--scene soup|hulls|static-heavy|pile]
//!     [--bodies N] [--frames N] [--threads N] [--seed N] [--check]
//! ```
//!
//! Defaults: soup, 10,000 bodies (51,000 for static-heavy: 50,000 static + 1,000
//! moving), 60 frames, one thread per core. Prints a per-stage table, then as its last
//! line one JSON object: medians over the frames after 5 warm-up frames.
//! `--check` compares every frame with the oracles (brute-force pairs, f64 SAT) and
//! exits with status 1 on a mismatch.

use sepax_examples::args::Args;
use sepax_examples::check::Checker;
use sepax_pipeline::{CollisionWorld, Config};
use sepax_testkit::scenes;
use std::process::ExitCode;

const USAGE: &str = "usage: stress [--scene soup|hulls|static-heavy|pile] [--bodies N] [--frames N] [--threads N] [--seed N] [--check]";
const WARM_UP: usize = 5;

struct Options {
    scene: String,
    bodies: usize,
    frames: usize,
    threads: usize,
    seed: u64,
    check: bool,
}

fn options() -> Result<Options, String> {
    let args = Args::parse(
        std::env::args().skip(1),
        &["scene", "bodies", "frames", "threads", "seed"],
        &["check"],
    )?;
    let scene = args.value("scene").unwrap_or("soup").to_string();
    if !scenes::NAMES.contains(&scene.as_str()) {
        return Err(format!(
            "unknown scene `{scene}` (known: {})",
            scenes::NAMES.join(", ")
        ));
    }
    let default_bodies = if scene == "static-heavy" {
        51_000
    } else {
        10_000
    };
    let o = Options {
        bodies: args.number("bodies", default_bodies)?,
        frames: args.number("frames", 60)?,
        threads: args.number("threads", 0)?,
        seed: args.number("seed", 1)? as u64,
        check: args.switch("check"),
        scene,
    };
    if o.frames == 0 {
        return Err("`--frames` must be at least 1".into());
    }
    Ok(o)
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

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let scene = scenes::by_name(&o.scene, o.bodies, o.seed).expect("name checked above");
    let config = Config {
        threads: o.threads,
        ..Config::default()
    };
    let mut world = match CollisionWorld::new(config) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let handles = scene
        .populate(&mut world)
        .expect("a fresh world takes every body");
    let mut checker = o.check.then(Checker::new);
    let mut failure: Option<String> = None;
    // Columns: aabb, broad, narrow, events, step (ms); candidates, touching, points.
    let mut rows: Vec<[f64; 8]> = Vec::with_capacity(o.frames);
    for frame in 0..o.frames {
        scene
            .apply(&mut world, &handles, frame as u32)
            .expect("handles are live");
        let r = world.step();
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
        ]);
        if let (Some(c), None) = (checker.as_mut(), &failure)
            && let Err(e) = c.check(&world)
        {
            failure = Some(format!("frame {frame}: {e}"));
        }
    }
    let measured = if rows.len() > WARM_UP {
        &rows[WARM_UP..]
    } else {
        &rows[..]
    };
    let col = |k: usize| median(&mut measured.iter().map(|r| r[k]).collect::<Vec<_>>());
    let max = |k: usize| measured.iter().map(|r| r[k]).fold(0.0, f64::max);
    println!(
        "scene {} | {} bodies | {} frames ({} measured) | {} threads",
        o.scene,
        scene.len(),
        o.frames,
        measured.len(),
        world.threads()
    );
    println!("{:<8} {:>10} {:>10}", "stage", "median ms", "max ms");
    for (k, name) in ["aabb", "broad", "narrow", "events", "step"]
        .iter()
        .enumerate()
    {
        println!("{name:<8} {:>10.3} {:>10.3}", col(k), max(k));
    }
    println!(
        "pairs: {} candidates, {} touching, {} contact points (medians)",
        col(5),
        col(6),
        col(7)
    );
    let check = match (&checker, &failure) {
        (None, _) => "skipped".to_string(),
        (Some(_), Some(f)) => format!("failed: {f}"),
        (Some(c), None) => {
            println!(
                "check: {} frames, {} verdicts judged by the oracle, {} without oracle",
                o.frames, c.judged, c.unjudged
            );
            "ok".to_string()
        }
    };
    println!(
        "{{\"scene\":\"{}\",\"bodies\":{},\"frames\":{},\"threads\":{},\"candidate_pairs\":{},\"touching_pairs\":{},\"contact_points\":{},\"aabb_ms\":{:.4},\"broad_ms\":{:.4},\"narrow_ms\":{:.4},\"step_ms\":{:.4},\"check\":\"{}\"}}",
        o.scene,
        scene.len(),
        o.frames,
        world.threads(),
        col(5),
        col(6),
        col(7),
        col(0),
        col(1),
        col(2),
        col(4),
        check.replace('\\', "\\\\").replace('"', "\\\"")
    );
    if failure.is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
