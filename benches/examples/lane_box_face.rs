//! An experiment for planning, not the library's path: the geometric core of a box
//! face contact built for 8 pairs at a time in `f32x8` lanes, timed on the narrowphase
//! bench's box pairs and checked against sepax's own manifolds.
//!
//! Issue 13 asks for box manifolds at ≤ 100 ns a pair. The scalar path spends about
//! 1,700 instructions on a resting pair's incident quad, clipping (Sutherland–Hodgman)
//! and reduction (`prof boxbatch resting`, 1 December 2026). This prototype does the
//! same geometry with no branch per pair, the shape of Bepu v2's box tester:
//!
//! 1. each incident edge `p + t d` is clipped to the reference rectangle
//!    `|u| ≤ h1, |v| ≤ h2` in one Liang–Barsky pass, giving its entry point (the edge's
//!    start when inside) and its exit point (when it leaves before its end): 8 slots;
//! 2. each reference corner inside the projected incident quad is a candidate, at the
//!    height of the incident face's plane there: 4 slots;
//! 3. depths `h_k − σ w`, the margin filter, and the reduction's four picks (deepest,
//!    farthest from it, largest and smallest signed area) as masked maxima over the
//!    12 slots.
//!
//! What it leaves out, all of which the real path needs: feature ids, the clip
//! tolerance's rule that keeps a vertex near a side plane whole, the reduction's
//! near-tie slack and candidate order, the deepest-point fallback, the world transform
//! and anchors, and runtime AVX detection (`wide` compiles for the build's target: the
//! default x86-64 target gets SSE2 pairs of 4 lanes). Its answers are not sepax's bits;
//! the check below only compares each pair's deepest kept depth and point count with
//! sepax's manifold, to show the geometry is the same.
//!
//! ```sh
//! cargo run --release -p sepax-benches --example lane_box_face -- resting
//! RUSTFLAGS="-C target-cpu=x86-64-v3" cargo run --release -p sepax-benches \
//!     --example lane_box_face -- resting   # AVX2 lanes
//! ```
//!
//! Measured on 1 December 2026 (2-core VM; instructions by callgrind, `N=30` minus
//! `N=10` passes; time over `N=20000` passes, median of five runs):
//!
//! | pairs | lanes | instructions a face pair | ns a face pair |
//! |---|---|---|---|
//! | resting (256 of 256 on a face) | SSE2 (default build) | 813 | 59.8 |
//! | resting | AVX2 (`x86-64-v3`) | 304 | 32.9 |
//! | touching (138 of 256 on a face) | SSE2 | 846 | 64.8 |
//! | touching | AVX2 | 315 | 29.3 |
//!
//! The scalar path's share of the same work (incident quad, clipping, candidates,
//! reduction) is about 1,700 instructions a resting pair (`prof boxbatch resting`):
//! lanes take 2.1× fewer on SSE2 and 5.6× fewer on AVX2, including the transposition
//! into lanes. The check: on resting and touching pairs every pair's deepest kept depth
//! is within 4e-7 of sepax's manifold depth and the point counts are equal; on deep
//! pairs the depth is off by up to 7e-4 and 18 of 174 counts differ (sepax's deepest-
//! point rule adds a vertex there, which this prototype does not have).
//!
//! The full path was built on 2 December 2026 (ids, clip tolerance, reduction in lanes,
//! runtime AVX2, bitwise twin) and measured slower on a moving scene: see the README's
//! twelfth-session notes and the branch `lane-box-face`.

use glam::{Mat3, Vec3};
use sepax_geometry::Shape;
use sepax_narrowphase::{CLIP_TOLERANCE, Feature, PairCache, collide};
use sepax_testkit::pairs::{PairKind, box_pairs};
use std::hint::black_box;
use std::time::Instant;
use wide::f32x8;

/// A face contact's input: incident quad `(u, v, w)` in the reference face's
/// coordinates, the rectangle's half sizes (tolerance included), the reference half
/// extent along the normal and the face's side. `T` is `f32` for one pair, `f32x8` for
/// 8 pairs in lanes.
#[derive(Clone, Copy)]
struct Face<T> {
    u: [T; 4],
    v: [T; 4],
    w: [T; 4],
    h1: T,
    h2: T,
    hk: T,
    sigma: T,
}

/// 8 pairs in lanes, and the margin.
#[derive(Clone, Copy)]
struct Bundle {
    face: Face<f32x8>,
    margin: f32x8,
}

/// 12 candidate slots per lane: entry and exit of each incident edge, then the
/// reference corners.
struct Slots {
    u: [f32x8; 12],
    v: [f32x8; 12],
    depth: [f32x8; 12],
    valid: [f32x8; 12],
}

const SLOTS: usize = 12;

fn all_ones() -> f32x8 {
    f32x8::splat(f32::from_bits(u32::MAX))
}

/// Steps 1 and 2: the candidate slots, with depths and the margin filter.
#[inline(always)]
fn clip(bundle: &Bundle) -> Slots {
    let b = &bundle.face;
    let (zero, one) = (f32x8::ZERO, f32x8::ONE);
    let mut s = Slots {
        u: [zero; SLOTS],
        v: [zero; SLOTS],
        depth: [zero; SLOTS],
        valid: [zero; SLOTS],
    };
    for k in 0..4 {
        let n = (k + 1) % 4;
        let (pu, pv, pw) = (b.u[k], b.v[k], b.w[k]);
        let (du, dv, dw) = (b.u[n] - pu, b.v[n] - pv, b.w[n] - pw);
        let (mut t_in, mut t_out, mut ok) = (zero, one, all_ones());
        // Side `s · x ≤ h`: f(t) = s (p + t d) − h, entering where s d < 0.
        for (p, d, h) in [(pu, du, b.h1), (pv, dv, b.h2)] {
            for side in [1.0f32, -1.0] {
                let side = f32x8::splat(side);
                let (f, g) = (side * p - h, side * d);
                let t = -f / g;
                let (exit, enter) = (g.simd_gt(zero), g.simd_lt(zero));
                t_out = exit.select(t_out.min(t), t_out);
                t_in = enter.select(t_in.max(t), t_in);
                ok &= !(!(exit | enter) & f.simd_gt(zero));
            }
        }
        ok &= t_in.simd_le(t_out);
        for (slot, t, valid) in [
            (2 * k, t_in, ok),
            (2 * k + 1, t_out, ok & t_out.simd_lt(one)),
        ] {
            s.u[slot] = pu + du * t;
            s.v[slot] = pv + dv * t;
            s.depth[slot] = b.hk - b.sigma * (pw + dw * t);
            s.valid[slot] = valid;
        }
    }
    // A reference corner is inside the quad when it is on the inner side of every edge;
    // its height comes from `corner = c0 + α e0 + β e1` on the incident face.
    let (e0u, e0v, e0w) = (b.u[1] - b.u[0], b.v[1] - b.v[0], b.w[1] - b.w[0]);
    let (e1u, e1v, e1w) = (b.u[3] - b.u[0], b.v[3] - b.v[0], b.w[3] - b.w[0]);
    let det = e0u * e1v - e0v * e1u;
    let inv_det = one / det;
    for (c, (su, sv)) in [(1.0f32, 1.0f32), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .into_iter()
        .enumerate()
    {
        let (cu, cv) = (f32x8::splat(su) * b.h1, f32x8::splat(sv) * b.h2);
        let mut inside = all_ones();
        for k in 0..4 {
            let n = (k + 1) % 4;
            let (du, dv) = (b.u[n] - b.u[k], b.v[n] - b.v[k]);
            let cross = du * (cv - b.v[k]) - dv * (cu - b.u[k]);
            inside &= (cross * det).simd_gt(zero);
        }
        let (ru, rv) = (cu - b.u[0], cv - b.v[0]);
        let alpha = (ru * e1v - rv * e1u) * inv_det;
        let beta = (e0u * rv - e0v * ru) * inv_det;
        let slot = 8 + c;
        s.u[slot] = cu;
        s.v[slot] = cv;
        s.depth[slot] = b.hk - b.sigma * (b.w[0] + alpha * e0w + beta * e1w);
        s.valid[slot] = inside;
    }
    let floor = -bundle.margin;
    for k in 0..SLOTS {
        s.valid[k] &= s.depth[k].simd_ge(floor);
    }
    s
}

/// Step 3: the four picks per lane as slot numbers (−1 for none).
#[inline(always)]
fn reduce(s: &Slots) -> [f32x8; 4] {
    let none = f32x8::splat(-1.0);
    let slot = |k: usize| f32x8::splat(k as f32);
    let (mut i0, mut deepest) = (none, f32x8::splat(f32::NEG_INFINITY));
    let (mut u0, mut v0) = (f32x8::ZERO, f32x8::ZERO);
    for k in 0..SLOTS {
        let better = s.valid[k] & s.depth[k].simd_gt(deepest);
        deepest = better.select(s.depth[k], deepest);
        i0 = better.select(slot(k), i0);
        u0 = better.select(s.u[k], u0);
        v0 = better.select(s.v[k], v0);
    }
    let (mut i1, mut span) = (none, f32x8::splat(f32::NEG_INFINITY));
    let (mut u1, mut v1) = (u0, v0);
    for k in 0..SLOTS {
        let (du, dv) = (s.u[k] - u0, s.v[k] - v0);
        let d2 = du * du + dv * dv;
        let better = s.valid[k] & d2.simd_gt(span);
        span = better.select(d2, span);
        i1 = better.select(slot(k), i1);
        u1 = better.select(s.u[k], u1);
        v1 = better.select(s.v[k], v1);
    }
    let (eu, ev) = (u1 - u0, v1 - v0);
    let (mut i2, mut most) = (none, f32x8::splat(f32::NEG_INFINITY));
    let (mut i3, mut least) = (none, f32x8::splat(f32::INFINITY));
    for k in 0..SLOTS {
        let area = eu * (s.v[k] - v0) - ev * (s.u[k] - u0);
        let more = s.valid[k] & area.simd_gt(most);
        most = more.select(area, most);
        i2 = more.select(slot(k), i2);
        let less = s.valid[k] & area.simd_lt(least);
        least = less.select(area, least);
        i3 = less.select(slot(k), i3);
    }
    let negligible = f32x8::splat(1e-6) * span;
    let i1 = (span.simd_gt(f32x8::ZERO)).select(i1, none);
    [
        i0,
        i1,
        most.simd_gt(negligible).select(i2, none),
        (-least).simd_gt(negligible).select(i3, none),
    ]
}

/// One pair as the lanes take it, and sepax's answer (deepest depth, point count) for
/// the check.
#[derive(Clone, Copy)]
struct FacePair {
    face: Face<f32>,
    sepax_depth: f32,
    sepax_points: usize,
}

/// The incident quad of `incident` (half extents `hi`, axes `rot` and centre `trans` in
/// the reference box's frame) against reference face `2k` / `2k + 1`, as sepax's box
/// face contact builds it.
fn face_pair(hr: Vec3, hi: Vec3, rot: Mat3, trans: Vec3, face: usize, tolerance: f32) -> Face<f32> {
    let k = face / 2;
    let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
    let sigma = if face % 2 == 1 { 1.0 } else { -1.0 };
    let axes = [rot.x_axis, rot.y_axis, rot.z_axis];
    let m = (0..3)
        .max_by(|&x, &y| axes[x][k].abs().total_cmp(&axes[y][k].abs()))
        .unwrap_or(0);
    let side = if sigma * axes[m][k] > 0.0 { -1.0 } else { 1.0 };
    let (m1, m2) = ((m + 1) % 3, (m + 2) % 3);
    let centre = trans + axes[m] * (side * hi[m]);
    let (a, b) = (axes[m1] * hi[m1], axes[m2] * hi[m2]);
    let mut face = Face {
        u: [0.0; 4],
        v: [0.0; 4],
        w: [0.0; 4],
        h1: hr[k1] + tolerance,
        h2: hr[k2] + tolerance,
        hk: hr[k],
        sigma,
    };
    for (c, (sa, sb)) in [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
        .into_iter()
        .enumerate()
    {
        let corner = centre + a * sa + b * sb;
        (face.u[c], face.v[c], face.w[c]) = (corner[k1], corner[k2], corner[k]);
    }
    face
}

/// The bench's box pairs of `kind` whose sepax manifold stands on a face, as lane input.
fn face_pairs(kind: PairKind) -> Vec<FacePair> {
    let mut out = Vec::new();
    for p in box_pairs(1, 256, kind) {
        let (Shape::Cuboid(a), Shape::Cuboid(b)) = (&p.a, &p.b) else {
            continue;
        };
        let Some(m) = collide(
            &p.a,
            &p.pose_a,
            &p.b,
            &p.pose_b,
            0.0,
            &mut PairCache::default(),
        ) else {
            continue;
        };
        let (ha, hb) = (a.half_extents(), b.half_extents());
        let tolerance = CLIP_TOLERANCE * ha.min_element().min(hb.min_element());
        // The reference box's frame: rotation and centre of the other box in it.
        let (reference, incident, face) = match m.feature {
            Feature::FaceA(i) => ((ha, &p.pose_a), (hb, &p.pose_b), i),
            Feature::FaceB(j) => ((hb, &p.pose_b), (ha, &p.pose_a), j),
            _ => continue,
        };
        let r = Mat3::from_quat(reference.1.rotation.normalize());
        let rot = r.transpose() * Mat3::from_quat(incident.1.rotation.normalize());
        let trans = r.transpose() * (incident.1.translation - reference.1.translation);
        out.push(FacePair {
            face: face_pair(
                reference.0,
                incident.0,
                rot,
                trans,
                face as usize,
                tolerance,
            ),
            sepax_depth: m.depth(),
            sepax_points: m.points.len(),
        });
    }
    out
}

fn bundle(chunk: &[FacePair]) -> Bundle {
    // Columns filled lane by lane; padding lanes repeat the first pair.
    let mut columns = [[0.0f32; 8]; 16];
    for l in 0..8 {
        let p = &chunk[if l < chunk.len() { l } else { 0 }].face;
        for c in 0..4 {
            columns[c][l] = p.u[c];
            columns[4 + c][l] = p.v[c];
            columns[8 + c][l] = p.w[c];
        }
        columns[12][l] = p.h1;
        columns[13][l] = p.h2;
        columns[14][l] = p.hk;
        columns[15][l] = p.sigma;
    }
    let lanes = columns.map(f32x8::new);
    Bundle {
        face: Face {
            u: [lanes[0], lanes[1], lanes[2], lanes[3]],
            v: [lanes[4], lanes[5], lanes[6], lanes[7]],
            w: [lanes[8], lanes[9], lanes[10], lanes[11]],
            h1: lanes[12],
            h2: lanes[13],
            hk: lanes[14],
            sigma: lanes[15],
        },
        margin: f32x8::ZERO,
    }
}

/// All pairs once: the kept slots of each pair, and the deepest kept depth.
fn pass(pairs: &[FacePair], kept: &mut [[i8; 4]], deepest: &mut [f32]) {
    for ((chunk, kept), deepest) in pairs
        .chunks(8)
        .zip(kept.chunks_mut(8))
        .zip(deepest.chunks_mut(8))
    {
        let slots = clip(&bundle(chunk));
        let picks = reduce(&slots).map(|k| k.to_array());
        let depths: [[f32; 8]; SLOTS] = slots.depth.map(|d| d.to_array());
        for (l, (kept, deepest)) in kept.iter_mut().zip(deepest).enumerate() {
            *kept = std::array::from_fn(|j| picks[j][l] as i8);
            *deepest = if picks[0][l] >= 0.0 {
                depths[picks[0][l] as usize][l]
            } else {
                f32::NAN
            };
        }
    }
}

fn main() {
    let kind = match std::env::args().nth(1).as_deref() {
        Some("touching") => PairKind::Touching,
        Some("deep") => PairKind::Deep,
        _ => PairKind::Resting,
    };
    let passes: usize = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let pairs = face_pairs(kind);
    let mut kept = vec![[-1i8; 4]; pairs.len()];
    let mut deepest = vec![0.0f32; pairs.len()];
    let start = Instant::now();
    for _ in 0..passes {
        pass(black_box(&pairs), &mut kept, &mut deepest);
        black_box(&mut kept);
    }
    let elapsed = start.elapsed().as_secs_f64();
    // The check: the same deepest depth (within the clip tolerance's reach) and the
    // same number of points as sepax's manifold.
    let (mut depth_off, mut count_differs) = (0.0f32, 0);
    for ((pair, kept), deepest) in pairs.iter().zip(&kept).zip(&deepest) {
        depth_off = depth_off.max((deepest - pair.sepax_depth).abs());
        let mut distinct: Vec<i8> = kept.iter().copied().filter(|&k| k >= 0).collect();
        distinct.sort_unstable();
        distinct.dedup();
        count_differs += usize::from(distinct.len() != pair.sepax_points);
    }
    println!(
        "{} face pairs of 256; {:.1} ns a pair over {passes} passes; deepest depth off \
         sepax's by at most {depth_off:.2e}; point count differs on {count_differs}",
        pairs.len(),
        elapsed / (passes * pairs.len().max(1)) as f64 * 1e9,
    );
}
