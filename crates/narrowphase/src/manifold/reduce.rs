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
//! **Ties within a tolerance go to the earlier candidate.** Each choice scans the
//! candidates in the clipper's order (which follows the features) and moves to a later
//! one only when its score is better by more than `tolerance` (a length; areas by
//! `tolerance · |p1 − p0|`), so the choice is within the tolerance of the best. Without it,
//! round-off picks among near-equal candidates: a cube turned on an equal cube clips to
//! an octagon whose eight depths differ by the tilt only, and a 1e-5 jitter would pick
//! another four points (four new ids) nearly every frame. The deepest point is thus
//! kept within `tolerance` of the deepest candidate. Points that add no area (collinear
//! sets) are dropped.

use crate::scratch::{give_back, pools, reserve};
use glam::Vec3;
use smallvec::SmallVec;

/// A contact point before reduction, in the frame its caller works in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Candidate {
    pub point: Vec3,
    pub depth: f32,
    pub id: u64,
}

/// The points of a clipped face before the reduction: inline up to 16.
pub(crate) type FaceCandidates = SmallVec<[Candidate; 16]>;

pools! { CANDIDATES: Candidate }

/// Room for `bound` candidates: inline when they fit, else the thread's pooled buffer
/// (a face of many sides has many points, no allocation per pair: `crate::scratch`);
/// [`give_back_candidates`] returns it.
#[inline(always)]
pub(crate) fn reserve_candidates(candidates: &mut FaceCandidates, bound: usize) {
    reserve(candidates, &CANDIDATES, bound);
}

/// Hands the buffer [`reserve_candidates`] took back to the thread's pool.
#[inline(always)]
pub(crate) fn give_back_candidates(candidates: &mut FaceCandidates) {
    give_back(candidates, &CANDIDATES);
}

/// The index of the best score, where a later candidate replaces the current best only
/// when it is better by more than `slack`: one pass, the earliest candidate among near
/// ties, and the chosen score within `slack` of the largest.
#[inline]
fn best_with_slack(scores: impl Iterator<Item = f32>, slack: f32) -> usize {
    let (mut best, mut best_score) = (0, f32::NEG_INFINITY);
    for (i, score) in scores.enumerate() {
        if score > best_score + slack {
            best = i;
            best_score = score;
        }
    }
    best
}

pub(crate) fn reduce(
    candidates: &[Candidate],
    normal: Vec3,
    tolerance: f32,
) -> SmallVec<[Candidate; 4]> {
    if candidates.len() <= 4 {
        return SmallVec::from_slice(candidates);
    }
    let i0 = best_with_slack(candidates.iter().map(|c| c.depth), tolerance);
    let p0 = candidates[i0].point;
    let i1 = best_with_slack(
        candidates.iter().map(|c| (c.point - p0).length()),
        tolerance,
    );
    let span = (candidates[i1].point - p0).length();
    // (p1 − p0) × (p − p0) · n = (p − p0) · ((p1 − p0) × n) up to sign: same order.
    let edge = (candidates[i1].point - p0).cross(normal);
    let area = |c: &Candidate| -edge.dot(c.point - p0);
    let slack = tolerance * span;
    // `p2` and `p3` in one pass: the two scans of `best_with_slack`, on each area once.
    let (mut i2, mut best2, mut i3, mut best3) = (0, f32::NEG_INFINITY, 0, f32::NEG_INFINITY);
    for (i, c) in candidates.iter().enumerate() {
        let a = area(c);
        if a > best2 + slack {
            i2 = i;
            best2 = a;
        }
        if -a > best3 + slack {
            i3 = i;
            best3 = -a;
        }
    }
    let (max_area, min_area) = (area(&candidates[i2]), area(&candidates[i3]));
    let negligible = 1e-6 * span * span;

    let mut kept: SmallVec<[Candidate; 4]> = SmallVec::new();
    kept.push(candidates[i0]);
    if i1 != i0 && span > 0.0 {
        kept.push(candidates[i1]);
    }
    if max_area > negligible {
        kept.push(candidates[i2]);
    }
    if -min_area > negligible && i3 != i2 {
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
        let kept = reduce(&candidates, Vec3::Z, 0.0);
        assert_eq!(kept.len(), 4);
        assert_eq!(kept[0].id, 3);
        assert_eq!(kept[1].id, 7); // opposite corner
        let ids: Vec<u64> = kept.iter().map(|c| c.id).collect();
        assert!(ids.contains(&1) && ids.contains(&5));
    }

    /// Near-equal depths (a jitter of 1e-6) do not decide: the same four points come
    /// back whatever the noise, as long as it stays within the tolerance.
    #[test]
    fn near_ties_go_to_the_earlier_candidate() {
        let octagon = |noise: [f32; 8]| -> Vec<Candidate> {
            (0..8)
                .map(|k| {
                    let angle = k as f32 * std::f32::consts::TAU / 8.0 + 0.1;
                    Candidate {
                        point: Vec3::new(angle.cos(), angle.sin(), 0.0) * (1.0 + noise[k]),
                        depth: 0.01 + noise[(k + 3) % 8],
                        id: k as u64,
                    }
                })
                .collect()
        };
        let ids = |c: &[Candidate]| -> Vec<u64> {
            reduce(c, Vec3::Z, 1e-4).iter().map(|c| c.id).collect()
        };
        let reference = ids(&octagon([0.0; 8]));
        assert_eq!(reference.len(), 4);
        let mut state = 1u32;
        for _ in 0..100 {
            let noise = std::array::from_fn(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 8) as f32 / (1u32 << 24) as f32 * 2e-6 - 1e-6
            });
            assert_eq!(ids(&octagon(noise)), reference);
        }
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
        let kept = reduce(&candidates, Vec3::Z, 0.0);
        assert_eq!(kept.len(), 2);
    }
}
