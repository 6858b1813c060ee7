//! Box–box separating-axis test: 15 axes in a's frame (Ericson, *Real-Time Collision
//! Detection* §4.4.1), without projecting a single vertex.
//!
//! With `R[i][j] = a_i · b_j` (b's axes in a's frame), `t` the centre of b in a's frame
//! and `ha`, `hb` the half extents, the projected radius of a box on an axis `L` is
//! `Σ h_k |e_k · L|`, so for
//! * a face axis `a_i`: `s = |t_i| − (ha_i + Σ_j hb_j |R[i][j]|)`;
//! * a face axis `b_j`: `s = |t · b_j| − (Σ_i ha_i |R[i][j]| + hb_j)`;
//! * an edge axis `L = a_i × b_j`, with `i1, i2` (and `j1, j2`) the two other indices in
//!   cyclic order: in a's frame `L = e_i × c_j` (`c_j` column `j` of `R`, b's axis), so
//!   `L_{i1} = −R[i2][j]`, `L_{i2} = R[i1][j]`, `|L|² = R[i1][j]² + R[i2][j]²` and
//!   `t·L = t_{i2} R[i1][j] − t_{i1} R[i2][j]`,
//!   `r_a = ha_{i1} |R[i2][j]| + ha_{i2} |R[i1][j]|`,
//!   `r_b = hb_{j1} |c_{j1}·L| + hb_{j2} |c_{j2}·L|` with
//!   `c_k·L = R[i2][k] R[i1][j] − R[i1][k] R[i2][j]` (and `c_j·L = 0`),
//!   `s = (|t·L| − r_a − r_b) / |L|`.
//!
//! ## Why `r_b` takes the long road
//! For an orthonormal `R`, `c_{j1}·L = ±R[i][j2]`, and Ericson reads it off so. But `R`
//! is rounded to f32: its columns are orthonormal to about 3e-8 only, and that entry
//! misses `c_{j1}·L` by as much, which the division by `|L|` turns into an error of
//! `3e-8 / |L|` of b's size on the axis' separation. Near-parallel edges have a small
//! `|L|` (0.005 gave errors of 1e-5 of the size; below it the axis had to be skipped,
//! leaving long thin boxes several times too deep). Every quantity above is instead
//! exact for the rounded `R` up to a few f32 roundings *of terms as small as `|L|`*: the
//! components of `L` are entries of `R`, `c_k·L` is a difference of two products of an
//! entry and a component of `L`. So `s` is within a few `ε · (|t| + ha + hb)` of the
//! exact separation of the rounded frame, for every `|L|`, and the rounded frame is
//! within 3e-8 × size of the poses. Only axes whose `|L|²` is below
//! `DEGENERATE_EDGE_AXIS` (1e-30, where squares start to underflow) are skipped:
//! the edges are parallel, and the face axes cover that configuration exactly.
//!
//! No epsilon is added to `|R|` (Ericson adds one to every entry against near-parallel
//! edges; on the face axes it only biases the depth, by about 1e-6 of the size). The
//! first axis whose separation exceeds the margin ends the test.

use super::{Axis, Frame, Pick, SatOutcome, fold_separations};
use crate::Feature;
use crate::sat::FEATURE_SLOP;
use glam::Vec3;

/// The box-box axis numbering: 0..3 faces of a, 3..6 faces of b, 6 + 3i + j edges.
pub(crate) fn axis_index(feature: Feature) -> Option<usize> {
    match feature {
        Feature::FaceA(f) if f < 6 => Some(f as usize / 2),
        Feature::FaceB(f) if f < 6 => Some(3 + f as usize / 2),
        Feature::EdgeEdge(ea, eb) if ea < 12 && eb < 12 => {
            Some(6 + 3 * (ea as usize / 4) + eb as usize / 4)
        }
        _ => None,
    }
}

// The three separation formulas, one axis of one pair each. The scalar test and the
// wide lanes (`box_box_wide`) both call them, so that a pair's separations are the
// same operations in the same order whichever path computes them: bit for bit equal.

/// Face axis `a_i`: `|t_i| − (ha_i + Σ_j hb_j |R[i][j]|)`, summed left to right.
#[inline(always)]
pub(crate) fn face_a_separation(t_i: f32, ha_i: f32, hb: [f32; 3], abs_r_row: [f32; 3]) -> f32 {
    t_i.abs() - (ha_i + hb[0] * abs_r_row[0] + hb[1] * abs_r_row[1] + hb[2] * abs_r_row[2])
}

/// Face axis `b_j`: `|t · b_j| − (Σ_i ha_i |R[i][j]| + hb_j)`, summed left to right.
#[inline(always)]
pub(crate) fn face_b_separation(
    t: [f32; 3],
    r_col: [f32; 3],
    ha: [f32; 3],
    abs_r_col: [f32; 3],
    hb_j: f32,
) -> f32 {
    let tb = t[0] * r_col[0] + t[1] * r_col[1] + t[2] * r_col[2];
    tb.abs() - (ha[0] * abs_r_col[0] + ha[1] * abs_r_col[1] + ha[2] * abs_r_col[2] + hb_j)
}

/// Below this `|L|² = |a_i × b_j|²` the edges are parallel for the box test: the squares
/// and products of `edge_separation` would start to underflow (see the module docs).
pub(crate) const DEGENERATE_EDGE_AXIS: f32 = 1e-30;

/// The entries one edge axis `a_i × b_j` reads (see the module docs for the indices).
pub(crate) struct EdgeTerms {
    /// `R[i1][j]`, `R[i2][j]`: the components of `L`, up to sign.
    pub r_i1: f32,
    pub r_i2: f32,
    pub t_i1: f32,
    pub t_i2: f32,
    pub ha_i1: f32,
    pub ha_i2: f32,
    pub hb_j1: f32,
    pub hb_j2: f32,
    /// `R[i1][j1]`, `R[i2][j1]`: b's axis `c_{j1}` across the edge.
    pub r_i1_j1: f32,
    pub r_i2_j1: f32,
    /// `R[i1][j2]`, `R[i2][j2]`: b's axis `c_{j2}` across the edge.
    pub r_i1_j2: f32,
    pub r_i2_j2: f32,
}

/// Edge axis `a_i × b_j`: `(|t·L| − r_a − r_b) / |L|`, or `−∞` when the edges are
/// parallel (`|L|² < DEGENERATE_EDGE_AXIS`). Written as a select of two computed
/// values, so that lanes vectorise it without a branch.
#[inline(always)]
pub(crate) fn edge_separation(e: EdgeTerms) -> f32 {
    let length_squared = e.r_i1 * e.r_i1 + e.r_i2 * e.r_i2;
    let tl = e.t_i2 * e.r_i1 - e.t_i1 * e.r_i2;
    let ra = e.ha_i1 * e.r_i2.abs() + e.ha_i2 * e.r_i1.abs();
    let across_j1 = e.r_i2_j1 * e.r_i1 - e.r_i1_j1 * e.r_i2;
    let across_j2 = e.r_i2_j2 * e.r_i1 - e.r_i1_j2 * e.r_i2;
    let rb = e.hb_j1 * across_j1.abs() + e.hb_j2 * across_j2.abs();
    let separation = (tl.abs() - ra - rb) / length_squared.sqrt();
    if length_squared < DEGENERATE_EDGE_AXIS {
        f32::NEG_INFINITY
    } else {
        separation
    }
}

/// Rotation entries and their absolute values, precomputed once per pair, as plain
/// arrays so that every index below is a compile-time constant.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxPair {
    pub ha: [f32; 3],
    pub hb: [f32; 3],
    /// `R[i][j] = a_i · b_j`.
    pub r: [[f32; 3]; 3],
    abs_r: [[f32; 3]; 3],
    /// b's centre in a's frame.
    pub t: [f32; 3],
    pub frame: Frame,
}

impl BoxPair {
    #[inline]
    pub(crate) fn new(ha: Vec3, hb: Vec3, frame: &Frame) -> BoxPair {
        let cols = [
            frame.rot.x_axis.to_array(),
            frame.rot.y_axis.to_array(),
            frame.rot.z_axis.to_array(),
        ];
        // (Written out: `[T; N]::map` was left as a call in the batched path when the
        // crate's code-generation units were split another way.)
        let row = |i: usize| [cols[0][i], cols[1][i], cols[2][i]];
        let r = [row(0), row(1), row(2)];
        let abs = |v: [f32; 3]| [v[0].abs(), v[1].abs(), v[2].abs()];
        let abs_r = [abs(r[0]), abs(r[1]), abs(r[2])];
        BoxPair {
            ha: ha.to_array(),
            hb: hb.to_array(),
            r,
            abs_r,
            t: frame.trans.to_array(),
            frame: *frame,
        }
    }

    /// Face axis `a_I`: `|t_I| − (ha_I + Σ_j hb_j |R[I][j]|)`.
    #[inline(always)]
    fn face_a<const I: usize>(&self) -> f32 {
        let (hb, ar) = (&self.hb, &self.abs_r);
        face_a_separation(self.t[I], self.ha[I], *hb, ar[I])
    }

    /// Face axis `b_J`: `|t · b_J| − (Σ_i ha_i |R[i][J]| + hb_J)`.
    #[inline(always)]
    fn face_b<const J: usize>(&self) -> f32 {
        let (r, ar) = (&self.r, &self.abs_r);
        face_b_separation(
            self.t,
            [r[0][J], r[1][J], r[2][J]],
            self.ha,
            [ar[0][J], ar[1][J], ar[2][J]],
            self.hb[J],
        )
    }

    /// Edge axis `a_I × b_J` (see the module docs); `−∞` when the edges are parallel.
    #[inline(always)]
    fn edge<const I: usize, const J: usize>(&self) -> f32 {
        let (ha, hb, r, t) = (&self.ha, &self.hb, &self.r, &self.t);
        let (i1, i2) = ((I + 1) % 3, (I + 2) % 3);
        let (j1, j2) = ((J + 1) % 3, (J + 2) % 3);
        edge_separation(EdgeTerms {
            r_i1: r[i1][J],
            r_i2: r[i2][J],
            t_i1: t[i1],
            t_i2: t[i2],
            ha_i1: ha[i1],
            ha_i2: ha[i2],
            hb_j1: hb[j1],
            hb_j2: hb[j2],
            r_i1_j1: r[i1][j1],
            r_i2_j1: r[i2][j1],
            r_i1_j2: r[i1][j2],
            r_i2_j2: r[i2][j2],
        })
    }

    /// All 15 separations, faces of a, faces of b, then edges `6 + 3i + j`.
    #[inline(always)]
    fn separations(&self) -> [f32; 15] {
        [
            self.face_a::<0>(),
            self.face_a::<1>(),
            self.face_a::<2>(),
            self.face_b::<0>(),
            self.face_b::<1>(),
            self.face_b::<2>(),
            self.edge::<0, 0>(),
            self.edge::<0, 1>(),
            self.edge::<0, 2>(),
            self.edge::<1, 0>(),
            self.edge::<1, 1>(),
            self.edge::<1, 2>(),
            self.edge::<2, 0>(),
            self.edge::<2, 1>(),
            self.edge::<2, 2>(),
        ]
    }

    /// Normal (a→b, a's frame) and feature of axis `k`, given its separation. Inlined:
    /// as a call, its answer went through memory as scalar stores that the caller's
    /// vector loads waited on (a failed store forward, a fifth of `Bundle::outcome`'s
    /// time in `perf annotate` of `prof boxbatch touching`).
    #[inline(always)]
    pub(crate) fn axis(&self, k: usize, separation: f32) -> Axis {
        let (r, t) = (&self.r, &self.t);
        if k < 6 {
            // Column `k − 3` of `R`, read only for a face of b (`k ≥ 3`).
            let j = k.wrapping_sub(3);
            return face_axis(k, separation, t, || Vec3::new(r[0][j], r[1][j], r[2][j]));
        }
        edge_axis(k, separation, |i, j| r[i][j], t)
    }
}

/// Normal (a→b, a's frame) and feature of edge axis `k ≥ 6` (`a_i × b_j`, see
/// [`axis_index`]), given its separation, `R` as `r(i, j)` and b's centre `t` in a's
/// frame. b's edge is found along `Rᵀ(−n)`, summed as glam's `Mat3 * Vec3` sums it
/// (column by column, left to right), so the bits are those of `Frame::rot_t * −n`. The
/// batch calls it straight from its lanes.
#[inline(always)]
pub(crate) fn edge_axis(
    k: usize,
    separation: f32,
    r: impl Fn(usize, usize) -> f32,
    t: &[f32; 3],
) -> Axis {
    let (i, j) = ((k - 6) / 3, (k - 6) % 3);
    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
    // `normal[i1] = −R[i2][j]`, `normal[i2] = R[i1][j]`, the rest 0, built in registers:
    // written to an array at runtime indices and read back as a vector, the read waited
    // on the stores (a failed store forward: a fifth of this function's time in
    // `perf` on `prof boxbatch touching`).
    let normal = match i {
        0 => Vec3::new(0.0, -r(2, j), r(1, j)),
        1 => Vec3::new(r(2, j), 0.0, -r(0, j)),
        _ => Vec3::new(-r(1, j), r(0, j), 0.0),
    };
    let tl = t[i2] * r(i1, j) - t[i1] * r(i2, j);
    let sign = if tl >= 0.0 { 1.0 } else { -1.0 };
    let normal = normal.normalize() * sign;
    let m = -normal;
    let in_b = |c: usize| r(0, c) * m.x + r(1, c) * m.y + r(2, c) * m.z;
    Axis {
        separation,
        normal,
        feature: Feature::EdgeEdge(
            box_edge_along(i, normal),
            box_edge_along(j, Vec3::new(in_b(0), in_b(1), in_b(2))),
        ),
    }
}

/// Normal (a→b, a's frame) and feature of face axis `k < 6` (see [`axis_index`]), given
/// its separation, b's centre `t` in a's frame and, for a face of b (`k ≥ 3`), that
/// face's axis `b_{k−3}` in a's frame (column `k − 3` of `R`, read only then). The
/// batch calls it straight from its lanes for the pairs a face separates.
#[inline(always)]
pub(crate) fn face_axis(
    k: usize,
    separation: f32,
    t: &[f32; 3],
    axis_b: impl Fn() -> Vec3,
) -> Axis {
    if k < 3 {
        let sign = if t[k] >= 0.0 { 1.0 } else { -1.0 };
        return Axis {
            separation,
            normal: unit_axis_vector(k, sign),
            feature: Feature::FaceA(2 * k as u32 + (sign > 0.0) as u32),
        };
    }
    let j = k - 3;
    let axis_b = axis_b();
    let sign = if Vec3::from_array(*t).dot(axis_b) >= 0.0 {
        1.0
    } else {
        -1.0
    };
    // b's touching face has outward normal −n = −sign · b_j.
    Axis {
        separation,
        normal: axis_b * sign,
        feature: Feature::FaceB(2 * j as u32 + (sign < 0.0) as u32),
    }
}

/// `value` on axis `axis` (0, 1 or 2), `+0` on the others, built in registers (see
/// [`edge_axis`]).
#[inline(always)]
pub(crate) fn unit_axis_vector(axis: usize, value: f32) -> Vec3 {
    match axis {
        0 => Vec3::new(value, 0.0, 0.0),
        1 => Vec3::new(0.0, value, 0.0),
        _ => Vec3::new(0.0, 0.0, value),
    }
}

/// The box edge running along local axis `axis` that is furthest along `dir` (local):
/// numbered `4 · axis + (dir_{axis+1} > 0) + 2 (dir_{axis+2} > 0)`.
#[inline]
pub(crate) fn box_edge_along(axis: usize, dir: Vec3) -> u32 {
    let (a1, a2) = ((axis + 1) % 3, (axis + 2) % 3);
    // Plain arrays: glam's runtime-indexed `Vec3[i]` is a match per access.
    let dir = dir.to_array();
    4 * axis as u32 + (dir[a1] > 0.0) as u32 + 2 * (dir[a2] > 0.0) as u32
}

/// The endpoints of box edge `edge` (numbered as [`box_edge_along`]) in the box's frame,
/// built in registers (a match on the axis: written to arrays at runtime indices and
/// read back as vectors, the reads waited on the stores, see [`edge_axis`]).
pub(crate) fn box_edge_segment(h: Vec3, edge: u32) -> (Vec3, Vec3) {
    let axis = edge as usize / 4;
    let (a1, a2) = ((axis + 1) % 3, (axis + 2) % 3);
    let h = h.to_array();
    let s1 = if edge & 1 != 0 { h[a1] } else { -h[a1] };
    let s2 = if edge & 2 != 0 { h[a2] } else { -h[a2] };
    let along = h[axis];
    // `p[a1] = s1`, `p[a2] = s2`, `p[axis] = ∓h[axis]` for the two ends.
    match axis {
        0 => (Vec3::new(-along, s1, s2), Vec3::new(along, s1, s2)),
        1 => (Vec3::new(s2, -along, s1), Vec3::new(s2, along, s1)),
        _ => (Vec3::new(s1, s2, -along), Vec3::new(s1, s2, along)),
    }
}

/// The 15-axis test. `cached` is tried first; with no axis above `margin`, returns the
/// exact and preferred axes (see the [module docs](super)).
pub(crate) fn box_box(
    ha: Vec3,
    hb: Vec3,
    frame: &Frame,
    margin: f32,
    cached: Option<Feature>,
) -> SatOutcome {
    let pair = BoxPair::new(ha, hb, frame);
    // Separated pairs are nearly always told apart by a face axis: test the six face
    // axes before paying for the nine edge axes.
    let faces = [
        pair.face_a::<0>(),
        pair.face_a::<1>(),
        pair.face_a::<2>(),
        pair.face_b::<0>(),
        pair.face_b::<1>(),
        pair.face_b::<2>(),
    ];
    if let Some(outcome) = pair.separated_by_face(&faces, margin) {
        return outcome;
    }
    pair.choose(&pair.separations(), margin, cached)
}

/// What [`BoxPair::choose`] reads off the 15 separations: the first axis whose
/// separation exceeds the margin, and the best axis of each kind — faces of a (`0..3`),
/// faces of b (`3..6`), edge pairs (`6..15`) — the lowest index winning a tie (a later
/// axis replaces the best only when strictly greater).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scan {
    pub first_separating: Option<usize>,
    pub best: [usize; 3],
}

/// The scalar [`Scan`] of one pair's separations, in one pass.
#[inline]
pub(crate) fn scan(separations: &[f32; 15], margin: f32) -> Scan {
    let mut best = [0, 3, 6];
    for (k, &s) in separations.iter().enumerate() {
        if s > margin {
            return Scan {
                first_separating: Some(k),
                best,
            };
        }
        let kind = if k < 3 {
            0
        } else if k < 6 {
            1
        } else {
            2
        };
        if s > separations[best[kind]] {
            best[kind] = k;
        }
    }
    Scan {
        first_separating: None,
        best,
    }
}

/// The exact axis among the best of each kind (`best`, from a [`Scan`]): the rule of
/// [`fold_separations`] for its exact pick — a's best face, replaced by b's best face
/// when strictly greater, then by the best edge pair when strictly greater (a
/// degenerate edge axis, `−∞`, never is). The contact queries need this axis only.
/// `separation(k)` reads axis `k`'s separation: the batch reads its lanes in place
/// (three values, where copying the lane's fifteen out cost more than the pick).
#[inline(always)]
pub(crate) fn exact_axis_index(separation: impl Fn(usize) -> f32, best: [usize; 3]) -> usize {
    let (face_a, face_b, edge) = (
        separation(best[0]),
        separation(best[1]),
        separation(best[2]),
    );
    let (mut exact, mut deepest) = (best[0], face_a);
    if face_b > deepest {
        (exact, deepest) = (best[1], face_b);
    }
    if edge > f32::NEG_INFINITY && edge > deepest {
        exact = best[2];
    }
    exact
}

impl BoxPair {
    /// The first face axis (`0..6`) whose separation exceeds `margin`, if any.
    #[inline]
    pub(crate) fn separated_by_face(&self, faces: &[f32; 6], margin: f32) -> Option<SatOutcome> {
        let k = faces.iter().position(|&s| s > margin)?;
        Some(SatOutcome::Separated(self.axis(k, faces[k])))
    }

    /// The outcome from all 15 separations once no face axis separates: the cached axis
    /// if it separates, else the first axis that does, else the folded candidates.
    /// (Not inlined into `box_box`: there it made the 15 separations before it cost
    /// about 75 instructions more a pair.)
    #[inline(never)]
    pub(crate) fn choose(
        &self,
        separations: &[f32; 15],
        margin: f32,
        cached: Option<Feature>,
    ) -> SatOutcome {
        self.choose_scanned(separations, scan(separations, margin), margin, cached)
    }

    /// [`choose`](Self::choose) with the separations already scanned (by [`scan`], or
    /// by the batch's lanes, which compute the same indices).
    #[inline(always)]
    pub(crate) fn choose_scanned(
        &self,
        separations: &[f32; 15],
        scanned: Scan,
        margin: f32,
        cached: Option<Feature>,
    ) -> SatOutcome {
        let (ha, hb) = (Vec3::from_array(self.ha), Vec3::from_array(self.hb));
        choose_scanned(
            ha,
            hb,
            separations,
            scanned,
            margin,
            cached,
            #[inline(always)]
            |k, s| self.axis(k, s),
        )
    }
}

/// [`BoxPair::choose`] with the separations already scanned, for boxes of half extents
/// `ha`, `hb`, the normal and feature of axis `k` with separation `s` given by
/// `axis(k, s)` (a `BoxPair`'s [`BoxPair::axis`], or the batch's lanes, which compute
/// it by the same functions from the same entries).
#[inline(always)]
pub(crate) fn choose_scanned(
    ha: Vec3,
    hb: Vec3,
    separations: &[f32; 15],
    scanned: Scan,
    margin: f32,
    cached: Option<Feature>,
    axis: impl Fn(usize, f32) -> Axis,
) -> SatOutcome {
    // The remembered axis first, then the 15 in order: the first that separates wins.
    if let Some(k) = cached.and_then(axis_index)
        && separations[k] > margin
    {
        return SatOutcome::Separated(axis(k, separations[k]));
    }
    let Scan {
        first_separating,
        best,
    } = scanned;
    if let Some(k) = first_separating {
        return SatOutcome::Separated(axis(k, separations[k]));
    }
    let slop = FEATURE_SLOP * ha.min_element().min(hb.min_element());
    // Last query's reference axis, measured now (a degenerate edge axis is not kept).
    let kept = cached
        .and_then(axis_index)
        .filter(|&k| separations[k] > f32::NEG_INFINITY);
    let (exact, preferred) = fold_separations(
        separations[best[0]],
        [
            Some(separations[best[1]]),
            (separations[best[2]] > f32::NEG_INFINITY).then_some(separations[best[2]]),
            None,
            kept.map(|k| separations[k]),
        ],
        slop,
    );
    // Normals and features only for the two axes chosen.
    let index = |pick: Pick| match pick {
        Pick::FaceA => best[0],
        Pick::FaceB => best[1],
        Pick::Edge | Pick::AnyEdge => best[2],
        Pick::Kept => kept.expect("the fold keeps a given axis"),
    };
    let (exact, preferred) = (index(exact), index(preferred));
    let exact_axis = axis(exact, separations[exact]);
    SatOutcome::Overlap {
        exact: exact_axis,
        preferred: if preferred == exact {
            exact_axis
        } else {
            axis(preferred, separations[preferred])
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contact queries' exact axis is the one `choose` reports: the scan and
    /// `exact_axis_index` against the fold, on random separations with ties,
    /// degenerate edge axes (`−∞`) and values around the margin.
    #[test]
    fn exact_axis_index_is_the_folds_exact_axis() {
        let mut state = 0x9e37_79b9_u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        for _ in 0..20_000 {
            // Few distinct values, so that ties are common.
            let separations: [f32; 15] = std::array::from_fn(|k| match next() % 8 {
                0 if k >= 6 => f32::NEG_INFINITY,
                v => -0.1 * v as f32,
            });
            let scanned = scan(&separations, 0.0);
            if scanned.first_separating.is_some() {
                continue;
            }
            let best = scanned.best;
            let (exact, _) = fold_separations(
                separations[best[0]],
                [
                    Some(separations[best[1]]),
                    (separations[best[2]] > f32::NEG_INFINITY).then_some(separations[best[2]]),
                    None,
                    None,
                ],
                0.01,
            );
            let expected = match exact {
                Pick::FaceA => best[0],
                Pick::FaceB => best[1],
                _ => best[2],
            };
            assert_eq!(exact_axis_index(|k| separations[k], best), expected);
        }
    }
}
