//! The fuzz targets in CI, without libFuzzer (issue 9, item 5).
//!
//! * Every file of `fuzz/corpus/<target>/` (the seeds and what local fuzzing kept) is
//!   run through the target's function.
//! * Each target also runs on a fixed number of inputs drawn from the seeded
//!   [`Rng`], so CI fuzzes a little on every run, reproducibly, with nothing
//!   tolerated (every bug of `sepax_fuzzing::known` is fixed; its tolerances remain
//!   for fuzzing runs that want to look past a new one).
//! * `fuzz/artifacts-found/<target>/` holds inputs that broke an invariant and are
//!   since fixed (see `fuzz/README.md`); they are replayed by the test
//!   `known_findings_are_fixed`, with nothing tolerated.
//! * `fuzz/artifacts-open/<target>/` holds inputs of bugs not fixed yet; the ignored
//!   test `open_findings_are_fixed` replays them (`cargo test -p sepax-fuzzing --
//!   --ignored`) and passes once they are fixed.
//!
//! A failure names the input; `cargo run -p sepax-fuzzing --example describe --
//! <target> <file>` prints it as Rust code.

use sepax_fuzzing::TARGETS;
use sepax_fuzzing::known::Tolerance;
use sepax_geometry::rng::Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Random inputs per target; together with the corpora this stays well under a minute
/// at the test profile.
const RANDOM_INPUTS: usize = 20_000;
/// Longest random input: enough for a 40-point cloud or a 48-call script.
const MAX_LEN: usize = 400;

fn fuzz_dir(sub: &str, target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz")
        .join(sub)
        .join(target)
}

/// The files of a directory, sorted by name (none when it does not exist).
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file());
    files.sort();
    files
}

/// Runs `f` on every input and returns the names of those that panicked. Each failing
/// input is also written to `<target tmp dir>/failed/<target>/`, ready for `describe`
/// or for `cargo fuzz run <target> <file>`.
fn failures(
    target: &str,
    f: fn(&[u8], Tolerance),
    tolerance: Tolerance,
    inputs: impl Iterator<Item = (String, Vec<u8>)>,
) -> Vec<String> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("failed")
        .join(target);
    let mut failed = Vec::new();
    for (i, (name, data)) in inputs.enumerate() {
        if catch_unwind(AssertUnwindSafe(|| f(&data, tolerance))).is_err() {
            let file = dir.join(format!("{i:06}"));
            let saved = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&file, &data));
            let note = saved.map_or(String::new(), |()| {
                format!(" (saved as {})", file.display())
            });
            failed.push(format!("{name}{note}"));
        }
    }
    failed
}

fn read_all(files: Vec<PathBuf>) -> impl Iterator<Item = (String, Vec<u8>)> {
    files.into_iter().map(|p| {
        let data = std::fs::read(&p).unwrap();
        (p.display().to_string(), data)
    })
}

#[test]
fn corpora_replay_cleanly() {
    let mut failed = Vec::new();
    for (target, f) in TARGETS {
        let corpus = files(&fuzz_dir("corpus", target));
        assert!(
            corpus.len() >= 10,
            "{target}: only {} seed files",
            corpus.len()
        );
        failed.extend(failures(target, f, Tolerance::NONE, read_all(corpus)));
    }
    assert!(
        failed.is_empty(),
        "broken invariants on:\n{}",
        failed.join("\n")
    );
}

/// A random input: a random length (short ones often), random bytes.
fn random_input(rng: &mut Rng) -> Vec<u8> {
    let len = if rng.below(4) == 0 {
        rng.below(24)
    } else {
        rng.below(MAX_LEN)
    };
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

fn random_batch(target: &str, seed: u64) {
    let (_, f) = TARGETS.iter().find(|(t, _)| *t == target).unwrap();
    let mut rng = Rng::new(seed);
    let inputs = (0..RANDOM_INPUTS).map(|i| {
        (
            format!("{target} random input {i} (seed {seed})"),
            random_input(&mut rng),
        )
    });
    let failed = failures(target, *f, Tolerance::NONE, inputs);
    assert!(
        failed.is_empty(),
        "broken invariants on:\n{}",
        failed.join("\n")
    );
}

#[test]
fn hull_builder_random_inputs() {
    random_batch("hull_builder", 0x9_0001);
}

#[test]
fn narrow_phase_random_inputs() {
    random_batch("narrow_phase", 0x9_0002);
}

#[test]
fn capsule_mesh_random_inputs() {
    random_batch("capsule_mesh", 0x9_0004);
}

#[test]
fn world_script_random_inputs() {
    random_batch("world_script", 0x9_0003);
}

#[test]
fn world_all_shapes_random_inputs() {
    random_batch("world_all_shapes", 0x9_0005);
}

/// Every input of a bug, fixed or open, passes once its bug is tolerated: the
/// conditions in `known.rs` cover what was found, so a fuzzing run that tolerates them
/// looks past it.
#[test]
fn open_bug_inputs_are_tolerated() {
    let mut failed = Vec::new();
    for (target, f) in TARGETS {
        for dir in ["artifacts-found", "artifacts-open"] {
            let found = files(&fuzz_dir(dir, target));
            failed.extend(failures(target, f, Tolerance::OPEN_BUGS, read_all(found)));
        }
    }
    assert!(
        failed.is_empty(),
        "not covered by known.rs:\n{}",
        failed.join("\n")
    );
}

/// Every input in `fuzz/artifacts-found` showed a bug that is now fixed (each is named
/// in that folder's README): they stay fixed, with nothing tolerated.
#[test]
fn known_findings_are_fixed() {
    let mut failed = Vec::new();
    for (target, f) in TARGETS {
        let found = files(&fuzz_dir("artifacts-found", target));
        failed.extend(failures(target, f, Tolerance::NONE, read_all(found)));
    }
    assert!(failed.is_empty(), "still failing:\n{}", failed.join("\n"));
}

/// The inputs of bugs not fixed yet (`fuzz/artifacts-open`, each named in that
/// folder's README): this passes once they are fixed, and they then move to
/// `fuzz/artifacts-found`.
#[test]
#[ignore = "open bugs (fuzz/artifacts-open); passes once they are fixed"]
fn open_findings_are_fixed() {
    let mut failed = Vec::new();
    for (target, f) in TARGETS {
        let open = files(&fuzz_dir("artifacts-open", target));
        failed.extend(failures(target, f, Tolerance::NONE, read_all(open)));
    }
    assert!(failed.is_empty(), "still failing:\n{}", failed.join("\n"));
}
