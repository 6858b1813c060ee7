//! # sepax-fuzzing
//!
//! The logic of sepax's fuzz targets, as plain functions of a byte string, so that the
//! cargo-fuzz binaries in `fuzz/` (one line each) and an ordinary test
//! (`tests/replay.rs`, which replays the checked-in corpora and a seeded batch of
//! random inputs in `cargo test`) run exactly the same checks.
//!
//! | target | what it builds from the bytes | what it checks |
//! |---|---|---|
//! | [`hull_builder`] | a point cloud, then face edits | a hull or a named error; Euler, planes, every input point inside ([`hull`]) |
//! | [`narrow_phase`] | two shapes, two poses, a margin | finite answers, ≤ 4 points, `intersects` = `contact`, order symmetry, the f64 oracle ([`narrow`]) |
//! | [`capsule_mesh`](fn@capsule_mesh) | a capsule or a mesh, any shape, two poses, a margin | as `narrow_phase`, with the capsule oracle and the mesh twin ([`capsule_mesh`](mod@capsule_mesh)) |
//! | [`world_all_shapes`] | as `world_script`, with capsules and triangle meshes too | as `world_script` ([`world::run_all_shapes`]) |
//! | [`world_script`] | a config and a list of world calls | no panic, stale handles refused, sorted reports with live handles, consistent events ([`world`]) |
//!
//! Each function **panics only when an invariant is broken** (or when sepax itself
//! panics, which is a bug too); bad input on its own must pass. Inputs are decoded
//! with [`bytes::Bytes`], which never fails: every byte string is a valid input.
//!
//! A failing input can be printed as Rust code with [`describe`]
//! (`cargo run -p sepax-fuzzing --example describe -- <target> <file>`).
//!
//! ```
//! // Any bytes at all: the empty input, and one of each target's.
//! sepax_fuzzing::hull_builder(&[]);
//! sepax_fuzzing::narrow_phase(&[2, 1, 4, 0, 4, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0]);
//! sepax_fuzzing::capsule_mesh(&[0, 0, 4, 0, 4, 0, 3, 0, 4, 0, 4, 0, 4, 0, 0]);
//! sepax_fuzzing::world_script(&[0, 1, 1, 0, 0, 9]);
//! ```

pub mod bytes;
pub mod capsule_mesh;
pub mod decode;
pub mod hull;
pub mod known;
pub mod narrow;
mod pair;
pub(crate) mod report;
pub mod script;
mod twin;
pub mod world;

use known::Tolerance;

/// Target `hull_builder` (see [`hull`]), tolerating the open bugs named in
/// `SEPAX_FUZZ_TOLERATE` (see [`known`]; none when unset).
pub fn hull_builder(data: &[u8]) {
    hull::run(data, Tolerance::from_env());
}

/// Target `narrow_phase` (see [`narrow`]), tolerating the open bugs named in
/// `SEPAX_FUZZ_TOLERATE` (see [`known`]; none when unset).
pub fn narrow_phase(data: &[u8]) {
    narrow::run(data, Tolerance::from_env());
}

/// Target `capsule_mesh` (see [`capsule_mesh`](mod@capsule_mesh)), tolerating the open
/// bugs named in `SEPAX_FUZZ_TOLERATE` (see [`known`]; none when unset).
pub fn capsule_mesh(data: &[u8]) {
    capsule_mesh::run(data, Tolerance::from_env());
}

/// Target `world_all_shapes` (see [`world::run_all_shapes`]), tolerating the open
/// bugs named in `SEPAX_FUZZ_TOLERATE` (see [`known`]; none when unset).
pub fn world_all_shapes(data: &[u8]) {
    world::run_all_shapes(data, Tolerance::from_env());
}

/// Target `world_script` (see [`world`]), tolerating the open bugs named in
/// `SEPAX_FUZZ_TOLERATE` (see [`known`]; none when unset).
pub fn world_script(data: &[u8]) {
    world::run(data, Tolerance::from_env());
}

/// A target: its name (as in `fuzz/fuzz_targets/` and `fuzz/corpus/`) and its function
/// with an explicit [`Tolerance`].
pub type Target = (&'static str, fn(&[u8], Tolerance));

/// The targets.
pub const TARGETS: [Target; 5] = [
    ("hull_builder", hull::run),
    ("narrow_phase", narrow::run),
    ("capsule_mesh", capsule_mesh::run),
    ("world_script", world::run),
    ("world_all_shapes", world::run_all_shapes),
];

/// The decoded input of a target, as Rust code that sets it up (for bug reports).
/// `None` for an unknown target name.
pub fn describe(target: &str, data: &[u8]) -> Option<String> {
    match target {
        "hull_builder" => {
            let mut b = bytes::Bytes::new(data);
            let mode = bytes::Mode::from_flags(b.u8());
            let points = decode::points(&mut b, mode);
            Some(format!(
                "let points = {};\nlet hull = ConvexHull::try_from_points(&points);",
                decode::rust_points(&points)
            ))
        }
        "narrow_phase" => Some(narrow::NarrowCase::decode(data).rust()),
        "capsule_mesh" => Some(capsule_mesh::decode(data).rust()),
        "world_script" => Some(script::Script::decode(data).rust()),
        "world_all_shapes" => Some(script::Script::decode_all_shapes(data).rust()),
        _ => None,
    }
}
