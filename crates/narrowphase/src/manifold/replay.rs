//! A kept face contact's points recomputed from last clip's features, without clipping
//! again: what a resting hull pair costs once its reference face is kept.
//!
//! Clipping the incident face by the reference face's side planes
//! ([`super::face`]) is, in projection along the reference normal `n`, the intersection
//! of two convex polygons: the incident polygon `P` and the reference face pushed out by
//! the clip tolerance (bevels included), `Q`. Its vertices are named by the two lines
//! each lies on ([`super::clip`]): an incident vertex (two incident edges), an incident
//! edge crossing a side of `Q`, or a corner of `Q` (two sides) lifted onto the incident
//! plane. Which of these exist is decided by two kinds of signs only:
//! * `A(i, k) = s_k · p_i − o_k`, incident vertex `p_i` against the side `k` of `Q`
//!   (unit normal `s_k ⊥ n`, offset pushed out);
//! * `B(c, j)`, the signed distance of a corner `c` of `Q` from incident edge `j`'s line,
//!   both projected along `n`.
//!
//! While every sign stays, a fresh clip names the same points; each is then worked out
//! straight from its two lines (a vertex moved with the incident shape, an edge crossing
//! a plane, three planes meeting), and the reduction's choice of at most four is kept.
//!
//! **How far the incident shape may move.** Its vertices move by at most
//! `δ = 2 r |q − q₀| + |Δt|` from where they were at the clip (`r` the incident shape's
//! largest vertex distance from its origin, `q`, `q₀` unit quaternions of its rotation
//! in the reference shape's frame now and at the clip, of either sign, `t` its origin
//! there: a rotation by `θ` moves `v` by `2 sin(θ/2) |v| ≤ 4 sin(θ/4) |v|`, and
//! `|q − q₀| = 2 sin(θ/4)`; the recorded `q₀` is rounded, which adds `10⁻⁴` to
//! `|q − q₀|`). A vertex moving by `δ < |A|` keeps
//! the sign of `A`. An edge whose ends move by `δ` moves its line by at most
//! `δ (|τ| + |1 − τ|)` at the foot of `c` (`τ` the foot's parameter along the edge) and
//! turns it by less than 30° while `δ ≤ |e|/4` (`e` the projected edge), so `B` keeps
//! its sign while `δ (|τ| + |1 − τ|) < |B| cos 30°`. The clip records `μ`, the least of
//! `|A|` over every vertex and side, `|e| / 4` over every edge, and
//! `|B| / (2 (|τ| + |1 − τ|))` over the `B`s that decide which points exist (whether a
//! corner lies inside `P`, whether a straddling edge crosses a side between its
//! corners: `FacePair::reach`), and a later query reuses its features while `δ ≤ μ / 2`
//! (the other half covers round-off), `μ` above round-off itself.
//!
//! **What differs from a fresh clip.** The same points (same ids), each within
//! round-off of the clip's crossing point (the clip reaches it through the chain of
//! earlier cuts, the recomputation directly; a corner of `Q` is placed on the incident
//! face's plane, where the clip interpolates between its vertices, so on a hull face
//! merged from nearly coplanar ones it is off by that face's flatness too, up to about
//! 1e-5 of the hull's size), except that the reduction to four is not
//! made again: a fresh one may pick other points among near ties (the points a
//! reduction weighs move by up to `δ`), and points that have come within the margin
//! since are not added. The deepest-point rule is checked on every query as before
//! (`kept_feature`). A query whose incident shape sits where it sat at the clip (the
//! same origin bits and rounded rotation) clips again (the clip's bits), so a query
//! repeated with the same poses and the cache it left gives the same answer (the
//! pipeline reuses resting pairs' manifolds on that).
//!
//! The margin is worked out only for a pair that moved by less than [`RECORD_BELOW`]
//! of the incident shape's radius since its clip before (a faster one would rarely
//! stay within it), on faces small enough for the record ([`RECORD_SIDES`],
//! [`RECORD_INCIDENT`]). Measured (`stress --scene hull-pile --bodies 2001 --threads 1`,
//! alternated runs): the step of 2,000 resting 12-gon face contacts 2.65 → 1.60 ms.

use super::clip::{BEVEL, SIDE, bevel_normal};
use super::face::{face_contact_on, face_side, face_sides, incident_face_at};
use super::pack_id;
use super::reduce::Candidate;
use crate::frame::Frame;
use crate::polytope::Polytope;
use glam::{Quat, Vec3};
use smallvec::SmallVec;

/// What a face contact's clip leaves for the next query of the pair (in the
/// [`PairCache`](crate::PairCache)): the points' lines and how far the incident shape
/// may move before they could change. `count == 0` (the default) holds nothing;
/// `reach == 0` only the features and the pose of the last clip.
///
/// Kept small (40 bytes, sharing its room in the cache with GJK's simplex): every pair
/// state of the pipeline carries one, box pairs too. The rotation is a unit quaternion
/// rounded to 2⁻¹⁵ a component (the motion bound adds the rounding), and the lines'
/// labels fit a byte each (faces of at most [`RECORD_SIDES`] sides and
/// [`RECORD_INCIDENT`] vertices are recorded). A pair counts as unmoved when its origin
/// has the same bits and its rounded rotation is the same: a pair that turned by less
/// than the rounding then clips again, which is never wrong.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct KeptClip {
    /// The incident shape's rotation in the reference shape's frame, `w ≥ 0`, each
    /// component times 32767, rounded.
    turn: [i16; 4],
    /// The incident shape's origin in the reference shape's frame, as bits.
    origin: [u32; 3],
    /// `μ / 2` of the module docs (as bits): how far the incident vertices may move; 0
    /// when it was not worked out (the pair moved fast).
    reach: u32,
    /// The reference face, bit 15 set when it is b's.
    reference: u16,
    incident: u16,
    /// Each point's two lines, as [`pack_label`] packs them.
    lines: [[u8; 2]; 4],
    /// The number of points.
    count: u8,
}

impl KeptClip {
    /// The record as the cache of the pair in the other order keeps it: the same
    /// reference face of the same shape, now the other argument (bit 15 of
    /// `reference`); everything else is the incident shape's, in the reference shape's
    /// frame, whatever the order. A query flips its cache into the order it runs in
    /// and back; a pair whose canonical order changes between two queries (two equal
    /// hulls, ordered by their poses' bits, swaying past each other) finds its record
    /// as the other order left it. Measured on `stress --scene hull-pile --bodies 2001`
    /// (callgrind, steady state): about 12 pairs a frame changed order; each clipped
    /// twice (once to record the lines, once more to work out the reach) while the
    /// record read as empty in the other order, as it did until 5 December 2026.
    pub(crate) fn flipped(self) -> KeptClip {
        KeptClip {
            reference: self.reference ^ (1 << 15),
            ..self
        }
    }

    /// The points recorded.
    fn points(&self) -> usize {
        self.count as usize
    }

    fn reach(&self) -> f32 {
        f32::from_bits(self.reach)
    }

    fn origin(&self) -> Vec3 {
        Vec3::from_array(self.origin.map(f32::from_bits))
    }

    /// The recorded rotation, unit again.
    fn turn(&self) -> Quat {
        let [x, y, z, w] = self.turn.map(|c| c as f32 * (1.0 / 32767.0));
        Quat::from_xyzw(x, y, z, w).normalize()
    }
}

/// A line label of the clipper (`SIDE`, `BEVEL` and an index) in a byte: bit 7 a side,
/// bit 6 a bevel, the index below 64; `None` for a larger index.
fn pack_label(label: u16) -> Option<u8> {
    let index = label & !(SIDE | BEVEL);
    let side = if label & SIDE != 0 { 0x80 } else { 0 };
    let bevel = if label & BEVEL != 0 { 0x40 } else { 0 };
    (index < 64).then_some(index as u8 | side | bevel)
}

/// [`pack_label`] undone.
fn unpack_label(byte: u8) -> u16 {
    (byte & 0x3f) as u16
        | if byte & 0x80 != 0 { SIDE } else { 0 }
        | if byte & 0x40 != 0 { BEVEL } else { 0 }
}

/// The rotation of a frame as a unit quaternion with `w ≥ 0`.
fn rotation_of(frame: &Frame) -> Quat {
    let q = Quat::from_mat3(&frame.rot).normalize();
    if q.w < 0.0 { -q } else { q }
}

/// A rotation ([`rotation_of`]) as the record rounds it.
fn rounded(q: Quat) -> [i16; 4] {
    q.to_array().map(|c| (c * 32767.0).round() as i16)
}

/// A clipping line of `Q`: a side (or a bevel) of the reference face, pushed out.
#[derive(Clone, Copy, Debug)]
struct Line {
    normal: Vec3,
    offset: f32,
}

type Lines = SmallVec<[Line; 24]>;

/// The lines of `Q` in order around the face (a bevel between its two sides), as the
/// clipper cuts by them: each side
/// pushed out by `tolerance`, and the bevel at a corner sharper than 60°
/// (`super::clip::clip_by_sides`, with `bevel_corners`), between its two sides.
fn clip_lines(reference: &Polytope, f: usize, n: Vec3, tolerance: f32, lines: &mut Lines) {
    let mut first: Option<(Vec3, Vec3)> = None;
    let mut previous: Option<Vec3> = None;
    for side in face_sides(reference, f, n) {
        let Some(normal) = side.normal else {
            continue;
        };
        if let Some(before) = previous
            && let Some(bevel) = bevel_normal(before, normal)
        {
            lines.push(Line {
                normal: bevel,
                offset: bevel.dot(side.through) + tolerance,
            });
        }
        lines.push(Line {
            normal,
            offset: side.offset + tolerance,
        });
        first.get_or_insert((normal, side.through));
        previous = Some(normal);
    }
    if let (Some((normal, through)), Some(before)) = (first, previous)
        && let Some(bevel) = bevel_normal(before, normal)
    {
        lines.push(Line {
            normal: bevel,
            offset: bevel.dot(through) + tolerance,
        });
    }
}

/// The line of `Q` labelled `label` (a side, or the bevel at a corner: [`clip_lines`]),
/// worked out alone; `None` for a label the face does not have. Always inlined into
/// the points' recomputation (two calls a point): `stress --scene hull-pile --bodies
/// 2001 --threads 1 --frames 200` ran its narrow phase in 0.827 ms with a call, 0.735
/// ms inlined (five runs alternated, geometric means; callgrind: 4,923 → 4,763
/// instructions a pair).
#[inline(always)]
fn line_of(reference: &Polytope, f: usize, n: Vec3, tolerance: f32, label: u16) -> Option<Line> {
    let count = reference.face(f).len();
    let k = (label & !(SIDE | BEVEL)) as usize;
    if label & SIDE == 0 || k >= count {
        return None;
    }
    let side = face_side(reference, f, k, n);
    let normal = side.normal?;
    if label & BEVEL == 0 {
        return Some(Line {
            normal,
            offset: side.offset + tolerance,
        });
    }
    // The bevel between the side before and this one, through this side's first vertex.
    let before = face_side(reference, f, (k + count - 1) % count, n).normal?;
    let bevel = bevel_normal(before, normal)?;
    Some(Line {
        normal: bevel,
        offset: bevel.dot(side.through) + tolerance,
    })
}

/// The point where three planes `m · x = o` meet (Cramer's rule with cross products);
/// `None` when they do not meet in one finite point.
fn three_planes(p: [(Vec3, f32); 3]) -> Option<Vec3> {
    let [(m0, o0), (m1, o1), (m2, o2)] = p;
    let (c12, c20, c01) = (m1.cross(m2), m2.cross(m0), m0.cross(m1));
    let det = m0.dot(c12);
    let x = (c12 * o0 + c20 * o1 + c01 * o2) / det;
    x.is_finite().then_some(x)
}

/// The pair's view for the kept face: the reference and incident shapes, the incident
/// shape in the reference's frame, and the reference face.
pub(crate) struct FacePair<'p, 'a> {
    pub reference: &'p Polytope<'a>,
    pub incident: &'p Polytope<'a>,
    pub frame: Frame,
    pub reference_face: usize,
    pub reference_is_b: bool,
    /// The incident shape's vertex deepest below the reference face, as
    /// `Polytope::support` finds it along `−Rᵀn` with these bits of the frame and the
    /// normal, when the caller has measured it (`None`: looked for again).
    pub deepest: Option<u32>,
}

impl FacePair<'_, '_> {
    /// The incident face's vertex `k` of loop `face`, in the reference frame.
    #[inline]
    fn vertex(&self, face: &[u32], k: usize) -> Vec3 {
        self.frame
            .point_to_a(self.incident.vertices[face[k] as usize])
    }

    /// The point named by `lines` (an incident vertex, an incident edge crossing a line
    /// of `Q`, or a corner of `Q` on the incident plane), in the reference frame.
    fn point(
        &self,
        face: &[u32],
        incident_face: usize,
        lines: [u16; 2],
        tolerance: f32,
    ) -> Option<Vec3> {
        let [low, high] = lines;
        let (reference, f) = (self.reference, self.reference_face);
        let n = reference.planes[f].normal;
        let line = |label: u16| line_of(reference, f, n, tolerance, label);
        let count = face.len();
        if high < SIDE {
            // Vertex k lies on edges k − 1 and k; vertex 0 on edges 0 and count − 1.
            let k = if high == low + 1 {
                high as usize
            } else if low == 0 && high as usize == count - 1 {
                0
            } else {
                return None;
            };
            return (k < count).then(|| self.vertex(face, k));
        }
        if low < SIDE {
            let j = low as usize;
            if j >= count {
                return None;
            }
            let plane = line(high)?;
            let (p, q) = (self.vertex(face, j), self.vertex(face, (j + 1) % count));
            let (dp, dq) = (
                plane.normal.dot(p) - plane.offset,
                plane.normal.dot(q) - plane.offset,
            );
            let x = p + (q - p) * (dp / (dp - dq));
            return x.is_finite().then_some(x);
        }
        let (l0, l1) = (line(low)?, line(high)?);
        let plane = self.incident.planes[incident_face];
        let m = self.frame.rot * plane.normal;
        let e = plane.offset + m.dot(self.frame.trans);
        three_planes([(l0.normal, l0.offset), (l1.normal, l1.offset), (m, e)])
    }

    /// The candidates named by `lines`, as the face contact places them (depth below the
    /// reference plane, halfway between the surfaces); `None` when one cannot be worked
    /// out or lies beyond the margin.
    fn points(
        &self,
        incident_face: usize,
        lines: &[[u16; 2]],
        tolerance: f32,
        margin: f32,
    ) -> Option<SmallVec<[Candidate; 4]>> {
        let plane = self.reference.planes[self.reference_face];
        let n = plane.normal;
        let face = self.incident.face(incident_face);
        let mut points = SmallVec::new();
        for &l in lines {
            let x = self.point(face, incident_face, l, tolerance)?;
            let depth = plane.offset - n.dot(x);
            // Beyond the margin, or NaN: the clip decides.
            if depth.is_nan() || depth < -margin {
                return None;
            }
            points.push(Candidate {
                point: x + n * (0.5 * depth),
                depth,
                id: pack_id(
                    self.reference_is_b,
                    self.reference_face as u32,
                    incident_face as u32,
                    l,
                ),
            });
        }
        Some(points)
    }

    /// `μ / 2` of the module docs for the incident face `incident_face` against `q`;
    /// `None` when it is not above round-off (or not finite). The signs that matter:
    /// every `A`; for each corner of `Q`, the `B`s that decide whether it lies inside
    /// `P` (all of them when it does, the strongest one that puts it outside when it
    /// does not); and for each incident edge that straddles a line of `Q`, the `B`s of
    /// that line's two corners (whether the segments cross).
    fn reach(&self, incident_face: usize, q: &Lines) -> Option<f32> {
        let plane = self.reference.planes[self.reference_face];
        let n = plane.normal;
        let face = self.incident.face(incident_face);
        let polygon: SmallVec<[Vec3; 16]> = (0..face.len()).map(|k| self.vertex(face, k)).collect();
        let corners: SmallVec<[Vec3; 24]> = (0..q.len())
            .map(|k| {
                let (line, next) = (q[k], q[(k + 1) % q.len()]);
                three_planes([
                    (line.normal, line.offset),
                    (next.normal, next.offset),
                    (n, plane.offset),
                ])
            })
            .collect::<Option<_>>()?;
        // The projected polygon's turn about n: its inside is to the left of each edge
        // when positive.
        let turn: f32 = (1..polygon.len().saturating_sub(1))
            .map(|j| {
                (polygon[j] - polygon[0])
                    .cross(polygon[j + 1] - polygon[0])
                    .dot(n)
            })
            .sum();
        let inward = if turn > 0.0 {
            1.0
        } else if turn < 0.0 {
            -1.0
        } else {
            return None;
        };
        // The least value so far; a NaN stays (f32::min would drop it).
        let smaller = |mu: f32, x: f32| if x < mu || x.is_nan() { x } else { mu };
        let mut mu = f32::INFINITY;
        // `B` of corner `c` against edge `j`, signed (positive inside) and divided by
        // `2 (|τ| + |1 − τ|)`, for each corner and edge.
        let count = polygon.len();
        let mut b = SmallVec::<[f32; 384]>::from_elem(0.0, corners.len() * count);
        for (j, p) in polygon.iter().enumerate() {
            let along = polygon[(j + 1) % count] - *p;
            let along = along - n * n.dot(along);
            let squared = along.length_squared();
            let length = squared.sqrt();
            mu = smaller(mu, 0.25 * length);
            let left = n.cross(along) * (inward / length);
            for (c, corner) in corners.iter().enumerate() {
                let to_corner = *corner - *p;
                let tau = to_corner.dot(along) / squared;
                let spread = tau.abs() + (1.0 - tau).abs();
                b[c * count + j] = left.dot(to_corner) / (2.0 * spread);
            }
        }
        for row in b.chunks_exact(count) {
            let deepest_out = row
                .iter()
                .fold(0.0f32, |m, &x| if -x > m || x.is_nan() { -x } else { m });
            if deepest_out > 0.0 || deepest_out.is_nan() {
                mu = smaller(mu, deepest_out);
            } else {
                mu = row.iter().fold(mu, |m, &x| smaller(m, x));
            }
        }
        for (k, line) in q.iter().enumerate() {
            let distance = |p: Vec3| line.normal.dot(p) - line.offset;
            let (before, after) = ((k + corners.len() - 1) % corners.len(), k);
            for j in 0..count {
                let (d0, d1) = (distance(polygon[j]), distance(polygon[(j + 1) % count]));
                mu = smaller(mu, d0.abs());
                if (d0 > 0.0) != (d1 > 0.0) {
                    mu = smaller(mu, b[before * count + j].abs());
                    mu = smaller(mu, b[after * count + j].abs());
                }
            }
        }
        let reach = 0.5 * mu;
        let size = self.incident.radius + self.frame.trans.length() + self.reference.radius;
        (reach.is_finite() && reach > size * (1.0 / 65536.0)).then_some(reach)
    }

    /// A bound on how far any incident vertex has moved since `record`'s clip: with
    /// unit quaternions `q`, `q₀` of the two rotations (either sign), a vector `v`
    /// turns by at most `2 |q − q₀| |v|`; the recorded `q₀` is off by at most
    /// `6e-5` (its rounding), the computed ones by round-off, both covered by `1e-4`.
    fn moved_since(&self, record: &KeptClip, q: Quat) -> f32 {
        let q0 = record.turn();
        let turned = (q - q0).length().min((q + q0).length()) + 1e-4;
        self.incident.radius * 2.0 * turned + (self.frame.trans - record.origin()).length()
    }

    /// Whether the incident shape may sit where it sat at `record`'s clip: the same
    /// origin bits and the same rounded rotation (a false yes only clips again).
    fn unmoved_since(&self, record: &KeptClip, q: Quat) -> bool {
        self.frame.trans.to_array().map(f32::to_bits) == record.origin && rounded(q) == record.turn
    }

    fn reference_code(&self) -> u16 {
        self.reference_face as u16 | (self.reference_is_b as u16) << 15
    }
}

/// A pair whose incident shape moved by less than this fraction of its radius since
/// its clip before gets the margin of its clip worked out (the [module docs](self)); one
/// moving faster would rarely stay within it, and clips again.
const RECORD_BELOW: f32 = 4e-3;

/// The largest reference face and incident face whose margin is worked out: their
/// lines, corners and signs fit the lists' inline room (no allocation per pair); larger
/// faces clip on every query.
const RECORD_SIDES: usize = 12;
const RECORD_INCIDENT: usize = 16;

/// The face contact of a kept reference face, in the reference frame: last clip's points
/// recomputed when `record` holds them, the incident shape has moved since, and not too
/// far; else a fresh clip ([`face_contact_on`]), whose points' lines are recorded in
/// `record`, with the margin of the module docs when the pair moves slowly. The flag
/// says whether the points are recomputed ones.
///
/// A pair that has not moved at all since the clip is clipped again, which gives the
/// clip's bits: so a query repeated with the same poses and the cache it left gives the
/// same answer, whether the first one clipped or was the full test.
pub(crate) fn kept_face_contact(
    pair: &FacePair,
    margin: f32,
    clip_tolerance: f32,
    record: &mut KeptClip,
) -> (SmallVec<[Candidate; 4]>, bool) {
    let reference = pair.reference;
    let n = reference.planes[pair.reference_face].normal;
    let incident_face = incident_face_at(pair.incident, &pair.frame, n, pair.deepest);
    // (A reference face index that does not fit the record's 15 bits never matches.)
    let same_faces = record.points() > 0
        && pair.reference_face < 1 << 15
        && record.reference == pair.reference_code()
        && record.incident as usize == incident_face;
    // The frame's rotation, for the motion bound and the record.
    let q = rotation_of(&pair.frame);
    let moved = same_faces.then(|| pair.moved_since(record, q));
    if let Some(moved) = moved
        && moved <= record.reach()
        && !pair.unmoved_since(record, q)
    {
        let mut lines = [[0u16; 2]; 4];
        for (line, packed) in lines.iter_mut().zip(&record.lines) {
            *line = packed.map(unpack_label);
        }
        let lines = &lines[..record.points()];
        if let Some(points) = pair.points(incident_face, lines, clip_tolerance, margin) {
            return (points, true);
        }
    }
    *record = KeptClip::default();
    let clipped = face_contact_on(
        reference,
        pair.incident,
        &pair.frame,
        pair.reference_face,
        incident_face,
        margin,
        clip_tolerance,
        pair.reference_is_b,
    );
    if clipped.is_empty() || clipped.len() > 4 {
        return (clipped, false);
    }
    let small = reference.face(pair.reference_face).len() <= RECORD_SIDES
        && pair.incident.face(incident_face).len() <= RECORD_INCIDENT
        && pair.reference_face < 1 << 15
        && incident_face < 1 << 16;
    if !small {
        return (clipped, false);
    }
    let mut lines = [[0u8; 2]; 4];
    for (line, c) in lines.iter_mut().zip(&clipped) {
        let (Some(low), Some(high)) = (pack_label((c.id >> 16) as u16), pack_label(c.id as u16))
        else {
            return (clipped, false);
        };
        *line = [low, high];
    }
    let slow = moved.is_some_and(|m| m <= RECORD_BELOW * pair.incident.radius);
    let reach = slow
        .then(|| {
            let mut q = Lines::new();
            clip_lines(reference, pair.reference_face, n, clip_tolerance, &mut q);
            pair.reach(incident_face, &q)
        })
        .flatten();
    *record = KeptClip {
        turn: rounded(q),
        origin: pair.frame.trans.to_array().map(f32::to_bits),
        reach: reach.unwrap_or(0.0).to_bits(),
        reference: pair.reference_code(),
        incident: incident_face as u16,
        lines,
        count: clipped.len() as u8,
    };
    (clipped, false)
}

#[cfg(test)]
mod tests {
    use super::super::clip::{ClipPolygon, clip_by_sides, write_incident_polygon};
    use super::super::face::incident_face_of;
    use super::*;
    use sepax_geometry::rng::Rng;
    use sepax_geometry::{ConvexHull, Pose};

    #[test]
    fn labels_pack_into_a_byte_and_back() {
        for label in [0, 5, 63, SIDE, SIDE | 11, SIDE | BEVEL, SIDE | BEVEL | 63] {
            assert_eq!(pack_label(label).map(unpack_label), Some(label));
        }
        assert_eq!(pack_label(64), None);
        assert_eq!(pack_label(SIDE | 64), None);
    }

    fn random_hull(rng: &mut Rng, n: usize) -> ConvexHull {
        let radii = Vec3::new(
            rng.range(0.3, 2.0),
            rng.range(0.3, 2.0),
            rng.range(0.3, 2.0),
        );
        loop {
            let points: Vec<Vec3> = (0..n).map(|_| rng.unit_vec3() * radii).collect();
            if let Ok(hull) = ConvexHull::try_from_points(&points) {
                return hull;
            }
        }
    }

    /// The lines of every vertex the clipper makes (before the depth filter and the
    /// reduction): what the sign margin promises to keep.
    fn clipped_lines(pair: &FacePair, incident_face: usize, tolerance: f32) -> Vec<[u16; 2]> {
        let n = pair.reference.planes[pair.reference_face].normal;
        let (mut polygon, mut scratch) = (ClipPolygon::new(), ClipPolygon::new());
        let face = pair.incident.face(incident_face);
        write_incident_polygon(
            face.iter()
                .map(|&v| pair.frame.point_to_a(pair.incident.vertices[v as usize])),
            &mut polygon,
        );
        let sides = face_sides(pair.reference, pair.reference_face, n);
        let clipped = clip_by_sides(&mut polygon, &mut scratch, sides, tolerance, true);
        let mut lines: Vec<[u16; 2]> = clipped.iter().map(|v| v.lines).collect();
        lines.sort_unstable();
        lines
    }

    /// The promise of the module docs, against the clipper itself: on random hull pairs
    /// with a face of a sunk into b, a record's reach is worked out at one pose; at
    /// poses whose motion bound is within it, the incident face is the same (or the
    /// replay would not run), the clipper makes vertices with exactly the same lines,
    /// and each recomputed point is the clipper's within round-off. The motion bound is
    /// checked against the vertices' true motion too. 104,000 pairs, about 29,000 with a
    /// margin, at least 100,000 poses within it.
    #[test]
    fn within_the_reach_the_clip_names_the_same_points() {
        let mut rng = Rng::new(0x5e_9a_34);
        let (mut checked, mut poses) = (0usize, 0usize);
        for case in 0..104_000 {
            let a = random_hull(&mut rng, 4 + case % 20);
            let b = random_hull(&mut rng, 4 + (case / 7) % 20);
            let (pa, pb) = (Polytope::from_hull(&a), Polytope::from_hull(&b));
            let f = rng.below(a.face_count());
            let plane = a.planes()[f];
            // b turned at random, its deepest vertex along −n sunk 0.02 below the face,
            // slid sideways by up to the face's size.
            let rotation = rng.rotation();
            let deepest = pb
                .vertices
                .iter()
                .map(|v| rotation * *v)
                .fold(f32::INFINITY, |m, v| m.min(v.dot(plane.normal)));
            let centre = pa
                .face(f)
                .iter()
                .map(|&v| pa.vertices[v as usize])
                .sum::<Vec3>()
                / pa.face(f).len() as f32;
            let slide = (rng.unit_vec3() - plane.normal * rng.unit_vec3().dot(plane.normal))
                * rng.range(0.0, 0.5);
            let origin = centre
                + slide
                + plane.normal * (plane.offset - centre.dot(plane.normal) - deepest - 0.02);
            let frame_at = |pose: &Pose| Frame::new(&Pose::IDENTITY, pose);
            let pose0 = Pose::new(origin, rotation);
            let pair0 = FacePair {
                reference: &pa,
                incident: &pb,
                frame: frame_at(&pose0),
                reference_face: f,
                reference_is_b: false,
                deepest: None,
            };
            let tolerance = CLIP_TOLERANCE_FOR_TESTS * a.inradius().min(b.inradius());
            let mut record = KeptClip::default();
            kept_face_contact(&pair0, 0.0, tolerance, &mut record);
            kept_face_contact(&pair0, 0.0, tolerance, &mut record);
            let reach = record.reach();
            if record.points() == 0 || reach <= 0.0 {
                continue;
            }
            let incident_face = record.incident as usize;
            let lines0 = clipped_lines(&pair0, incident_face, tolerance);
            checked += 1;
            for _ in 0..16 {
                // Mostly near the reach, where a sign would turn first.
                let scale = rng.range(0.0, 1.0).sqrt();
                let turn =
                    Quat::from_axis_angle(rng.unit_vec3(), scale * reach / (pb.radius + 1e-3));
                let pose1 = Pose::new(
                    origin + rng.unit_vec3() * (scale * reach),
                    (turn * rotation).normalize(),
                );
                let pair1 = FacePair {
                    frame: frame_at(&pose1),
                    ..pair0
                };
                let bound = pair1.moved_since(&record, rotation_of(&pair1.frame));
                // The bound holds the true motion of every incident vertex.
                let motion = pb
                    .vertices
                    .iter()
                    .map(|v| (pair1.frame.point_to_a(*v) - pair0.frame.point_to_a(*v)).length())
                    .fold(0.0f32, f32::max);
                assert!(
                    motion <= bound * (1.0 + 1e-4) + 1e-6,
                    "case {case}: moved {motion}, bound {bound}"
                );
                let n = plane.normal;
                if bound > reach || incident_face_of(&pb, &pair1.frame, n) != incident_face {
                    continue;
                }
                poses += 1;
                let lines1 = clipped_lines(&pair1, incident_face, tolerance);
                assert_eq!(lines1, lines0, "case {case}: bound {bound}, reach {reach}");
                // Each named point against the clipper's vertex of the same lines.
                let face = pb.face(incident_face);
                let (mut polygon, mut scratch) = (ClipPolygon::new(), ClipPolygon::new());
                write_incident_polygon(
                    face.iter()
                        .map(|&v| pair1.frame.point_to_a(pb.vertices[v as usize])),
                    &mut polygon,
                );
                let sides = face_sides(&pa, f, n);
                let clipped = clip_by_sides(&mut polygon, &mut scratch, sides, tolerance, true);
                for v in clipped.iter() {
                    let x = pair1
                        .point(face, incident_face, v.lines, tolerance)
                        .expect("a named point");
                    let size = 1.0 + origin.length() + pa.radius + pb.radius;
                    assert!(
                        (x - v.point).length() <= 1e-5 * size,
                        "case {case}: {x} against {}",
                        v.point
                    );
                }
            }
        }
        eprintln!("{checked} records, {poses} poses within their reach");
        assert!(
            checked > 20_000 && poses >= 100_000,
            "{checked} records, {poses} poses"
        );
    }

    /// The clip tolerance of `manifold`, as a fraction of the smaller inner radius.
    const CLIP_TOLERANCE_FOR_TESTS: f32 = super::super::CLIP_TOLERANCE;
}
