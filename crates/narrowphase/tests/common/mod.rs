//! Helpers shared by the narrow phase's integration tests.

pub mod parry;
