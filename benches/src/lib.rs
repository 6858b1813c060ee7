//! Helpers shared by sepax's criterion benches (`benches/*.rs`): the pairs the
//! narrow-phase benches measure, and conversions of sepax values to the peers' types so
//! that both sides measure the very same pairs.
//!
//! Run one stage with `cargo bench -p sepax-benches --bench <name>`.

pub mod pairs;
pub mod to_parry;
