//! Stacks boxes with a small sequential-impulse solver on sepax's contacts and prints,
//! every simulated second, what the frame cost (collision vs solver) and how the
//! manifolds behaved; optionally writes side-view PNG frames.
//!
//! ```text
//! cargo run --release --example stacking -- [--scene tower|alternating|pyramid|pile|mixed]
//!     [--size N] [--frames N] [--iterations N] [--relax N] [--hertz F] [--slop M]
//!     [--threads N] [--seed N] [--png-every K] [--out-dir DIR] [--png-size PIXELS]
//!     [--every-frame] [--no-warm-start]
//! ```
//! Defaults: tower of 10, 600 frames (10 s at 60 Hz), the solver's defaults (10
//! iterations, 2 relax passes, 30 Hz contacts, 5 mm slop; `--hertz 0` makes contacts
//! rigid without push-out), 1 thread, no PNGs (`--png-every 0`), `stacking-frames/`,
//! 800 pixels. `--size` is the tower height, the pyramid's rows, or the body count of
//! pile and mixed.
//!
//! Columns: `collision` is `report.timings.total`, `solver` gravity + solver +
//! integration (both ms per frame, averaged over the second); `drift` the top body's
//! horizontal distance from its start, `sink` how far it went down; `persist` the
//! share of points, among pairs in contact the frame before, matched to a previous
//! point (warm-started), and `ids` the share of those that kept their feature id;
//! `turn` the largest normal change of a pair between frames; `depth` the deepest
//! point; `|v|` the fastest body at the end of the second.

use sepax_examples::args::Args;
use sepax_examples::stacking::picture::{View, draw};
use sepax_examples::stacking::stats::ManifoldStats;
use sepax_examples::stacking::{FrameStats, Simulation, SolverConfig};
use sepax_testkit::stacks;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage: stacking [--scene tower|alternating|pyramid|pile|mixed] [--size N] [--frames N] [--iterations N] [--relax N] [--hertz F] [--slop M] [--threads N] [--seed N] [--png-every K] [--out-dir DIR] [--png-size PIXELS] [--every-frame] [--no-warm-start]";

/// Frame costs and manifold counts summed over a stretch of frames.
#[derive(Default)]
struct Window {
    collision: Duration,
    solver: Duration,
    manifolds: ManifoldStats,
}

impl Window {
    fn add(&mut self, f: &FrameStats) {
        self.collision += f.collision;
        self.solver += f.solver;
        self.manifolds.merge(&f.manifolds);
    }

    fn ms(&self, d: Duration) -> f64 {
        d.as_secs_f64() * 1e3 / self.manifolds.steps.max(1) as f64
    }

    fn line(&self, sim: &Simulation) -> String {
        let m = &self.manifolds;
        let top = sim.top();
        format!(
            "collision {:.3} ms  solver {:.3} ms  drift {:6.1} mm  sink {:6.1} mm  persist {:5.1} %  ids {:5.1} %  turn {:5.2}°  depth {:5.1} mm  |v| {:.3} m/s  pairs {} points {}",
            self.ms(self.collision),
            self.ms(self.solver),
            sim.drift(top) * 1e3,
            sim.sink(top) * 1e3,
            m.persistence() * 100.0,
            m.id_persistence() * 100.0,
            m.max_normal_turn.to_degrees(),
            m.max_depth * 1e3,
            sim.max_speed(),
            m.pairs / m.steps.max(1),
            m.points / m.steps.max(1),
        )
    }
}

fn run() -> Result<(), String> {
    let args = Args::parse(
        std::env::args().skip(1),
        &[
            "scene",
            "size",
            "frames",
            "iterations",
            "threads",
            "seed",
            "png-every",
            "out-dir",
            "png-size",
            "relax",
            "hertz",
            "slop",
        ],
        &["every-frame", "no-warm-start"],
    )?;
    let name = args.value("scene").unwrap_or("tower");
    let size = args.number("size", stacks::default_size(name))?;
    let frames = args.number("frames", 600)?;
    let png_every = args.number("png-every", 0)?;
    let out_dir = Path::new(args.value("out-dir").unwrap_or("stacking-frames"));
    let png_size = args.number("png-size", 800)?.clamp(16, 8192) as u32;
    let d = SolverConfig::default();
    let config = SolverConfig {
        iterations: args.number("iterations", d.iterations)?,
        relax_iterations: args.number("relax", d.relax_iterations)?,
        contact_hertz: args.real("hertz", d.contact_hertz)?,
        slop: args.real("slop", d.slop)?,
        warm_start: !args.switch("no-warm-start"),
        ..d
    };
    let scene = stacks::by_name(name, size, args.number("seed", 1)? as u64).ok_or_else(|| {
        format!(
            "unknown scene `{name}` (known: {})",
            stacks::NAMES.join(", ")
        )
    })?;
    let mut sim =
        Simulation::new(&scene, config, args.number("threads", 1)?).map_err(|e| e.to_string())?;
    let view = View::fit(&sim, png_size);
    if png_every > 0 {
        std::fs::create_dir_all(out_dir)
            .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    }
    println!(
        "{name}: {} bodies, {} + {} relax iterations, contacts {} Hz, slop {} m, warm start {}, {frames} frames at 60 Hz",
        scene.bodies.len() - 1,
        config.iterations,
        config.relax_iterations,
        config.contact_hertz,
        config.slop,
        if config.warm_start { "on" } else { "off" },
    );

    let per_line = if args.switch("every-frame") { 1 } else { 60 };
    let (mut window, mut total, mut rest) =
        (Window::default(), Window::default(), Window::default());
    for frame in 0..frames {
        if png_every > 0 && frame % png_every == 0 {
            write_png(&sim, &view, &out_dir.join(format!("{name}-{frame:05}.png")))?;
        }
        let stats = sim.step().map_err(|e| e.to_string())?;
        window.add(&stats);
        total.add(&stats);
        if frame >= frames / 2 {
            rest.add(&stats);
        }
        if (frame + 1) % per_line == 0 || frame + 1 == frames {
            let t = (frame + 1) as f32 / 60.0;
            println!("t={t:6.2} s  {}", window.line(&sim));
            window = Window::default();
        }
    }
    if png_every > 0 {
        write_png(
            &sim,
            &view,
            &out_dir.join(format!("{name}-{frames:05}.png")),
        )?;
    }
    println!("all frames:       {}", total.line(&sim));
    println!("second half:      {}", rest.line(&sim));
    Ok(())
}

fn write_png(sim: &Simulation, view: &View, path: &Path) -> Result<(), String> {
    let pixmap = draw(sim, view).ok_or("cannot allocate the image")?;
    pixmap
        .save_png(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
