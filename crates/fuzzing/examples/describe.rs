//! Prints fuzz inputs as the Rust code that sets them up, and runs them.
//!
//! ```text
//! cargo run -p sepax-fuzzing --example describe -- narrow_phase fuzz/artifacts-found/narrow_phase/crash-0a1b...
//! ```
//!
//! Each file is decoded as the target does, printed, then run through the target with
//! nothing tolerated (or what `--tolerate all|name,...` names, see `known.rs`); the
//! panic message (if any) names the broken invariant.

use sepax_fuzzing::known::Tolerance;
use std::panic::{AssertUnwindSafe, catch_unwind};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--tolerate all` (or a list of names): triage against the open bugs of known.rs.
    let mut tolerance = Tolerance::NONE;
    if args.first().is_some_and(|a| a == "--tolerate") && args.len() > 1 {
        tolerance = Tolerance::parse(&args[1]);
        args.drain(..2);
    }
    let Some((target, files)) = args.split_first() else {
        eprintln!(
            "usage: describe [--tolerate all|name,...] <hull_builder|narrow_phase|world_script> <file>..."
        );
        std::process::exit(2);
    };
    let Some(&(_, run)) = sepax_fuzzing::TARGETS.iter().find(|(t, _)| t == target) else {
        eprintln!("unknown target {target}");
        std::process::exit(2);
    };
    for file in files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        println!("// {file} ({} bytes)", data.len());
        println!(
            "{}",
            sepax_fuzzing::describe(target, &data).unwrap_or_default()
        );
        match catch_unwind(AssertUnwindSafe(|| run(&data, tolerance))) {
            Ok(()) => println!("// passes\n"),
            Err(_) => println!("// FAILS (message above)\n"),
        }
    }
}
