#![no_main]
//! `capsule_mesh`: see `sepax_fuzzing::capsule_mesh` for what is decoded and checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| sepax_fuzzing::capsule_mesh(data));
