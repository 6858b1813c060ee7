//! Helpers shared by the sepax examples: command-line parsing, the `--check` oracle
//! comparison, the CCD scene's judge of missed wall crossings, body outlines for pictures, and a small rigid-body solver that stacks
//! boxes on sepax's contact manifolds.
//!
//! * `cargo run --release --example quickstart`
//! * `cargo run --release --example stress -- --scene soup --bodies 10000 --frames 60 --threads 2 --check`
//! * `cargo run --release --example stress -- --scene large-world --check` (1,000,000 statics + 100 movers)
//! * `cargo run --release --example stress -- --scene ccd --check` (1,000 fast CCD boxes through 10 thin walls: 0 missed)
//! * `cargo run --release --example render -- --scene soup --out docs/render.png`
//! * `cargo run --release --example stacking -- --scene tower --frames 600 --png-every 30 --out-dir frames`
//!
//! [`stacking`] is the proof that the manifolds are solver-grade: a sequential-impulse
//! solver (warm-started through the report's `previous` / `previous_points` indices,
//! lever arms from the point anchors) holding up towers and pyramids of boxes. Its
//! test, `tests/stacking.rs`, fails when the manifolds lose points, flip normals or
//! drop the deepest point.

pub mod args;
pub mod ccd;
pub mod check;
pub mod outline;
pub mod stacking;
