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

use super::{Query, Separating, Support, argmax, better};
use crate::Feature;
use crate::sat::Axis;
use glam::Vec3;
use sepax_geometry::Plane;

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
            self.a.planes,
            cached,
            measured,
            margin,
            hint,
            b.vertices.len(),
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
            self.b.planes,
            cached,
            measured,
            margin,
            hint,
            a.vertices.len(),
            |plane| -plane.normal.dot(d_in_b),
            |k| self.frame.point_to_b(a.vertices[k]),
            |j| (self.face_b(j, support_a), support_a.last),
        )
    }

    /// The walk both face queries share, over one shape's `planes`: `facing(plane)` is
    /// the plane's normal along the centroid offset (the seed's measure and, minus the
    /// inner radii, the inner-sphere bound), `witness(k)` the other shape's vertex `k`
    /// in the planes' frame (`other_vertices` of them), `measure(i)` face `i`'s axis and
    /// the support vertex under it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn face_search(
        &self,
        planes: &[Plane],
        cached: Option<usize>,
        measured: Option<(Axis, usize)>,
        margin: f32,
        hint: &mut u16,
        other_vertices: usize,
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
        let (mut best, seed_vertex) = match measured {
            Some(measured) => measured,
            None => measure(seed),
        };
        let mut best_index = seed;
        *hint = hint_of(seed_vertex);
        if best.separation > margin {
            return Err(Separating(best));
        }
        witnesses.add(seed_vertex, || witness(seed_vertex));
        for (i, plane) in planes.iter().enumerate() {
            if i == seed
                || facing(plane) - self.inner_radii < best.separation
                || witnesses.rule_out(plane, best.separation)
            {
                continue;
            }
            let (axis, vertex) = measure(i);
            if axis.separation > margin {
                *hint = hint_of(vertex);
                return Err(Separating(axis));
            }
            if better(&axis, &best, i, best_index) {
                best = axis;
                best_index = i;
                *hint = hint_of(vertex);
            }
            witnesses.add(vertex, || witness(vertex));
        }
        Ok(best)
    }
}
