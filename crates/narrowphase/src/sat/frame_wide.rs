//! [`Frame::new`](super::Frame::new) for 8 pairs at once, in f64 lanes, bit for bit.
//!
//! The relative frame `R = mat(q̄_a q_b / |q̄_a q_b|)`, `t = q̄_a (t_b − t_a) q_a / |q_a|²`
//! is computed in f64 and rounded once to f32 (see `Frame::new`). Here each of the 8
//! lanes runs glam's f64 formulas for those steps — `DQuat::mul_quat`,
//! `DVec4::normalize` (`q · (1 / √(q·q))`), `DMat3::from_quat`, `DQuat::mul_vec3`,
//! `DVec4::length_squared` — written out with the same operations in the same order,
//! so each lane rounds exactly as the scalar `Frame::new` does (the determinism rule of
//! [`box_box_wide`](super::box_box_wide) holds here too: lanes never mix, no fused
//! multiply-add, no reassociation). The bitwise test of the batched queries guards it,
//! and so does the unit test below against `Frame::new` itself.

// Lane loops index several arrays by the same lane (or axis): one index is the form
// both the vectoriser and a reader see as "this lane".
#![allow(clippy::needless_range_loop)]

use super::box_box_wide::{BoxBundle, LANES, SimdLevel};
use crate::query::FAR_APART;
use sepax_geometry::Pose;

type Lanes32 = [f32; LANES];
/// Up to 4 components of 8 lanes, widened (unused rows stay zero).
type Vec4x = [[f64; LANES]; 4];

/// Both poses of 8 pairs, one array per component, as given (f32): the kernel widens
/// them to f64 8 at a time (exactly: every f32 is an f64). Aligned to 32 bytes, like the
/// other lane arrays of `batch::Bundle`.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub(crate) struct PoseLanes {
    /// a's rotation `(x, y, z, w)`.
    qa: [Lanes32; 4],
    qb: [Lanes32; 4],
    ta: [Lanes32; 3],
    tb: [Lanes32; 3],
}

impl PoseLanes {
    #[inline]
    pub fn set_lane(&mut self, lane: usize, pose_a: &Pose, pose_b: &Pose) {
        let (qa, qb) = (pose_a.rotation.to_array(), pose_b.rotation.to_array());
        let (ta, tb) = (pose_a.translation.to_array(), pose_b.translation.to_array());
        for k in 0..4 {
            self.qa[k][lane] = qa[k];
            self.qb[k][lane] = qb[k];
        }
        for k in 0..3 {
            self.ta[k][lane] = ta[k];
            self.tb[k][lane] = tb[k];
        }
    }

    /// Per lane, [`Pose::is_valid`] of both poses and not `query::far_apart`: whether
    /// the lane's pair is one the queries answer at all. The same operations as the
    /// scalar checks, lane by lane (`|t_a − t_b| = |t_b − t_a|` bit for bit, so the
    /// lane's order does not matter for the distance), in loops over the 8 lanes that
    /// compile to a few vector instructions (a pair at a time, the checks cost ~40
    /// instructions a pair). Lanes never set hold stale values; their answer is ignored.
    #[inline(always)]
    // `x − x` is the finiteness test itself, not a zero (as in `Pose::is_valid`).
    #[allow(clippy::eq_op)]
    pub fn answerable(&self) -> [bool; LANES] {
        let (qa, qb, ta, tb) = (&self.qa, &self.qb, &self.ta, &self.tb);
        let mut answerable = [false; LANES];
        // One loop body for all checks: it compiles to one pass of vector compares.
        for l in 0..LANES {
            let finite = |t: &[Lanes32; 3]| {
                (t[0][l] - t[0][l]) + (t[1][l] - t[1][l]) + (t[2][l] - t[2][l]) == 0.0
            };
            let unit = |q: &[Lanes32; 4]| {
                // `Pose::is_valid`'s order: `(x² + z²) + (y² + w²)`.
                let length_squared = (q[0][l] * q[0][l] + q[2][l] * q[2][l])
                    + (q[1][l] * q[1][l] + q[3][l] * q[3][l]);
                (length_squared - 1.0).abs() < 2e-3
            };
            let near = |k: usize| (tb[k][l] - ta[k][l]).abs() <= FAR_APART;
            answerable[l] =
                finite(ta) & unit(qa) & finite(tb) & unit(qb) & near(0) & near(1) & near(2);
        }
        answerable
    }
}

/// Fills `out.r` and `out.t` with the frames of all 8 lanes (`R[i][j]`, row `i` of
/// `Frame::rot`; unused lanes compute values that are never read) at `level` (`Scalar`
/// runs as `Baseline`: the lanes are the same code). `BoxBundle::frame` gives a lane's
/// frame back as `Frame::new` builds it. Returns [`PoseLanes::answerable`], computed at
/// the same level.
pub(crate) fn frames(level: SimdLevel, poses: &PoseLanes, out: &mut BoxBundle) -> [bool; LANES] {
    #[cfg(target_arch = "x86_64")]
    if level == SimdLevel::Avx2 && SimdLevel::Avx2.is_available() {
        // SAFETY: the CPU supports AVX2 (checked just above), the only requirement of
        // a `#[target_feature(enable = "avx2")]` function.
        return unsafe { frames_avx2(poses, out) };
    }
    let _ = level;
    frames_kernel(poses, out);
    poses.answerable()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn frames_avx2(poses: &PoseLanes, out: &mut BoxBundle) -> [bool; LANES] {
    frames_kernel(poses, out);
    poses.answerable()
}

/// `Frame::new` per lane; each line names the glam function whose order it keeps.
#[inline(always)]
fn frames_kernel(p: &PoseLanes, out: &mut BoxBundle) {
    // The poses widened to f64 (`as_dquat`, `as_dvec3`), 8 lanes at a time.
    let wide = |v: &[Lanes32]| -> Vec4x {
        let mut out = [[0.0f64; LANES]; 4];
        for (k, row) in v.iter().enumerate() {
            for l in 0..LANES {
                out[k][l] = row[l] as f64;
            }
        }
        out
    };
    let (qa, qb, ta, tb) = (wide(&p.qa), wide(&p.qb), wide(&p.ta), wide(&p.tb));
    for l in 0..LANES {
        // DQuat::conjugate of q_a.
        let (x0, y0, z0, w0) = (-qa[0][l], -qa[1][l], -qa[2][l], qa[3][l]);
        let (x1, y1, z1, w1) = (qb[0][l], qb[1][l], qb[2][l], qb[3][l]);
        // DQuat::mul_quat.
        let qx = w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1;
        let qy = w0 * y1 - x0 * z1 + y0 * w1 + z0 * x1;
        let qz = w0 * z1 + x0 * y1 - y0 * x1 + z0 * w1;
        let qw = w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1;
        // DVec4::normalize: times 1 / length.
        let recip = 1.0 / ((qx * qx) + (qy * qy) + (qz * qz) + (qw * qw)).sqrt();
        let (x, y, z, w) = (qx * recip, qy * recip, qz * recip, qw * recip);
        // DMat3::from_quat, then as_mat3.
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (xx, xy, xz) = (x * x2, x * y2, x * z2);
        let (yy, yz, zz) = (y * y2, y * z2, z * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        let cols = [
            [1.0 - (yy + zz), xy + wz, xz - wy],
            [xy - wz, 1.0 - (xx + zz), yz + wx],
            [xz + wy, yz - wx, 1.0 - (xx + yy)],
        ];
        for c in 0..3 {
            for r in 0..3 {
                out.r[r][c][l] = cols[c][r] as f32;
            }
        }
        // DQuat::mul_vec3 of the conjugate on t_b − t_a, then / DQuat::length_squared.
        let v = [
            tb[0][l] - ta[0][l],
            tb[1][l] - ta[1][l],
            tb[2][l] - ta[2][l],
        ];
        let b = [x0, y0, z0];
        let b2 = (b[0] * b[0]) + (b[1] * b[1]) + (b[2] * b[2]);
        let along = (v[0] * b[0]) + (v[1] * b[1]) + (v[2] * b[2]);
        let cross = [
            b[1] * v[2] - v[1] * b[2],
            b[2] * v[0] - v[2] * b[0],
            b[0] * v[1] - v[0] * b[1],
        ];
        let (k_v, k_b, k_c) = (w0 * w0 - b2, along * 2.0, w0 * 2.0);
        let q = [qa[0][l], qa[1][l], qa[2][l], qa[3][l]];
        let length_squared = (q[0] * q[0]) + (q[1] * q[1]) + (q[2] * q[2]) + (q[3] * q[3]);
        for k in 0..3 {
            let rotated = v[k] * k_v + b[k] * k_b + cross[k] * k_c;
            out.t[k][l] = (rotated / length_squared) as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::Frame;
    use glam::{Quat, Vec3};
    use sepax_geometry::rng::Rng;

    /// Every lane's frame has the bits of `Frame::new`, at every level, for poses near
    /// and far (1e4) from the origin and rotations up to 1e-3 off unit length.
    #[test]
    fn lanes_match_frame_new_bit_for_bit() {
        let mut rng = Rng::new(0xF4A3E);
        for round in 0..2000 {
            let mut poses = PoseLanes::default();
            let mut pairs = Vec::new();
            for l in 0..LANES {
                let far = if round % 3 == 0 { 1e4 } else { 10.0 };
                let pose = |rng: &mut Rng| {
                    let q = rng.rotation();
                    let q = Quat::from_vec4(glam::Vec4::from(q) * rng.range(0.9995, 1.0005));
                    Pose::new(rng.vec3(Vec3::splat(-far), Vec3::splat(far)), q)
                };
                let (a, b) = (pose(&mut rng), pose(&mut rng));
                poses.set_lane(l, &a, &b);
                pairs.push((a, b));
            }
            for level in SimdLevel::available() {
                let mut out = BoxBundle::default();
                frames(level, &poses, &mut out);
                for (l, (a, b)) in pairs.iter().enumerate() {
                    let (want, got) = (Frame::new(a, b), out.frame(l));
                    let bits = |f: &Frame| {
                        (
                            f.rot.to_cols_array().map(f32::to_bits),
                            f.trans.to_array().map(f32::to_bits),
                        )
                    };
                    assert_eq!(
                        bits(&got),
                        bits(&want),
                        "round {round}, lane {l}, {level:?}"
                    );
                }
            }
        }
    }

    /// `answerable` gives, lane by lane and at every level, the verdict of the scalar
    /// checks `collide` makes (`Pose::is_valid` of both poses, then `far_apart`), on
    /// poses at the edges of each: rotations within a few ulps of the unit tolerance,
    /// translations NaN, infinite, or near the far distance apart (where the f32
    /// difference overflows or rounds to it), in both orders of the pair.
    #[test]
    fn answerable_matches_the_scalar_checks() {
        use crate::query::{FAR_APART, far_apart};
        let mut rng = Rng::new(0xA5_5E55);
        let coordinate = |rng: &mut Rng| -> f32 {
            match rng.below(12) {
                0 => f32::NAN,
                1 => f32::INFINITY * if rng.unit() < 0.5 { 1.0 } else { -1.0 },
                2 => f32::MAX * rng.range(-1.0, 1.0),
                3 => FAR_APART * rng.range(0.4, 0.6) * if rng.unit() < 0.5 { 1.0 } else { -1.0 },
                4 => FAR_APART * rng.range(0.99, 1.01),
                _ => rng.range(-1e4, 1e4),
            }
        };
        let (mut answered, mut refused) = (0, 0);
        for round in 0..20_000 {
            let mut poses = PoseLanes::default();
            let mut pairs = Vec::new();
            for l in 0..LANES {
                let pose = |rng: &mut Rng| {
                    // |q|² = 1 ± 2e-3 at a scale of √(1 ± 2e-3) ≈ 1 ± 1e-3.
                    let scale = match rng.below(3) {
                        0 => 1.0,
                        1 => rng.range(0.998_99, 0.999_01),
                        _ => rng.range(1.000_99, 1.001_01),
                    };
                    let q = glam::Vec4::from(rng.rotation()) * scale;
                    let t = if rng.below(4) == 0 {
                        Vec3::new(coordinate(rng), coordinate(rng), coordinate(rng))
                    } else {
                        rng.vec3(Vec3::splat(-10.0), Vec3::splat(10.0))
                    };
                    Pose::new(t, Quat::from_vec4(q))
                };
                let (a, b) = (pose(&mut rng), pose(&mut rng));
                let (a, b) = if round % 2 == 0 { (a, b) } else { (b, a) };
                poses.set_lane(l, &a, &b);
                pairs.push((a, b));
            }
            for level in SimdLevel::available() {
                let got = frames(level, &poses, &mut BoxBundle::default());
                for (l, (a, b)) in pairs.iter().enumerate() {
                    let want = a.is_valid() && b.is_valid() && !far_apart(a, b);
                    assert_eq!(
                        got[l], want,
                        "round {round}, lane {l}, {level:?}: {a:?} {b:?}"
                    );
                }
            }
            for (a, b) in &pairs {
                if a.is_valid() && b.is_valid() && !far_apart(a, b) {
                    answered += 1;
                } else {
                    refused += 1;
                }
            }
        }
        // Both verdicts are common, so each comparison above could have failed.
        assert!(
            answered > 20_000 && refused > 20_000,
            "{answered} / {refused}"
        );
    }
}
