//! What a solver needs from consecutive manifolds, measured: do points persist (so
//! warm starting works), do feature ids hold, does the normal stay put.
//!
//! A point *persists* when the report matched it to a point of the same pair's
//! previous manifold (`previous_points[i].is_some()`): by feature id, or else by a
//! nearby anchor. Only points of pairs that were in contact the step before count:
//! a new pair has nothing to persist from.

use glam::Vec3;
use sepax_pipeline::ContactPair;

/// Counts over one step's contacts (or, summed with [`merge`](Self::merge), over
/// many steps).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ManifoldStats {
    /// Steps counted.
    pub steps: usize,
    /// Contact pairs.
    pub pairs: usize,
    /// Manifold points.
    pub points: usize,
    /// Points of pairs that were in contact the step before.
    pub continuing: usize,
    /// Of those, the points matched to a previous point.
    pub persisted: usize,
    /// Of those, the points whose feature id is the previous point's id.
    pub same_id: usize,
    /// Largest angle between a continuing pair's normal and its previous normal, rad.
    pub max_normal_turn: f32,
    /// Largest point depth (penetration), m.
    pub max_depth: f32,
}

impl ManifoldStats {
    /// Persisted points over continuing points (1 when there were none).
    pub fn persistence(&self) -> f64 {
        ratio(self.persisted, self.continuing)
    }

    /// Persisted points that kept their feature id, over persisted points.
    pub fn id_persistence(&self) -> f64 {
        ratio(self.same_id, self.persisted)
    }

    /// Adds `other`'s counts to these; maxima stay maxima.
    pub fn merge(&mut self, other: &ManifoldStats) {
        self.steps += other.steps;
        self.pairs += other.pairs;
        self.points += other.points;
        self.continuing += other.continuing;
        self.persisted += other.persisted;
        self.same_id += other.same_id;
        self.max_normal_turn = self.max_normal_turn.max(other.max_normal_turn);
        self.max_depth = self.max_depth.max(other.max_depth);
    }
}

fn ratio(num: usize, den: usize) -> f64 {
    if den == 0 {
        1.0
    } else {
        num as f64 / den as f64
    }
}

/// Remembers last step's normals and feature ids, parallel to its contacts, to
/// compare the next step's manifolds with.
#[derive(Debug, Default)]
pub struct ManifoldTracker {
    previous: Vec<(Vec3, [u64; 4])>,
}

impl ManifoldTracker {
    /// The stats of this step's `contacts`, then remembers them.
    pub fn observe(&mut self, contacts: &[ContactPair]) -> ManifoldStats {
        let mut s = ManifoldStats {
            steps: 1,
            pairs: contacts.len(),
            ..ManifoldStats::default()
        };
        for pair in contacts {
            let points = &pair.manifold.points;
            s.points += points.len();
            for p in points {
                s.max_depth = s.max_depth.max(p.depth);
            }
            let Some((normal, ids)) = pair.previous.and_then(|i| self.previous.get(i as usize))
            else {
                continue;
            };
            s.continuing += points.len();
            let cos = normal.dot(pair.manifold.normal).clamp(-1.0, 1.0);
            s.max_normal_turn = s.max_normal_turn.max(cos.acos());
            for (p, matched) in points.iter().zip(pair.previous_points) {
                if let Some(k) = matched {
                    s.persisted += 1;
                    s.same_id += usize::from(ids[k as usize] == p.id);
                }
            }
        }
        self.previous.clear();
        self.previous.extend(contacts.iter().map(|c| {
            let mut ids = [0; 4];
            for (id, p) in ids.iter_mut().zip(&c.manifold.points) {
                *id = p.id;
            }
            (c.manifold.normal, ids)
        }));
        s
    }
}
