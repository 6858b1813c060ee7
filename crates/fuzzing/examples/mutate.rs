//! A mutation run without libFuzzer: the checked-in seeds of a target, mutated at
//! random, for a given number of seconds, on one core.
//!
//! ```text
//! cargo run --release -p sepax-fuzzing --example mutate -- narrow_phase 300 [seed]
//! SEPAX_FUZZ_TOLERATE=all cargo run --release -p sepax-fuzzing --example mutate -- narrow_phase 300
//! ```
//!
//! It reads `fuzz/corpus/<target>/` and `fuzz/artifacts-found/<target>/` (run it from
//! the repository's root), and each round takes one of them and applies one to eight
//! edits: a flipped bit, a random byte, a byte inserted or removed, four bytes replaced
//! by a special `f32` (±∞, NaN, the smallest subnormal, `f32::MAX`, ±0, 1), or a piece
//! of another input spliced in. An input that breaks a check is written to
//! `fuzz-found/<target>-<n>` (printed; replay it with the `describe` example); the run
//! stops after ten. No coverage guidance: cargo-fuzz (see `fuzz/README.md`) explores
//! further, but this needs nothing installed and runs on the stable toolchain as is.
//! On 2 December 2026 seven minutes of it on `narrow_phase` with every known bug
//! tolerated found two bugs, and twenty seconds with none tolerated a third
//! (`fuzz/artifacts-found/README.md`, `fuzz/artifacts-open/README.md`).

use sepax_fuzzing::known::Tolerance;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::{Duration, Instant};

/// Special `f32` bit patterns the edits write.
const SPECIAL: [u32; 8] = [
    0x7f80_0000, // +∞
    0xff80_0000, // −∞
    0x7fc0_0000, // NaN
    0x0000_0001, // smallest subnormal
    0x7f7f_ffff, // f32::MAX
    0x0000_0000, // +0
    0x8000_0000, // −0
    0x3f80_0000, // 1
];

/// How many failing inputs end the run.
const MAX_FOUND: usize = 10;

/// xorshift64: a seeded source of edits.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The files of a folder (none when it does not exist).
fn read_inputs(folder: &Path) -> Vec<Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file() && e.file_name() != "README.md")
        .filter_map(|e| std::fs::read(e.path()).ok())
        .collect()
}

/// One random edit of `data`, `inputs` the pool to splice from.
fn edit(data: &mut Vec<u8>, inputs: &[Vec<u8>], rng: &mut Rng) {
    match rng.below(6) {
        0 if !data.is_empty() => {
            let i = rng.below(data.len());
            data[i] ^= 1 << rng.below(8);
        }
        1 if !data.is_empty() => {
            let i = rng.below(data.len());
            data[i] = rng.next() as u8;
        }
        2 => {
            let i = rng.below(data.len() + 1);
            data.insert(i, rng.next() as u8);
        }
        3 if data.len() > 1 => {
            data.remove(rng.below(data.len()));
        }
        4 if data.len() >= 4 => {
            let i = rng.below(data.len() - 3);
            let bits = SPECIAL[rng.below(SPECIAL.len())];
            data[i..i + 4].copy_from_slice(&bits.to_le_bytes());
        }
        _ => {
            let other = &inputs[rng.below(inputs.len())];
            if !other.is_empty() {
                let start = rng.below(other.len());
                let end = (start + 1 + rng.below(16)).min(other.len());
                let at = rng.below(data.len() + 1);
                data.splice(at..at, other[start..end].iter().copied());
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: mutate <hull_builder|narrow_phase|world_script> <seconds> [seed]";
    let (Some(target), Some(Ok(seconds))) = (args.first(), args.get(1).map(|s| s.parse())) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let seed = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1u64)
        .max(1);
    let Some(&(_, run)) = sepax_fuzzing::TARGETS.iter().find(|(t, _)| t == target) else {
        eprintln!("unknown target {target}\n{usage}");
        std::process::exit(2);
    };
    let mut inputs = read_inputs(&Path::new("fuzz/corpus").join(target));
    inputs.extend(read_inputs(&Path::new("fuzz/artifacts-found").join(target)));
    if inputs.is_empty() {
        eprintln!("no seeds in fuzz/corpus/{target}: run from the repository's root");
        std::process::exit(2);
    }
    let tolerance = Tolerance::from_env();
    // The checks panic; their messages would flood the terminal.
    std::panic::set_hook(Box::new(|_| {}));
    let (mut rng, start) = (Rng(seed), Instant::now());
    let (mut tried, mut found) = (0u64, 0);
    while start.elapsed() < Duration::from_secs(seconds) && found < MAX_FOUND {
        let mut data = inputs[rng.below(inputs.len())].clone();
        for _ in 0..1 + rng.below(8) {
            edit(&mut data, &inputs, &mut rng);
        }
        tried += 1;
        if catch_unwind(AssertUnwindSafe(|| run(&data, tolerance))).is_err() {
            found += 1;
            let path = Path::new("fuzz-found").join(format!("{target}-{found}"));
            let written =
                std::fs::create_dir_all("fuzz-found").and_then(|()| std::fs::write(&path, &data));
            match written {
                Ok(()) => println!("failing input: {}", path.display()),
                Err(e) => println!("failing input (not written: {e}): {data:?}"),
            }
        }
    }
    println!("{target}: {tried} inputs, {found} failing");
}
