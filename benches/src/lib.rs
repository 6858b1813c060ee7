//! Helpers shared by sepax's criterion benches (`benches/*.rs`): conversions of sepax
//! values to the peers' types, so that both sides measure the very same pairs. The
//! pairs and scenes themselves come from `sepax-testkit`.
//!
//! Run one stage with `cargo bench -p sepax-benches --bench <name>`.

pub mod to_parry;
