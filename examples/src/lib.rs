//! Helpers shared by the sepax examples: command-line parsing for `stress` and
//! `render`, the `--check` oracle comparison, and body outlines for pictures.
//!
//! * `cargo run --release --example quickstart`
//! * `cargo run --release --example stress -- --scene soup --bodies 10000 --frames 60 --threads 2 --check`
//! * `cargo run --release --example render -- --scene soup --out docs/render.png`

pub mod args;
pub mod check;
pub mod outline;
