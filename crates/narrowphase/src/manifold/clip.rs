//! Sutherland–Hodgman clipping of a convex polygon by half-spaces, with feature tracking:
//! the one clipper of the 3D face contacts.
//!
//! Every vertex carries the two "lines" it lies on: an incident polygon vertex `k` lies
//! on incident edges `k − 1` and `k`; a vertex made by cutting a segment with side plane
//! `p` lies on the segment's line and on `SIDE | p`. The segment between two consecutive
//! vertices lies on the line they share. The sorted pair of lines names the point, and
//! stays the same while the same features touch — the feature id a solver warm-starts
//! from.

use crate::scratch::{give_back, pools, reserve};
use glam::Vec3;
use smallvec::SmallVec;

/// Marks a line label as a side plane of the reference face (else an incident edge).
pub(crate) const SIDE: u16 = 0x8000;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClipVertex {
    pub point: Vec3,
    pub lines: [u16; 2],
}

pub(crate) type ClipPolygon = SmallVec<[ClipVertex; 40]>;

pools! {
    CLIP_POLYGON: ClipVertex,
    CLIP_SCRATCH: ClipVertex,
}

/// Room for `bound` vertices in both buffers of [`clip_by_sides`]' ping-pong: inline
/// when they fit, else the thread's pooled buffers (a face of many sides, no allocation
/// per pair: `crate::scratch`); [`give_back_clip_buffers`] returns them. A polygon of
/// `n` vertices clipped by `p` planes has at most `n + p` vertices.
#[inline(always)]
pub(crate) fn reserve_clip_buffers(
    polygon: &mut ClipPolygon,
    scratch: &mut ClipPolygon,
    bound: usize,
) {
    reserve(polygon, &CLIP_POLYGON, bound);
    reserve(scratch, &CLIP_SCRATCH, bound);
}

/// Hands the buffers [`reserve_clip_buffers`] took back to the thread's pools.
#[inline(always)]
pub(crate) fn give_back_clip_buffers(polygon: &mut ClipPolygon, scratch: &mut ClipPolygon) {
    give_back(polygon, &CLIP_POLYGON);
    give_back(scratch, &CLIP_SCRATCH);
}

/// The line shared by two consecutive vertices.
#[inline]
fn shared_line(a: &ClipVertex, b: &ClipVertex) -> u16 {
    if a.lines[0] == b.lines[0] || a.lines[0] == b.lines[1] {
        a.lines[0]
    } else {
        a.lines[1]
    }
}

/// Keeps the part of `input` (a convex loop) where `distance(point) ≤ 0`, handing each
/// vertex of the result to `push` in order. `distance` is the signed distance to the
/// clipping plane (any positive multiple of it), `plane_label` the plane's line label.
///
/// Sutherland–Hodgman: for each edge `(p, q)` of the loop with signed distances `dp`,
/// `dq`, add the crossing `p + (q − p) · dp / (dp − dq)` when the signs differ (it lies
/// on the edge's line, the one `p` and `q` share, and on the plane), then keep `q` when
/// `dq ≤ 0`.
///
/// Both face clippers run through here: [`super::face`] with a plane `n · x ≤ offset`,
/// [`super::box_face`] with a coordinate `±u ≤ h` of the reference face.
#[inline(always)]
pub(crate) fn clip_polygon(
    input: &[ClipVertex],
    distance: impl Fn(Vec3) -> f32,
    plane_label: u16,
    push: impl FnMut(ClipVertex),
) {
    let Some(last) = input.last() else {
        return;
    };
    let distances = input.iter().map(|v| distance(v.point));
    clip_polygon_with(input, distance(last.point), distances, plane_label, push);
}

/// [`clip_polygon`] with the signed distances given: `distances` yields one per vertex
/// of `input`, in order, `last_distance` is the last one's.
#[inline(always)]
fn clip_polygon_with(
    input: &[ClipVertex],
    last_distance: f32,
    distances: impl Iterator<Item = f32>,
    plane_label: u16,
    mut push: impl FnMut(ClipVertex),
) {
    let Some(mut previous) = input.last() else {
        return;
    };
    let mut previous_distance = last_distance;
    for (current, current_distance) in input.iter().zip(distances) {
        if (previous_distance <= 0.0) != (current_distance <= 0.0) {
            let t = previous_distance / (previous_distance - current_distance);
            let line = shared_line(previous, current);
            push(ClipVertex {
                point: previous.point + (current.point - previous.point) * t,
                lines: [line.min(plane_label), line.max(plane_label)],
            });
        }
        if current_distance <= 0.0 {
            push(*current);
        }
        previous = current;
        previous_distance = current_distance;
    }
}

/// Keeps the part of `input` with `normal · x ≤ offset`, writing it to `output`.
pub(crate) fn clip_by_plane(
    input: &[ClipVertex],
    normal: Vec3,
    offset: f32,
    plane_label: u16,
    output: &mut ClipPolygon,
) {
    output.clear();
    clip_polygon(
        input,
        |p| normal.dot(p) - offset,
        plane_label,
        |v| output.push(v),
    );
}

/// Up to this many vertices a polygon's distances to a plane are worked out once and
/// kept on the stack for the clip; a longer polygon (a face of many sides) has them
/// worked out twice, with the same bits.
const DISTANCES: usize = 64;

/// Clips `from` by `normal · x ≤ offset` into `to`, unless every vertex is inside
/// (`normal · p − offset ≤ 0`): then `to` is left as it is and the answer is false, as a
/// clip would have copied the polygon unchanged.
#[inline(always)]
fn clip_unless_inside(
    from: &[ClipVertex],
    normal: Vec3,
    offset: f32,
    label: u16,
    to: &mut ClipPolygon,
) -> bool {
    if from.iter().all(|v| is_inside(normal.dot(v.point) - offset)) {
        return false;
    }
    clip_by_plane(from, normal, offset, label, to);
    true
}

/// [`clip_unless_inside`] with the shortcuts, for [`LARGE`] polygons: false at once when
/// the ball lies behind the plane, else each vertex's distance worked out once, for the
/// inside test and the clip. A call of its own, so that the small polygons' clip stays
/// inline.
#[inline(never)]
fn clip_large_unless_inside(
    from: &[ClipVertex],
    normal: Vec3,
    offset: f32,
    label: u16,
    to: &mut ClipPolygon,
    ball: &Ball,
) -> bool {
    if ball.is_behind(normal, offset) {
        return false;
    }
    if from.len() > DISTANCES {
        return clip_unless_inside(from, normal, offset, label, to);
    }
    let mut room = [0.0f32; DISTANCES];
    let distances = &mut room[..from.len()];
    let mut outside = false;
    for (distance, v) in distances.iter_mut().zip(from) {
        *distance = normal.dot(v.point) - offset;
        outside |= !is_inside(*distance);
    }
    if !outside {
        return false;
    }
    to.clear();
    let last_distance = distances.last().copied().unwrap_or(0.0);
    let distances = distances.iter().copied();
    clip_polygon_with(from, last_distance, distances, label, |v| to.push(v));
    true
}

/// Whether a signed distance keeps its vertex (`≤ 0`; a NaN one does not), as the clip
/// decides it.
#[inline(always)]
fn is_inside(distance: f32) -> bool {
    distance <= 0.0
}

/// A ball holding every vertex of a polygon: a plane the whole ball lies behind keeps
/// every vertex, so the clip by it can be skipped without working out a distance.
struct Ball {
    centre: Vec3,
    /// The radius and a slack for the round-off of the distances the clip works out
    /// (see [`Ball::around`]).
    reach: f32,
}

/// The fewest incident vertices and side planes for which [`clip_by_sides`] takes its
/// shortcuts: they pay where many planes meet many vertices (a 12-gon on a 12-gon, 10 %
/// fewer instructions on the hull pile's narrow phase) and cost more than they save on
/// the triangles and quads of most hulls (2–4 % more on random 24-point hulls).
const LARGE: usize = 6;

impl Ball {
    /// The ball about the vertices' mean, its radius the furthest vertex's distance.
    /// The reach adds `2⁻¹⁶` of the sizes in play (the radius, and twice `|centre| +
    /// radius`, which bounds every vertex's distance from the origin), far above the few
    /// units in the last place by which a computed `normal · p − offset` can differ from
    /// the exact one, so that [`Ball::is_behind`] skips only planes the clip would pass
    /// unchanged. A crossing point the clip makes lies on a segment between vertices, so
    /// in the ball too (up to round-off the slack covers). A polygon with a NaN or
    /// infinite coordinate gets a NaN reach, which skips nothing.
    fn around(polygon: &[ClipVertex]) -> Ball {
        let count = polygon.len().max(1) as f32;
        let centre = polygon.iter().fold(Vec3::ZERO, |sum, v| sum + v.point) / count;
        let mut radius_squared = 0.0f32;
        for v in polygon {
            let from_centre = (v.point - centre).length_squared();
            if from_centre > radius_squared {
                radius_squared = from_centre;
            }
        }
        let radius = radius_squared.sqrt();
        // |p| ≤ |centre| + radius for every vertex p.
        let size = centre.length() + radius;
        let reach = radius + (radius + 2.0 * size) * (1.0 / 65536.0);
        Ball {
            centre,
            // A comparison drops a NaN: put it back, so that nothing is skipped.
            reach: if centre.is_finite() && reach.is_finite() {
                reach
            } else {
                f32::NAN
            },
        }
    }

    /// Whether the ball lies behind the plane `normal · x = offset` (`normal` unit), with
    /// the slack: every vertex's computed distance is then `≤ 0`.
    #[inline(always)]
    fn is_behind(&self, normal: Vec3, offset: f32) -> bool {
        normal.dot(self.centre) - offset + self.reach + offset.abs() * (1.0 / 65536.0) <= 0.0
    }
}

/// A side plane of a reference face for [`clip_by_sides`]: `normal · x = offset`, the
/// normal unit and outward (`None` for a degenerate side, which is skipped), through
/// `through`, the side's first vertex (where a bevel is placed).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SidePlane {
    pub normal: Option<Vec3>,
    pub offset: f32,
    pub through: Vec3,
}

impl SidePlane {
    /// The side from `v0` to `v1` of a face with normal `n`: the normal is
    /// `(v1 − v0) × n` normalised (`None` when it has no length).
    #[inline(always)]
    pub(crate) fn through(v0: Vec3, v1: Vec3, n: Vec3) -> SidePlane {
        let normal = (v1 - v0).cross(n).try_normalize();
        SidePlane {
            normal,
            offset: normal.map_or(0.0, |m| m.dot(v0)),
            through: v0,
        }
    }
}

/// Marks a side-plane label as the bevel at a sharp corner of the reference face (see
/// [`clip_by_sides`]): `SIDE | BEVEL | k` is the bevel at the face's vertex `k`.
pub(crate) const BEVEL: u16 = 0x4000;

/// Below this cosine between consecutive side normals (a corner sharper than 60°, where
/// the pushed-out side planes meet more than `2 t` out) the corner is bevelled.
const SHARP_CORNER: f32 = -0.5;

/// The bevel's unit normal at the corner between sides of outward unit normals `before`
/// and `side` (in loop order), when the corner is sharp enough to get one (see
/// [`clip_by_sides`]): along `before + side`.
#[inline(always)]
pub(crate) fn bevel_normal(before: Vec3, side: Vec3) -> Option<Vec3> {
    if before.dot(side) < SHARP_CORNER {
        (before + side).try_normalize()
    } else {
        None
    }
}

/// Clips `polygon` by the side planes `(outward, through)` (outward normals need not be
/// unit, a zero one is skipped), each pushed out by `clip_tolerance`, labelled
/// `SIDE | k`; `scratch` is the second buffer of the ping-pong, and the result is
/// whichever of the two holds it (no polygon is moved by value).
///
/// The sides come in loop order (side `k` runs from vertex `k`, its `through` point).
/// With `bevel_corners` a sharp corner gets one more plane: two side planes pushed out
/// by `t` meet `t / sin(α/2)` from a corner of angle `α` (0.018 off a sliver's 21°
/// corner for a tolerance of 0.0034), and a crossing point made there lay that far
/// outside the reference face. The bevel, normal to the corner's bisector
/// `ŝ_{k−1} + ŝ_k` and pushed out by `t` from the vertex, keeps every point within
/// `2 t` of the face. It is labelled `SIDE | BEVEL | k`. A polytope's face asks for it; a mesh
/// triangle does not: a point past its corner lies on the surface the mesh continues
/// with, and a regular grid's 45° corners would be cut on most contacts (6 % more
/// instructions on the terrain scene).
///
/// A polygon wholly inside a plane would come out of the clip as it went in (every
/// vertex kept, in order), so that plane is passed without a copy: the flush faces of a
/// resting contact clip nothing on most side planes.
///
/// For a [`LARGE`] polygon and face, two more shortcuts, with the same bits as clipping
/// by every plane (tested against that twin): a plane behind which a ball around the
/// incoming polygon lies is skipped unseen (every later polygon lies in that ball: a
/// clip only cuts away), and each vertex's distance to a plane is worked out once, for
/// the inside test and the clip.
#[inline(always)]
pub(crate) fn clip_by_sides<'p>(
    polygon: &'p mut ClipPolygon,
    scratch: &'p mut ClipPolygon,
    sides: impl Iterator<Item = SidePlane>,
    clip_tolerance: f32,
    bevel_corners: bool,
) -> &'p ClipPolygon {
    clip_by_sides_with::<true>(polygon, scratch, sides, clip_tolerance, bevel_corners)
}

/// [`clip_by_sides`], with its shortcuts or (`SHORTCUTS = false`, the tests' twin) with
/// every plane clipped by [`clip_by_plane`].
#[inline(always)]
fn clip_by_sides_with<'p, const SHORTCUTS: bool>(
    polygon: &'p mut ClipPolygon,
    scratch: &'p mut ClipPolygon,
    sides: impl Iterator<Item = SidePlane>,
    clip_tolerance: f32,
    bevel_corners: bool,
) -> &'p ClipPolygon {
    let (mut from, mut to) = (polygon, scratch);
    let large = from.len() >= LARGE && sides.size_hint().0 >= LARGE;
    let ball = large.then(|| Ball::around(from));
    // Clips by one plane; false once nothing is left.
    let clip = |from: &mut &'p mut ClipPolygon,
                to: &mut &'p mut ClipPolygon,
                normal: Vec3,
                offset: f32,
                label: u16| {
        let offset = offset + clip_tolerance;
        let cut = if !SHORTCUTS {
            clip_by_plane(from, normal, offset, label, to);
            true
        } else if let Some(ball) = &ball {
            clip_large_unless_inside(from, normal, offset, label, to, ball)
        } else {
            clip_unless_inside(from, normal, offset, label, to)
        };
        if cut {
            std::mem::swap(from, to);
        }
        !from.is_empty()
    };
    // The first side (for the corner that closes the loop) and the previous one.
    let (mut first, mut previous): (Option<(Vec3, Vec3)>, Option<Vec3>) = (None, None);
    for (k, plane) in sides.enumerate() {
        let (Some(side), through) = (plane.normal, plane.through) else {
            continue;
        };
        if !clip(&mut from, &mut to, side, plane.offset, SIDE | k as u16) {
            return from;
        }
        if bevel_corners
            && let Some(before) = previous
            && let Some(bevel) = bevel_normal(before, side)
            && !clip(
                &mut from,
                &mut to,
                bevel,
                bevel.dot(through),
                SIDE | BEVEL | k as u16,
            )
        {
            return from;
        }
        first.get_or_insert((side, through));
        previous = Some(side);
    }
    if bevel_corners
        && let (Some((side, through)), Some(before)) = (first, previous)
        && let Some(bevel) = bevel_normal(before, side)
    {
        clip(&mut from, &mut to, bevel, bevel.dot(through), SIDE | BEVEL);
    }
    from
}

/// The polygon `points` (a loop) as clip vertices labelled with its edges, written into
/// `out` (cleared first).
#[inline]
pub(crate) fn write_incident_polygon(
    points: impl ExactSizeIterator<Item = Vec3>,
    out: &mut ClipPolygon,
) {
    out.clear();
    let n = points.len();
    for (k, point) in points.enumerate() {
        let before = if k == 0 { n - 1 } else { k - 1 } as u16;
        let k = k as u16;
        out.push(ClipVertex {
            point,
            lines: [before.min(k), before.max(k)],
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A convex `count`-gon about `centre`, radius `radius`, turned by `turn` about z,
    /// tilted by `tilt` (z grows by `tilt` per unit of x).
    fn ngon(count: usize, centre: Vec3, radius: f32, turn: f32, tilt: f32) -> Vec<Vec3> {
        (0..count)
            .map(|k| {
                let angle = turn + k as f32 * std::f32::consts::TAU / count as f32;
                let (x, y) = (radius * angle.cos(), radius * angle.sin());
                centre + Vec3::new(x, y, tilt * x)
            })
            .collect()
    }

    /// `clip_by_sides`' shortcuts (the ball, the distances worked out once) give the
    /// bits of clipping by every plane: random polygons against random reference faces,
    /// overlapping, nested both ways, apart, flush on a shared side, with many sides
    /// (past the 64 kept distances), with sharp corners (bevels), and with NaN and
    /// infinite coordinates: 100,000 cases.
    #[test]
    fn shortcuts_give_the_bits_of_clipping_by_every_plane() {
        let mut noise = sepax_geometry::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut compared = 0;
        for case in 0..100_000 {
            let reference_count = [3, 4, 5, 6, 12, 24, 80][case % 7];
            let incident_count = [3, 4, 6, 8, 12, 20, 70][(case / 7) % 7];
            let scale = [1.0, 0.01, 100.0, 1.0e4][(case / 49) % 4];
            let far = if case % 11 == 0 { 1.0e4 } else { 0.0 };
            let reference_centre = Vec3::new(far, -far, 0.0) * scale;
            let reference = ngon(
                reference_count,
                reference_centre,
                scale * noise.range(0.2, 1.0),
                noise.range(0.0, 6.3),
                0.0,
            );
            let offset = Vec3::new(noise.range(-1.0, 1.0), noise.range(-1.0, 1.0), 0.0)
                * scale
                * [0.0, 0.05, 0.5, 1.5][case % 4];
            let mut incident = ngon(
                incident_count,
                reference_centre + offset,
                scale * noise.range(0.2, 1.2),
                noise.range(0.0, 6.3),
                noise.range(-0.2, 0.2),
            );
            match case % 13 {
                // Flush: the incident polygon is the reference one (shared sides).
                0 => incident = reference.clone(),
                // A sliver: sharp corners, bevels.
                1 => incident = vec![incident[0], incident[1], incident[1] * 1.0001],
                2 => incident[0].x = f32::NAN,
                3 => incident[1].y = f32::INFINITY,
                _ => {}
            }
            let reference_sides: Vec<SidePlane> = (0..reference.len())
                .map(|k| {
                    let (v0, v1) = (reference[k], reference[(k + 1) % reference.len()]);
                    SidePlane::through(v0, v1, Vec3::Z)
                })
                .collect();
            // Sides given by an outward direction and a point (the last one degenerate).
            let side = |outward: Vec3, through: Vec3| {
                let normal = outward.try_normalize();
                SidePlane {
                    normal,
                    offset: normal.map_or(0.0, |m| m.dot(through)),
                    through,
                }
            };
            let sliver_sides = [
                side(Vec3::new(0.0, -1.0, 0.0), Vec3::ZERO),
                side(Vec3::new(1.0, 0.05, 0.0), Vec3::new(scale, 0.0, 0.0)),
                side(
                    Vec3::new(-1.0, 0.05, 0.0),
                    Vec3::new(scale, 0.1 * scale, 0.0),
                ),
                side(Vec3::ZERO, Vec3::ZERO),
            ];
            let sides: &[SidePlane] = if case % 17 == 5 {
                &sliver_sides
            } else {
                &reference_sides
            };
            let tolerance = [0.0, 1.0e-4, 3.4e-3][case % 3] * scale;
            let bevel = case % 2 == 0;
            let clip = |shortcuts: bool| -> Vec<([u32; 3], [u16; 2])> {
                let (mut polygon, mut scratch) = (ClipPolygon::new(), ClipPolygon::new());
                write_incident_polygon(incident.iter().copied(), &mut polygon);
                let sides = sides.iter().copied();
                let clipped = if shortcuts {
                    clip_by_sides_with::<true>(&mut polygon, &mut scratch, sides, tolerance, bevel)
                } else {
                    clip_by_sides_with::<false>(&mut polygon, &mut scratch, sides, tolerance, bevel)
                };
                clipped
                    .iter()
                    .map(|v| (v.point.to_array().map(f32::to_bits), v.lines))
                    .collect()
            };
            assert_eq!(clip(true), clip(false), "case {case}");
            compared += 1;
        }
        assert_eq!(compared, 100_000);
    }

    #[test]
    fn square_clipped_by_a_diagonal_plane() {
        let mut square = ClipPolygon::new();
        write_incident_polygon(
            [
                Vec3::new(0.0, 0.0, 0.0),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(1.0, 1.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            ]
            .into_iter(),
            &mut square,
        );
        let mut out = ClipPolygon::new();
        // Keep x ≤ 0.5.
        clip_by_plane(&square, Vec3::X, 0.5, SIDE, &mut out);
        assert_eq!(out.len(), 4);
        for v in &out {
            assert!(v.point.x <= 0.5 + 1e-6);
        }
        // The two new points lie on edges 0 (bottom) and 2 (top) and on the plane.
        let mut labels: Vec<[u16; 2]> = out.iter().map(|v| v.lines).collect();
        labels.sort_unstable();
        assert!(labels.contains(&[0, SIDE]));
        assert!(labels.contains(&[2, SIDE]));
        assert!(labels.contains(&[0, 3]));
    }
}
