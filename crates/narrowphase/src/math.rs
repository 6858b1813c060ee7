//! Small helpers shared by the separating-axis tests and the manifold builders, in 3D
//! and 2D: the margin rule, a length and direction that survive tiny and huge vectors,
//! and the closest points of two segments.

use glam::{DVec3, Vec3};

/// The contact margin a query uses: a negative or NaN margin behaves as 0 (3D and 2D).
#[inline]
pub(crate) fn sanitize_margin(margin: f32) -> f32 {
    if margin > 0.0 { margin } else { 0.0 }
}

/// The unit cross product `u × v` of two nearly parallel directions, in f64, as an f32
/// direction; `None` when they are parallel to 1e-12 (or not finite).
///
/// The near-parallel edge axes of the SAT tests come through here. In f32 the cross
/// product of directions `φ` apart keeps only about `ε / φ` of relative precision in
/// its direction (the two products nearly cancel), and the separation along a
/// misdirected axis falls short of the true one by that angle times the size: the
/// tests used to skip such axes instead, leaving long shapes lying nearly parallel to
/// the face axes, several times too deep. A product of two f32 values is exact in
/// f64, so from f32 inputs (converted without rounding) the direction here is good to
/// about 1e-16 / φ.
#[cold]
pub(crate) fn unit_cross_f64(u: DVec3, v: DVec3) -> Option<Vec3> {
    let axis = u.cross(v);
    let length = axis.length();
    (length > 1e-12 * u.length() * v.length()).then(|| (axis / length).as_vec3())
}

/// The length and direction of `v`, computed on `v` scaled by its largest component so
/// that neither the squares of tiny vectors (below ~1e-19, whose squares are denormal
/// or zero) nor of huge ones (above ~1e19) lose the unit length: `None` for a zero or
/// non-finite vector.
#[inline]
pub(crate) fn length_and_direction(v: Vec3) -> Option<(f32, Vec3)> {
    let scale = v.abs().max_element();
    if !(scale > 0.0 && scale.is_finite()) {
        return None;
    }
    let w = v / scale;
    let l = w.length();
    Some((l * scale, w / l))
}

/// [`length_and_direction`], straight from the squared length when that is far from
/// underflow and overflow (the same answer to round-off, fewer steps). A square below
/// 1e-30 may be subnormal (a vector of 1e-23 squares to 1e-46, with three significant
/// bits left): the scaled path keeps such a direction unit.
#[inline]
pub(crate) fn length_and_unit(v: Vec3) -> Option<(f32, Vec3)> {
    let squared = v.length_squared();
    if squared > 1e-30 && squared < 1e30 {
        let length = squared.sqrt();
        return Some((length, v / length));
    }
    length_and_direction(v)
}

/// Closest points of segments `p1 + s d1` and `p2 + t d2`, `s, t ∈ [0, 1]`
/// (Ericson, *Real-Time Collision Detection* §5.1.9): minimise
/// `|p1 + s d1 − p2 − t d2|²`, first over the infinite lines, then clamp `s`, recompute
/// `t` for it, clamp `t` and recompute `s` once more.
///
/// In f64: the determinant `|d1|²|d2|² − (d1·d2)²` of two edges 1e15 long overflows f32
/// (and cancels badly well before), which gave NaN points on long boxes.
pub(crate) fn closest_points_on_segments(p1: Vec3, d1: Vec3, p2: Vec3, d2: Vec3) -> (Vec3, Vec3) {
    let (a, b) =
        closest_points_on_segments_f64(p1.as_dvec3(), d1.as_dvec3(), p2.as_dvec3(), d2.as_dvec3());
    (a.as_vec3(), b.as_vec3())
}

/// [`closest_points_on_segments`] in `f64` throughout, for callers that need the
/// distance of the points too (the capsule queries: a distance between surfaces is the
/// difference of two nearly equal lengths).
pub(crate) fn closest_points_on_segments_f64(
    p1: DVec3,
    d1: DVec3,
    p2: DVec3,
    d2: DVec3,
) -> (DVec3, DVec3) {
    closest_points_on_segments_f64_inlined(p1, d1, p2, d2)
}

/// [`closest_points_on_segments_f64`] inlined into its caller, for the caller that runs
/// it once per pair and reads its answer at once (capsule–capsule): as a call, the
/// answer came back through memory, and its reads waited on the stores (`prof
/// capsule-capsule`, N = 20,000: task clock 561 → 378 ms, the same bits). The callers
/// that run it in loops call the function: inlined there, they measured slower.
#[inline(always)]
pub(crate) fn closest_points_on_segments_f64_inlined(
    p1: DVec3,
    d1: DVec3,
    p2: DVec3,
    d2: DVec3,
) -> (DVec3, DVec3) {
    let r = p1 - p2;
    let a = d1.length_squared();
    let e = d2.length_squared();
    let f = d2.dot(r);
    // A segment is a point when its own square is below f64's normal range. (Measured
    // against the other one's, `ε (a + e)`, a core 1 long across a box edge 2e19 long
    // was taken as its endpoint, 0.5 from the closest point.) Directions beyond f32's
    // range (`inf` here) have no closest points to speak of: the start points answer.
    let tiny = f64::MIN_POSITIVE;
    let (s, t);
    if (a <= tiny && e <= tiny) || !(a + e).is_finite() {
        return (p1, p2);
    }
    if a <= tiny {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= tiny {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    (p1 + d1 * s, p2 + d2 * t)
}

/// [`closest_points_on_segments_f64_inlined`] for segments expected to cross (a box
/// pair's edges along their edge–edge axis): the lines' closest parameters
/// `s = (b f − c e) / D` and `t = (a f − b c) / D` (`D = a e − b²`) are divided at
/// once, and when both lie in `[0, 1]` they are the segments' answer; otherwise (ends,
/// parallel or degenerate segments) the clamped form answers. `t` is then computed
/// from the lines rather than as `(b s + f) / e`: equal in exact arithmetic, within a
/// few f64 ulps here, so the points rounded to f32 are the same but for a value a few
/// f64 ulps from an f32 rounding boundary. The gain is one division's latency: the
/// clamped form divides twice in a row. Degenerate and non-finite input (a NaN or
/// infinite `D`, `s` or `t` fails the checks) goes to the clamped form, which handles it.
#[inline(always)]
pub(crate) fn closest_points_on_crossing_segments_f64(
    p1: DVec3,
    d1: DVec3,
    p2: DVec3,
    d2: DVec3,
) -> (DVec3, DVec3) {
    let r = p1 - p2;
    let (a, e) = (d1.length_squared(), d2.length_squared());
    let (b, c, f) = (d1.dot(d2), d1.dot(r), d2.dot(r));
    let denom = a * e - b * b;
    let (s, t) = ((b * f - c * e) / denom, (a * f - b * c) / denom);
    let inside = |x: f64| (0.0..=1.0).contains(&x);
    if a > f64::MIN_POSITIVE && e > f64::MIN_POSITIVE && denom > 0.0 && inside(s) && inside(t) {
        return (p1 + d1 * s, p2 + d2 * t);
    }
    closest_points_on_segments_f64_inlined(p1, d1, p2, d2)
}

/// The point of triangle `t` closest to `p`, in `f64` (Ericson, *Real-Time Collision
/// Detection* §5.1.5): the Voronoi region of `p` by the signs of its barycentric
/// parts, a corner, an edge or the inside. A degenerate triangle answers one of its
/// corners or edges.
pub(crate) fn closest_point_on_triangle_f64(p: DVec3, t: [DVec3; 3]) -> DVec3 {
    let [a, b, c] = t;
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let sum = va + vb + vc;
    if sum.is_nan() || sum <= 0.0 {
        // Degenerate (all three parts zero): the corners already cover it.
        return [a, b, c]
            .into_iter()
            .min_by(|x, y| {
                (*x - p)
                    .length_squared()
                    .total_cmp(&(*y - p).length_squared())
            })
            .unwrap_or(a);
    }
    a + ab * (vb / sum) + ac * (vc / sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Near-parallel f32 directions get an accurate axis; parallel, zero and non-finite
    /// ones none.
    #[test]
    fn unit_cross_of_nearly_parallel_directions() {
        let (u, v) = (Vec3::new(1.0, 0.0, 0.0), Vec3::new(1.0, 1e-6, 1e-6));
        let axis = unit_cross_f64(u.as_dvec3(), v.as_dvec3()).expect("1.4e-6 rad apart");
        let expected = Vec3::new(0.0, -1.0, 1.0).normalize();
        assert!((axis - expected).length() < 1e-6, "{axis}");
        assert!((axis.length() - 1.0).abs() < 1e-6);
        let none = |u: Vec3, v: Vec3| unit_cross_f64(u.as_dvec3(), v.as_dvec3()).is_none();
        assert!(none(u, u));
        assert!(none(u, -u * 3.0));
        assert!(none(Vec3::ZERO, u));
        assert!(none(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::Y));
        assert!(none(Vec3::new(f32::INFINITY, 0.0, 0.0), Vec3::Y));
    }

    /// The crossing form against the clamped one (its slow twin) on 200,000 random
    /// segment pairs (box edges: one along an axis; crossing, near ends, past ends,
    /// nearly parallel, far from the origin, long and short): every point within a few
    /// f32 ulps of the size, and the same f32 bits but for a rare rounding boundary.
    #[test]
    fn crossing_form_agrees_with_the_clamped_form() {
        let mut rng = sepax_geometry::rng::Rng::new(0xc055);
        let (mut differing, mut crossing) = (0usize, 0usize);
        let total = 200_000;
        for k in 0..total {
            let size = [1e-3, 1.0, 50.0][k % 3];
            let origin = rng.unit_vec3() * [0.0, 1.0, 1e4][k / 3 % 3];
            let h = rng.range(0.1, 1.0) * size;
            let axis = k % 3;
            let mut d1 = Vec3::ZERO;
            d1[axis] = 2.0 * h;
            let p1 = origin - d1 * 0.5;
            let mut d2 = rng.unit_vec3() * rng.range(0.1, 2.0) * size;
            if k % 17 == 0 {
                // Nearly parallel to the first edge.
                d2 = (d1.normalize() + rng.unit_vec3() * 1e-4) * size;
            }
            let spread = [0.5, 1.0, 2.0][k / 9 % 3];
            let p2 = origin + rng.unit_vec3() * rng.range(0.0, spread) * size - d2 * 0.5;
            let (p1, d1, p2, d2) = (p1.as_dvec3(), d1.as_dvec3(), p2.as_dvec3(), d2.as_dvec3());
            let clamped = closest_points_on_segments_f64_inlined(p1, d1, p2, d2);
            let fast = closest_points_on_crossing_segments_f64(p1, d1, p2, d2);
            let (ca, cb) = (clamped.0.as_vec3(), clamped.1.as_vec3());
            let (fa, fb) = (fast.0.as_vec3(), fast.1.as_vec3());
            let scale = (origin.abs().max_element() + 4.0 * size) * 4.0 * f32::EPSILON;
            assert!(
                (ca - fa).abs().max_element() <= scale && (cb - fb).abs().max_element() <= scale,
                "{k}: {ca} {cb} vs {fa} {fb}"
            );
            differing += usize::from((ca, cb) != (fa, fb));
            let inside = |x: f64| (0.0..=1.0).contains(&x);
            let t = (fast.1 - p2).length() / d2.length();
            crossing += usize::from(inside(t) && t > 0.0 && t < 1.0);
        }
        assert!(crossing > total / 4, "{crossing} crossing");
        assert!(
            differing * 1000 < total,
            "{differing} of {total} differ in their bits"
        );
    }

    /// Degenerate and non-finite segments: the crossing form hands them to the clamped
    /// form, so the two answer with the same bits (NaN included).
    #[test]
    fn crossing_form_hands_degenerate_input_to_the_clamped_form() {
        let d = |x: f64, y: f64, z: f64| DVec3::new(x, y, z);
        let cases = [
            (
                d(0.0, 0.0, 0.0),
                d(0.0, 0.0, 0.0),
                d(1.0, 0.0, 0.0),
                d(0.0, 1.0, 0.0),
            ),
            (
                d(0.0, 0.0, 0.0),
                d(1.0, 0.0, 0.0),
                d(0.0, 1.0, 0.0),
                d(0.0, 0.0, 0.0),
            ),
            (
                d(0.0, 0.0, 0.0),
                d(1.0, 0.0, 0.0),
                d(0.5, 1.0, 0.0),
                d(2.0, 0.0, 0.0),
            ),
            (
                d(0.0, 0.0, 0.0),
                d(f64::NAN, 0.0, 0.0),
                d(0.5, 1.0, 0.0),
                d(0.0, 1.0, 0.0),
            ),
            (
                d(0.0, 0.0, 0.0),
                d(1.0, 0.0, 0.0),
                d(f64::NAN, 1.0, 0.0),
                d(0.0, 1.0, 0.0),
            ),
            (
                d(0.0, 0.0, 0.0),
                d(f64::INFINITY, 0.0, 0.0),
                d(0.5, 1.0, 0.0),
                d(0.0, 1.0, 0.0),
            ),
            (
                d(0.0, 0.0, 0.0),
                d(1.0, 0.0, 0.0),
                d(0.5, 1.0, 0.0),
                d(0.0, -f64::INFINITY, 0.0),
            ),
            (
                d(0.0, 0.0, 0.0),
                d(1.0, 0.0, 0.0),
                d(0.0, 0.0, 0.0),
                d(1e-300, 0.0, 0.0),
            ),
        ];
        let bits =
            |(p, q): (DVec3, DVec3)| [p.to_array(), q.to_array()].map(|v| v.map(f64::to_bits));
        for (p1, d1, p2, d2) in cases {
            assert_eq!(
                bits(closest_points_on_crossing_segments_f64(p1, d1, p2, d2)),
                bits(closest_points_on_segments_f64_inlined(p1, d1, p2, d2)),
                "{p1} {d1} {p2} {d2}"
            );
        }
    }

    #[test]
    fn crossing_segments() {
        let (a, b) = closest_points_on_segments(
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(2.0, 0.0, 0.0),
            Vec3::new(0.0, -1.0, 1.0),
            Vec3::new(0.0, 2.0, 0.0),
        );
        assert!((a - Vec3::ZERO).length() < 1e-6);
        assert!((b - Vec3::Z).length() < 1e-6);
    }

    #[test]
    fn parallel_and_clamped() {
        let (a, b) =
            closest_points_on_segments(Vec3::ZERO, Vec3::X, Vec3::new(2.0, 1.0, 0.0), Vec3::X);
        assert!((a - Vec3::X).length() < 1e-6);
        assert!((b - Vec3::new(2.0, 1.0, 0.0)).length() < 1e-6);
    }

    /// The Voronoi-region answer against a dense barycentric grid of each triangle (the
    /// closest grid point is within the grid's spacing of the closest point), on random
    /// triangles, slivers and points in every region.
    #[test]
    fn closest_point_on_triangle_matches_a_grid() {
        let mut rng = sepax_geometry::rng::Rng::new(0x7121);
        for i in 0..2_000 {
            let corner = |rng: &mut sepax_geometry::rng::Rng| {
                rng.vec3(Vec3::splat(-1.0), Vec3::splat(1.0)).as_dvec3()
            };
            let mut t = [corner(&mut rng), corner(&mut rng), corner(&mut rng)];
            if i % 5 == 0 {
                t[2] = t[0] + (t[1] - t[0]) * 0.3 + DVec3::splat(1e-9); // a sliver
            }
            let p = corner(&mut rng) * 2.0;
            let q = closest_point_on_triangle_f64(p, t);
            const N: usize = 200;
            let mut grid = f64::INFINITY;
            for a in 0..=N {
                for b in 0..=N - a {
                    let (u, v) = (a as f64 / N as f64, b as f64 / N as f64);
                    let x = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v;
                    grid = grid.min((x - p).length());
                }
            }
            let spacing = ((t[1] - t[0]).length() + (t[2] - t[0]).length()) / N as f64;
            let d = (q - p).length();
            assert!(d <= grid + 1e-12, "case {i}: {d} beyond the grid's {grid}");
            assert!(d >= grid - spacing, "case {i}: {d} below the grid's {grid}");
        }
    }
}
