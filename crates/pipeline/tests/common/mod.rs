//! Helpers shared by the pipeline tests.

use sepax_pipeline::StepReport;
use std::hash::{DefaultHasher, Hash, Hasher};

/// A hash of everything a step reports except timings: contact handles, normals,
/// points (bit patterns), feature ids, anchors, point matches, events, quarantined bodies.
pub fn report_hash(r: &StepReport, h: &mut DefaultHasher) {
    r.candidate_pairs.hash(h);
    r.kept_pairs.hash(h);
    for c in &r.contacts {
        (
            c.a,
            c.b,
            c.user_data,
            c.touching,
            c.previous,
            c.previous_points,
        )
            .hash(h);
        c.manifold.normal.to_array().map(f32::to_bits).hash(h);
        c.manifold.feature.hash(h);
        for p in &c.manifold.points {
            p.position.to_array().map(f32::to_bits).hash(h);
            p.depth.to_bits().hash(h);
            p.id.hash(h);
            p.anchor_a.to_array().map(f32::to_bits).hash(h);
            p.anchor_b.to_array().map(f32::to_bits).hash(h);
        }
    }
    r.events.hash(h);
    r.quarantined.hash(h);
}

pub fn finish(h: DefaultHasher) -> u64 {
    h.finish()
}
