//! Keeping at most four contact points.
//!
//! A solver needs the deepest point and a support polygon that is as large as possible;
//! more than four points add cost and no stability (Jolt's `PruneContactPoints` makes the
//! same choice). From the candidates:
//! 1. `p0`, the deepest;
//! 2. `p1`, the furthest from `p0`;
//! 3. `p2`, the largest signed area of triangle `(p0, p1, p)` about the normal;
//! 4. `p3`, the most negative such area: the point furthest on the other side of `p0p1`.
//!
//! Ties go to the earlier candidate, so the choice is deterministic. Points that add no
//! area (collinear sets) are dropped.

use glam::Vec3;
use smallvec::SmallVec;

/// A contact point before reduction, in the frame its caller works in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Candidate {
    pub point: Vec3,
    pub depth: f32,
    pub id: u64,
}

pub(crate) fn reduce(candidates: &[Candidate], normal: Vec3) -> SmallVec<[Candidate; 4]> {
    if candidates.len() <= 4 {
        return candidates.iter().copied().collect();
    }
    let argmax = |key: &dyn Fn(&Candidate) -> f32| {
        let mut best = 0;
        let mut best_value = f32::NEG_INFINITY;
        for (i, c) in candidates.iter().enumerate() {
            let v = key(c);
            if v > best_value {
                best_value = v;
                best = i;
            }
        }
        (best, best_value)
    };
    let (i0, _) = argmax(&|c| c.depth);
    let p0 = candidates[i0].point;
    let (i1, span_squared) = argmax(&|c| (c.point - p0).length_squared());
    let p1 = candidates[i1].point;
    let area = |c: &Candidate| (p1 - p0).cross(c.point - p0).dot(normal);
    let (i2, max_area) = argmax(&|c| area(c));
    let (i3, min_area_negated) = argmax(&|c| -area(c));
    let negligible = 1e-6 * span_squared;

    let mut kept: SmallVec<[Candidate; 4]> = SmallVec::new();
    kept.push(candidates[i0]);
    if i1 != i0 {
        kept.push(candidates[i1]);
    }
    if max_area > negligible {
        kept.push(candidates[i2]);
    }
    if min_area_negated > negligible {
        kept.push(candidates[i3]);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octagon_reduces_to_a_spanning_quad_with_the_deepest_point() {
        let candidates: Vec<Candidate> = (0..8)
            .map(|k| {
                let angle = k as f32 * std::f32::consts::TAU / 8.0;
                Candidate {
                    point: Vec3::new(angle.cos(), angle.sin(), 0.0),
                    depth: if k == 3 { 0.2 } else { 0.1 },
                    id: k,
                }
            })
            .collect();
        let kept = reduce(&candidates, Vec3::Z);
        assert_eq!(kept.len(), 4);
        assert_eq!(kept[0].id, 3);
        assert_eq!(kept[1].id, 7); // opposite corner
        let ids: Vec<u64> = kept.iter().map(|c| c.id).collect();
        assert!(ids.contains(&1) && ids.contains(&5));
    }

    #[test]
    fn collinear_points_keep_two() {
        let candidates: Vec<Candidate> = (0..6)
            .map(|k| Candidate {
                point: Vec3::new(k as f32, 0.0, 0.0),
                depth: 0.1,
                id: k,
            })
            .collect();
        let kept = reduce(&candidates, Vec3::Z);
        assert_eq!(kept.len(), 2);
    }
}
