//! Helpers shared by sepax's criterion benches (`benches/*.rs`): conversions of sepax
//! values to the peers' types, so that both sides measure the very same pairs. The
//! pairs and scenes themselves come from `sepax-testkit`.
//!
//! Run one stage with `cargo bench -p sepax-benches --bench <name>`.

pub mod to_parry;

use sepax_geometry::Shape;
use sepax_narrowphase::BoxBoxPair;
use sepax_testkit::pairs::Pair;

/// The pairs as the batched box API (`collide_box_pairs`) takes them; `None` unless
/// every shape is a box.
pub fn box_batch(pairs: &[Pair]) -> Option<Vec<BoxBoxPair>> {
    pairs
        .iter()
        .map(|p| match (&p.a, &p.b) {
            (Shape::Cuboid(a), Shape::Cuboid(b)) => Some(BoxBoxPair {
                a: *a,
                pose_a: p.pose_a,
                b: *b,
                pose_b: p.pose_b,
            }),
            _ => None,
        })
        .collect()
}
