//! The face queries of the hull–hull test, with the two bounds that let them skip a
//! face without changing the answer.
//!
//! Face `i` of a (plane `n·x = d`) separates the shapes by
//! `s_i = min over x in b of n·x − d`: computing it costs a support query over b's
//! vertices. Two upper bounds are cheaper, and a face whose bound is below the best
//! separation found so far cannot win, so it is skipped:
//! * the **inner spheres** of both shapes: `s_i ≤ n·(c_b − c_a) − r_a − r_b`;
//! * **witnesses**: any vertex `w` of b gives `s_i ≤ n·w − d` (`w` in a's frame). The
//!   witnesses are b's vertices found under the faces already measured, starting with
//!   the pair cache's support vertex from last frame (a warm start) and the seed
//!   face's. Near the contact they bound every face close to its true value, so only
//!   the faces that can still win are measured.
//!
//! A witness bound is computed with other roundings than the separation it bounds, so
//! it must clear the best by `WITNESS_SLACK` × the pair's extent, far above the few ulps
//! both can be off by: a skipped face is then strictly below the best in floating point
//! too, the search keeps the same best and the same order of faces, and the answer is
//! the same bits with or without witnesses (stale or fresh), which is what makes the
//! warm start safe. Faces of b: the same with `n = −R m_j`, `s_j ≤ m_j·v − e_j` for a
//! vertex `v` of a in b's frame.
//!
//! A hull's faces are walked 8 at a time: the inner spheres' bound in `wide::f32x8`
//! lanes over the hull's plane blocks (separate multiplies and adds in the scalar
//! test's order, so every SIMD level gives the scalar bits), then only the faces it
//! leaves open, one by one (see `face_search`).

use super::{Query, Separating, Support, argmax, better};
use crate::Feature;
use crate::sat::Axis;
use glam::Vec3;
use sepax_geometry::Plane;
use sepax_geometry::hull::blocks::BLOCK;
use sepax_geometry::hull::plane_blocks::PlaneBlock;
use wide::f32x8;

/// How far, as a fraction of the pair's extent `|t| + ρ_a + ρ_b` (ρ: the largest vertex
/// distance from the shape's origin), a witness bound must be below the best
/// separation to skip a face. The bound and the separation each round a handful of
/// times at that magnitude (~1e-7 relative each); 1e-5 leaves a wide margin.
pub(super) const WITNESS_SLACK: f32 = 1e-5;

/// How many witnesses a face query keeps.
const WITNESSES: usize = 4;

/// Vertices of the other shape, in the frame of the faces tested, that bound every
/// face's separation from above (see the module docs).
struct Witnesses {
    points: [Vec3; WITNESSES],
    indices: [usize; WITNESSES],
    len: usize,
    slack: f32,
}

impl Witnesses {
    fn new(slack: f32) -> Witnesses {
        Witnesses {
            points: [Vec3::ZERO; WITNESSES],
            indices: [usize::MAX; WITNESSES],
            len: 0,
            slack,
        }
    }

    /// Adds vertex `index` (at `point`) unless it is there already or the set is full.
    fn add(&mut self, index: usize, point: impl FnOnce() -> Vec3) {
        if self.len < WITNESSES && !self.indices[..self.len].contains(&index) {
            self.points[self.len] = point();
            self.indices[self.len] = index;
            self.len += 1;
        }
    }

    /// True when some witness proves that `plane` separates by less than `best`.
    #[inline]
    fn rule_out(&self, plane: &Plane, best: f32) -> bool {
        self.points[..self.len]
            .iter()
            .any(|w| plane.normal.dot(*w) - plane.offset + self.slack < best)
    }

    /// The inner spheres' bound `facing − inner_radii` of each plane of `block`
    /// (`facing = sign · n·towards`), with the scalar test's operations in its order
    /// (the same bits; a NaN read as `+∞`, which never rules a face out there), and the
    /// mask of the planes it does not rule out against `best` (`!(bound < best)`).
    #[inline(always)]
    fn block_bounds(
        block: &PlaneBlock,
        (towards, sign): (Vec3, f32),
        inner_radii: f32,
        best: f32,
    ) -> ([f32; BLOCK], u32) {
        let (x, y, z) = (
            f32x8::new(block.x),
            f32x8::new(block.y),
            f32x8::new(block.z),
        );
        let dot =
            x * f32x8::splat(towards.x) + y * f32x8::splat(towards.y) + z * f32x8::splat(towards.z);
        let bound = dot * f32x8::splat(sign) - f32x8::splat(inner_radii);
        let bound = bound
            .simd_eq(bound)
            .select(bound, f32x8::splat(f32::INFINITY));
        // Open: not `bound < best`, as the scalar test reads it (a NaN best rules
        // nothing out).
        let closed = bound.simd_lt(f32x8::splat(best)).to_bitmask();
        (bound.to_array(), !closed & 0xff)
    }
}

/// A vertex index as the pair cache keeps it (`u16::MAX`: none).
#[inline]
pub(super) fn hint_of(index: usize) -> u16 {
    u16::try_from(index).unwrap_or(u16::MAX)
}

impl Query<'_> {
    /// Face `i` of a as an axis: `s = n·t − d − h_b(−Rᵀn)`.
    #[inline]
    pub(super) fn face_a(&self, i: usize, support_b: &mut Support) -> Axis {
        let plane = self.a.planes[i];
        let n = plane.normal;
        let s = n.dot(self.frame.trans) - plane.offset - support_b.distance(self.frame.rot_t * -n);
        Axis {
            separation: s,
            normal: n,
            feature: Feature::FaceA(i as u32),
        }
    }

    /// Face `j` of b as an axis: `n = −R m_j`, `s = n·t − e_j − h_a(n)`.
    #[inline]
    pub(super) fn face_b(&self, j: usize, support_a: &mut Support) -> Axis {
        let plane = self.b.planes[j];
        let n = -(self.frame.rot * plane.normal);
        let s = n.dot(self.frame.trans) - plane.offset - support_a.distance(n);
        Axis {
            separation: s,
            normal: n,
            feature: Feature::FaceB(j as u32),
        }
    }

    /// The face query of a: the first face that separates beyond the margin (the seed,
    /// then in index order), else the face with the largest separation (the lowest index
    /// among ties). The seed is the cached face, else the face most facing b;
    /// `measured` is the cached face's axis and support vertex when the cached-axis
    /// check computed them. `hint` is b's support vertex under a's best face: read as a
    /// witness, then updated.
    pub(super) fn face_query_a(
        &self,
        cached: Option<Feature>,
        measured: Option<(Axis, usize)>,
        margin: f32,
        support_b: &mut Support,
        hint: &mut u16,
    ) -> Result<Axis, Separating> {
        let (b, d) = (self.b, self.centroid_offset);
        let cached = match cached {
            Some(Feature::FaceA(i)) => Some(i as usize),
            _ => None,
        };
        self.face_search(
            (
                self.a.planes,
                self.a.hull.map_or(&[][..], |h| h.plane_blocks()),
            ),
            cached,
            measured,
            margin,
            hint,
            b.vertices.len(),
            (d, 1.0),
            |plane| plane.normal.dot(d),
            |k| self.frame.point_to_a(b.vertices[k]),
            |i| (self.face_a(i, support_b), support_b.last),
        )
    }

    /// The face query of b, as [`Query::face_query_a`]; the inner-sphere bound of face
    /// `j` along `n = −R m_j` is `−m_j·(Rᵀ d) − r`. `hint` is a's support vertex under
    /// b's best face.
    pub(super) fn face_query_b(
        &self,
        cached: Option<Feature>,
        measured: Option<(Axis, usize)>,
        margin: f32,
        support_a: &mut Support,
        hint: &mut u16,
    ) -> Result<Axis, Separating> {
        let a = self.a;
        let d_in_b = self.frame.rot_t * self.centroid_offset;
        let cached = match cached {
            Some(Feature::FaceB(j)) => Some(j as usize),
            _ => None,
        };
        self.face_search(
            (
                self.b.planes,
                self.b.hull.map_or(&[][..], |h| h.plane_blocks()),
            ),
            cached,
            measured,
            margin,
            hint,
            a.vertices.len(),
            (d_in_b, -1.0),
            |plane| -plane.normal.dot(d_in_b),
            |k| self.frame.point_to_b(a.vertices[k]),
            |j| (self.face_b(j, support_a), support_a.last),
        )
    }

    /// The walk both face queries share, over one shape's `planes` (and the same planes
    /// in `blocks` of 8, or none): `facing(plane)` is the plane's normal along the
    /// centroid offset, `sign · n·towards` (the seed's measure and, minus the inner
    /// radii, the inner-sphere bound), `witness(k)` the other shape's vertex `k` in the
    /// planes' frame (`other_vertices` of them), `measure(i)` face `i`'s axis and the
    /// support vertex under it.
    ///
    /// With blocks (a hull's), the inner-sphere bounds of 8 faces are computed at once
    /// ([`Witnesses::block_bounds`], the scalar test's bits) against the best at the
    /// block's start; only the faces they leave open are visited, in order, with the
    /// scalar walk's own tests (the same bound against the best so far, the witnesses).
    /// Since the best only grows, a face the block's mask closes is one the scalar walk
    /// skips too: both walks measure the same faces in the same order (tested on
    /// 100,000 cold queries). Most faces of a hull look away from the other shape and
    /// fail the inner-sphere bound, so the walk visits a few lanes a block. Measured
    /// with callgrind (`prof hull 24` / `hull 64`, `N=10`, inside `collide`): 38.69 →
    /// 37.21 and 55.51 → 51.16 million instructions; a first version that also put the
    /// witnesses' bounds in lanes was 8–11 % slower than the scalar walk (the bound of
    /// the inner spheres alone rules out most faces, and every lane paid for every
    /// witness).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn face_search(
        &self,
        (planes, blocks): (&[Plane], &[PlaneBlock]),
        cached: Option<usize>,
        measured: Option<(Axis, usize)>,
        margin: f32,
        hint: &mut u16,
        other_vertices: usize,
        (towards, sign): (Vec3, f32),
        facing: impl Fn(&Plane) -> f32,
        witness: impl Fn(usize) -> Vec3,
        mut measure: impl FnMut(usize) -> (Axis, usize),
    ) -> Result<Axis, Separating> {
        let seed = match cached {
            Some(i) if i < planes.len() => i,
            _ => argmax(planes.iter().map(&facing)),
        };
        let mut witnesses = Witnesses::new(self.witness_slack);
        if (*hint as usize) < other_vertices {
            witnesses.add(*hint as usize, || witness(*hint as usize));
        }
        // The cached face was measured already (as the cached axis): the same bits.
        let (best, seed_vertex) = match measured {
            Some(measured) => measured,
            None => measure(seed),
        };
        let best_index = seed;
        *hint = hint_of(seed_vertex);
        if best.separation > margin {
            return Err(Separating(best));
        }
        witnesses.add(seed_vertex, || witness(seed_vertex));
        // Face `i` measured: the walk's step, shared by both loops below.
        let mut visit = |i: usize, best: &mut (Axis, usize), witnesses: &mut Witnesses| {
            let (axis, vertex) = measure(i);
            if axis.separation > margin {
                *hint = hint_of(vertex);
                return Err(Separating(axis));
            }
            if better(&axis, &best.0, i, best.1) {
                *best = (axis, i);
                *hint = hint_of(vertex);
            }
            witnesses.add(vertex, || witness(vertex));
            Ok(())
        };
        let mut best = (best, best_index);
        if blocks.len() * BLOCK >= planes.len() {
            for (k, block) in blocks.iter().enumerate() {
                let (bounds, mut open) = Witnesses::block_bounds(
                    block,
                    (towards, sign),
                    self.inner_radii,
                    best.0.separation,
                );
                while open != 0 {
                    let l = open.trailing_zeros() as usize;
                    open &= open - 1;
                    let i = k * BLOCK + l;
                    let Some(plane) = planes.get(i) else {
                        break;
                    };
                    if i == seed
                        || bounds[l] < best.0.separation
                        || witnesses.rule_out(plane, best.0.separation)
                    {
                        continue;
                    }
                    visit(i, &mut best, &mut witnesses)?;
                }
            }
        } else {
            for (i, plane) in planes.iter().enumerate() {
                if i == seed
                    || facing(plane) - self.inner_radii < best.0.separation
                    || witnesses.rule_out(plane, best.0.separation)
                {
                    continue;
                }
                visit(i, &mut best, &mut witnesses)?;
            }
        }
        Ok(best.0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{SupportMode, hull_hull};
    use crate::cache::SupportHints;
    use crate::frame::Frame;
    use crate::polytope::Polytope;
    use glam::Vec3;
    use sepax_geometry::rng::Rng;
    use sepax_geometry::{ConvexHull, Pose};

    /// A hull of 4–67 points on an ellipsoid (so that many faces lie close to the
    /// inner sphere's bound and to the witnesses', where the two walks could part).
    fn random_hull(rng: &mut Rng) -> ConvexHull {
        let n = 4 + rng.below(64);
        let radii = rng.vec3(Vec3::splat(0.05), Vec3::splat(2.0));
        let points: Vec<Vec3> = (0..n).map(|_| rng.unit_vec3() * radii).collect();
        ConvexHull::try_from_points(&points).expect("random points span a hull")
    }

    /// The face walk over plane blocks measures what the scalar walk measures: the whole
    /// cold query (the polytope without its hull takes the scalar walk; nothing else of
    /// a cold query reads the hull) gives the same outcome and leaves the same support
    /// hints, on 100,000 queries over random hulls, poses from coincident and deep to
    /// apart (far from the origin too), margins and start hints (the witnesses).
    #[test]
    fn block_walk_measures_what_the_scalar_walk_measures() {
        let mut rng = Rng::new(20261203);
        let mut hulls = Vec::new();
        while hulls.len() < 200 {
            hulls.push(random_hull(&mut rng));
        }
        let (mut separated, mut overlapping) = (0, 0);
        for round in 0..100_000 {
            let (ha, hb) = (&hulls[rng.below(200)], &hulls[rng.below(200)]);
            let far = if round % 8 == 0 { 1e4 } else { 0.0 };
            let base = rng.vec3(Vec3::splat(-far), Vec3::splat(far));
            // Coincident origins one round in 50 (the deepest placement).
            let offset = match round % 50 {
                0 => Vec3::ZERO,
                _ => {
                    rng.unit_vec3()
                        * rng.range(0.0, 1.2)
                        * (ha.bounding_radius() + hb.bounding_radius())
                }
            };
            let pose_a = Pose::new(base, rng.rotation());
            let pose_b = Pose::new(base + offset, rng.rotation());
            let frame = Frame::new(&pose_a, &pose_b);
            let (pa, pb) = (Polytope::from_hull(ha), Polytope::from_hull(hb));
            let (sa, sb) = (Polytope { hull: None, ..pa }, Polytope { hull: None, ..pb });
            let margin = [0.0, 0.01, 0.1][rng.below(3)];
            let hint = |rng: &mut Rng, n: usize| rng.below(n + 2) as u16;
            let start = SupportHints {
                b_under_face_a: hint(&mut rng, hb.vertices().len()),
                a_under_face_b: hint(&mut rng, ha.vertices().len()),
            };
            let mode = [SupportMode::Scan, SupportMode::Walk][rng.below(2)];
            let (mut blocks_hints, mut scalar_hints) = (start, start);
            let blocks = hull_hull(
                &pa,
                &pb,
                &frame,
                margin,
                None,
                None,
                mode,
                &mut blocks_hints,
            );
            let scalar = hull_hull(
                &sa,
                &sb,
                &frame,
                margin,
                None,
                None,
                mode,
                &mut scalar_hints,
            );
            assert_eq!(
                format!("{blocks:?}"),
                format!("{scalar:?}"),
                "round {round}"
            );
            assert_eq!(blocks_hints, scalar_hints, "round {round}");
            match blocks {
                crate::sat::SatOutcome::Separated(_) => separated += 1,
                _ => overlapping += 1,
            }
        }
        assert!(
            separated > 10_000 && overlapping > 10_000,
            "{separated} / {overlapping}"
        );
    }
}
