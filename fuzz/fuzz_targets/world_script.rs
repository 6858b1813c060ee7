#![no_main]
//! `world_script`: see `sepax_fuzzing::world_script` for what is decoded and checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sepax_fuzzing::world_script(data));
