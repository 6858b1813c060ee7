#![no_main]
//! `hull_builder`: see `sepax_fuzzing::hull_builder` for what is decoded and checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sepax_fuzzing::hull_builder(data));
