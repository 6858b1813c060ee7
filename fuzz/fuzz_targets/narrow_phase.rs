#![no_main]
//! `narrow_phase`: see `sepax_fuzzing::narrow_phase` for what is decoded and checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sepax_fuzzing::narrow_phase(data));
