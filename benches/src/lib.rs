//! Helpers shared by sepax's criterion benches (`benches/*.rs`): converting sepax
//! values to the peers' types so that both sides measure the same pairs.
//!
//! Run one stage with `cargo bench -p sepax-benches --bench <name>`.
