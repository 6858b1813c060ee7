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
        return SmallVec::from_slice(candidates);
    }
    // Plain loops: strict `>` keeps the first of equal candidates.
    let mut i0 = 0;
    for (i, c) in candidates.iter().enumerate() {
        if c.depth > candidates[i0].depth {
            i0 = i;
        }
    }
    let p0 = candidates[i0].point;
    let (mut i1, mut span_squared) = (i0, 0.0f32);
    for (i, c) in candidates.iter().enumerate() {
        let d = (c.point - p0).length_squared();
        if d > span_squared {
            span_squared = d;
            i1 = i;
        }
    }
    let edge = (candidates[i1].point - p0).cross(normal);
    let (mut i2, mut max_area) = (i0, f32::NEG_INFINITY);
    let (mut i3, mut min_area) = (i0, f32::INFINITY);
    for (i, c) in candidates.iter().enumerate() {
        // (p1 − p0) × (p − p0) · n = (p − p0) · ((p1 − p0) × n) up to sign: same order.
        let area = -edge.dot(c.point - p0);
        if area > max_area {
            max_area = area;
            i2 = i;
        }
        if area < min_area {
            min_area = area;
            i3 = i;
        }
    }
    let negligible = 1e-6 * span_squared;

    let mut kept: SmallVec<[Candidate; 4]> = SmallVec::new();
    kept.push(candidates[i0]);
    if i1 != i0 {
        kept.push(candidates[i1]);
    }
    if max_area > negligible {
        kept.push(candidates[i2]);
    }
    if -min_area > negligible {
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
