#![no_main]
//! `world_all_shapes`: see `sepax_fuzzing::world_all_shapes` for what is decoded and
//! checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sepax_fuzzing::world_all_shapes(data));
