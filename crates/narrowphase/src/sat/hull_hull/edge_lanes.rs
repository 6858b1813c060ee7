//! The hull–hull edge query's b side in lanes of 8 (`wide::f32x8`): b's edges that
//! can matter, gathered from the hull's [`EdgeRecord`]s, moved into a's frame 8 at a
//! time, then tested against one edge of a per block with the Minkowski-face test.
//!
//! **Determinism rule.** Every lane runs the scalar formulas of
//! [`Query::edge_b`](super::Query) and [`arcs_cross`](super::edges) with the same
//! operations in the same order: `R v` as glam's `Mat3 * Vec3`
//! (`(c₀ v_x + c₁ v_y) + c₂ v_z`), the cross product in `Vec3::cross`'s order, dot
//! products as `(x x' + y y') + z z'`, separate multiplies and adds (no fused
//! multiply-add), IEEE division and square root. So a lane's values are the scalar
//! ones bit for bit, on every SIMD level `wide` compiles to (SSE2 and NEON halves, one
//! AVX register, its scalar fallback); the unit tests below and the hull fingerprint
//! test guard it.

use super::edges::EdgeData;
use crate::frame::Frame;
use crate::scratch::{give_back, pools, reserve};
use glam::Vec3;
use sepax_geometry::hull::blocks::BLOCK;
use sepax_geometry::hull::edge_blocks::EdgeRecord;
use smallvec::SmallVec;
use wide::f32x8;

/// Up to 8 edges of b, one component per array: first as gathered (b's frame, scaled),
/// then, after [`EdgeLanesOfB::move_to_a`], in a's frame with the arc's cross product
/// and the length. Unused lanes are zero: their arcs cross nothing.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct EdgeLanes {
    n0: [[f32; BLOCK]; 3],
    n1: [[f32; BLOCK]; 3],
    cross: [[f32; BLOCK]; 3],
    point: [[f32; BLOCK]; 3],
    direction: [[f32; BLOCK]; 3],
    length: [f32; BLOCK],
    index: [u32; BLOCK],
}

const EMPTY: EdgeLanes = EdgeLanes {
    n0: [[0.0; BLOCK]; 3],
    n1: [[0.0; BLOCK]; 3],
    cross: [[0.0; BLOCK]; 3],
    point: [[0.0; BLOCK]; 3],
    direction: [[0.0; BLOCK]; 3],
    length: [0.0; BLOCK],
    index: [0; BLOCK],
};

pools! { LANE_BLOCKS: EdgeLanes }

/// b's edges for one edge query, packed 8 to a block.
pub(super) struct EdgeLanesOfB {
    blocks: SmallVec<[EdgeLanes; 4]>,
    len: usize,
}

type Wide3 = [f32x8; 3];

#[inline(always)]
fn load(c: &[[f32; BLOCK]; 3]) -> Wide3 {
    [f32x8::new(c[0]), f32x8::new(c[1]), f32x8::new(c[2])]
}

#[inline(always)]
fn store(w: Wide3) -> [[f32; BLOCK]; 3] {
    [w[0].to_array(), w[1].to_array(), w[2].to_array()]
}

/// `R v` per lane in glam's order: `(c₀ v_x + c₁ v_y) + c₂ v_z`, `c_k` R's columns.
#[inline(always)]
fn rotate(frame: &Frame, v: Wide3) -> Wide3 {
    let r = frame.rot;
    let column = |c: Vec3, k: usize| f32x8::splat(c[k]);
    std::array::from_fn(|k| {
        column(r.x_axis, k) * v[0] + column(r.y_axis, k) * v[1] + column(r.z_axis, k) * v[2]
    })
}

/// `u · v` per lane with `u` the same in every lane: `(x x' + y y') + z z'`.
#[inline(always)]
fn dot_splat(u: Vec3, v: &Wide3) -> f32x8 {
    f32x8::splat(u.x) * v[0] + f32x8::splat(u.y) * v[1] + f32x8::splat(u.z) * v[2]
}

impl EdgeLanesOfB {
    pub fn new() -> EdgeLanesOfB {
        EdgeLanesOfB {
            blocks: SmallVec::new(),
            len: 0,
        }
    }

    /// Adds b's edge `index` from its record, its point and direction multiplied by
    /// `scale` (see `Polytope::edge_scale`), the direction by `direction_scale` too (a
    /// power of two, see `Query::direction_scale`).
    #[inline]
    pub fn push(&mut self, record: &EdgeRecord, index: usize, scale: Vec3, direction_scale: f32) {
        let at = self.len % BLOCK;
        if at == 0 {
            self.blocks.push(EMPTY);
        }
        let out = self.blocks.last_mut().expect("a block was pushed");
        for k in 0..3 {
            out.n0[k][at] = record.n0[k];
            out.n1[k][at] = record.n1[k];
            out.point[k][at] = record.point[k] * scale[k];
            out.direction[k][at] = record.direction[k] * (scale[k] * direction_scale);
        }
        out.index[at] = index as u32;
        self.len += 1;
    }

    /// Moves every gathered edge into a's frame, as [`Query::edge_b`](super::Query)
    /// does one at a time: `n = −R m`, `p = R p_b + t`, `d = R d_b`, the arc plane's
    /// normal `−d / max|d_k|` (`EdgeData::cross`), and `|d|` on the scaled vector (0
    /// for a zero or non-finite one, like `scaled_direction`).
    pub fn move_to_a(&mut self, frame: &Frame) {
        #[cfg(target_arch = "x86_64")]
        if crate::sat::box_box_wide::SimdLevel::detected()
            == crate::sat::box_box_wide::SimdLevel::Avx2
        {
            // SAFETY: `detected` returns AVX2 only after checking that this CPU runs
            // it, the one requirement of a `#[target_feature(enable = "avx2")]` fn.
            unsafe { self.move_to_a_avx2(frame) };
            return;
        }
        self.move_to_a_lanes(frame);
    }

    /// [`Self::move_to_a`] in `wide`'s lanes (the build's baseline: two SSE2 halves on
    /// x86-64, NEON on aarch64).
    fn move_to_a_lanes(&mut self, frame: &Frame) {
        let zero = f32x8::splat(0.0);
        for block in &mut self.blocks {
            let n0 = rotate(frame, load(&block.n0)).map(|c| -c);
            let n1 = rotate(frame, load(&block.n1)).map(|c| -c);
            let p = rotate(frame, load(&block.point));
            let t = frame.trans;
            let point = [
                p[0] + f32x8::splat(t.x),
                p[1] + f32x8::splat(t.y),
                p[2] + f32x8::splat(t.z),
            ];
            let d = rotate(frame, load(&block.direction));
            let scale = d[0].abs().max(d[1].abs().max(d[2].abs()));
            let valid = scale.simd_gt(zero) & scale.simd_lt(f32x8::splat(f32::INFINITY));
            let w = [d[0] / scale, d[1] / scale, d[2] / scale];
            let l = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt();
            block.length = valid.select(l * scale, zero).to_array();
            // `EdgeData::cross`: `−d / max|d_k|`, zero where the direction is not valid.
            block.cross = store(w.map(|c| valid.select(-c, zero)));
            block.n0 = store(n0);
            block.n1 = store(n1);
            block.point = store(point);
            block.direction = store(d);
        }
    }

    /// [`Self::move_to_a`] in one AVX2 register a block (`wide` alone compiles for the
    /// build's baseline: two SSE2 halves): the same multiplies, adds, divisions and
    /// square roots in the same order, `wide`'s `max` (the left operand where the right
    /// one is NaN, else the larger, the right one on a tie or a NaN on the left) and
    /// negation (the sign bit flipped), so every lane has the baseline's bits (the test
    /// `lanes_match_the_scalar_edge_query` compares them with the scalar `edge_b`).
    /// Callgrind, `prof hull` (256 touching 24-point pairs, `N=20`, inside `collide`): 72.54 → 70.03
    /// million instructions (−3.5 %); `prof box-hull`: 63.91 → 61.29 million (−4.1 %).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn move_to_a_avx2(&mut self, frame: &Frame) {
        use std::arch::x86_64::{
            __m256, _CMP_GT_OQ, _CMP_LT_OQ, _CMP_UNORD_Q, _mm256_add_ps, _mm256_and_ps,
            _mm256_blendv_ps, _mm256_cmp_ps, _mm256_div_ps, _mm256_loadu_ps, _mm256_max_ps,
            _mm256_mul_ps, _mm256_set1_ps, _mm256_setzero_ps, _mm256_sqrt_ps, _mm256_storeu_ps,
            _mm256_xor_ps,
        };
        let load = |lanes: &[f32; BLOCK]| -> __m256 {
            // SAFETY: reads the 8 floats of `lanes` (unaligned load, in bounds).
            unsafe { _mm256_loadu_ps(lanes.as_ptr()) }
        };
        let store = |lanes: &mut [f32; BLOCK], v: __m256| {
            // SAFETY: writes the 8 floats of `lanes` (unaligned store, in bounds).
            unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), v) }
        };
        let load3 = |rows: &[[f32; BLOCK]; 3]| [load(&rows[0]), load(&rows[1]), load(&rows[2])];
        let r = frame.rot;
        let columns = [r.x_axis, r.y_axis, r.z_axis];
        // `R v` in glam's order: `(c₀ v_x + c₁ v_y) + c₂ v_z`.
        let rotate = |v: [__m256; 3]| -> [__m256; 3] {
            std::array::from_fn(|k| {
                let term = |c: usize| _mm256_mul_ps(_mm256_set1_ps(columns[c][k]), v[c]);
                _mm256_add_ps(_mm256_add_ps(term(0), term(1)), term(2))
            })
        };
        let sign = _mm256_set1_ps(-0.0);
        let negate = |v: [__m256; 3]| v.map(|c| _mm256_xor_ps(c, sign));
        let abs = |v: __m256| std::arch::x86_64::_mm256_andnot_ps(sign, v);
        // `wide`'s `x.max(y)`: `x` where `y` is NaN, else `x > y ? x : y`.
        let max = |x: __m256, y: __m256| {
            _mm256_blendv_ps(_mm256_max_ps(x, y), x, _mm256_cmp_ps::<_CMP_UNORD_Q>(y, y))
        };
        let (zero, infinity) = (_mm256_setzero_ps(), _mm256_set1_ps(f32::INFINITY));
        let t = frame.trans;
        let trans = [
            _mm256_set1_ps(t.x),
            _mm256_set1_ps(t.y),
            _mm256_set1_ps(t.z),
        ];
        for block in &mut self.blocks {
            let n0 = negate(rotate(load3(&block.n0)));
            let n1 = negate(rotate(load3(&block.n1)));
            let p = rotate(load3(&block.point));
            let point: [__m256; 3] = std::array::from_fn(|k| _mm256_add_ps(p[k], trans[k]));
            let d = rotate(load3(&block.direction));
            let scale = max(abs(d[0]), max(abs(d[1]), abs(d[2])));
            let valid = _mm256_and_ps(
                _mm256_cmp_ps::<_CMP_GT_OQ>(scale, zero),
                _mm256_cmp_ps::<_CMP_LT_OQ>(scale, infinity),
            );
            let w = d.map(|c| _mm256_div_ps(c, scale));
            let squares = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(w[0], w[0]), _mm256_mul_ps(w[1], w[1])),
                _mm256_mul_ps(w[2], w[2]),
            );
            let l = _mm256_sqrt_ps(squares);
            store(
                &mut block.length,
                _mm256_blendv_ps(zero, _mm256_mul_ps(l, scale), valid),
            );
            for k in 0..3 {
                let cross = _mm256_blendv_ps(zero, _mm256_xor_ps(w[k], sign), valid);
                store(&mut block.cross[k], cross);
                store(&mut block.n0[k], n0[k]);
                store(&mut block.n1[k], n1[k]);
                store(&mut block.point[k], point[k]);
                store(&mut block.direction[k], d[k]);
            }
        }
    }

    /// How many edges were pushed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Room for `edges` edges, from the thread's pool past the inline room (see
    /// `crate::scratch`); [`give_back`](Self::give_back) returns it.
    #[inline(always)]
    pub fn reserve(&mut self, edges: usize) {
        reserve(&mut self.blocks, &LANE_BLOCKS, edges.div_ceil(BLOCK));
    }

    /// Hands a pooled buffer back to the thread's pool (see [`reserve`](Self::reserve)).
    #[inline(always)]
    pub fn give_back(&mut self) {
        give_back(&mut self.blocks, &LANE_BLOCKS);
    }

    /// How many blocks there are.
    #[inline]
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Bit `l` set when edge `l` of block `k` and `ea` pass the Minkowski-face test
    /// ([`arcs_cross`](super::edges) with a = `ea.n0`, b = `ea.n1`, c, d = the lane's
    /// normals), after [`Self::move_to_a`].
    #[inline]
    pub fn crossing(&self, k: usize, ea: &EdgeData) -> u32 {
        let block = &self.blocks[k];
        let (n0, n1, dxc) = (load(&block.n0), load(&block.n1), load(&block.cross));
        let cba = dot_splat(ea.cross, &n0);
        let dba = dot_splat(ea.cross, &n1);
        let adc = dot_splat(ea.n0, &dxc);
        let bdc = dot_splat(ea.n1, &dxc);
        let zero = f32x8::splat(0.0);
        let crossing =
            (cba * dba).simd_lt(zero) & (adc * bdc).simd_lt(zero) & (cba * bdc).simd_gt(zero);
        let used = self.len - k * BLOCK;
        let lanes = if used >= BLOCK {
            u32::MAX
        } else {
            (1 << used) - 1
        };
        crossing.to_bitmask() & lanes
    }

    /// [`Self::crossing`] of every edge of `edges_a` against every block:
    /// `out[i · blocks + k]` holds edge `i`'s mask against block `k`. One AVX2 register
    /// per block when this CPU has AVX2 (chosen at run time, like the batched box pairs;
    /// `wide` alone compiles for the build's baseline, two SSE2 halves), else
    /// [`Self::crossing`]; the same multiplies, adds and compares in the same order.
    pub fn crossing_masks(&self, edges_a: &[EdgeData], out: &mut SmallVec<[u8; 256]>) {
        out.clear();
        #[cfg(target_arch = "x86_64")]
        if crate::sat::box_box_wide::SimdLevel::detected()
            == crate::sat::box_box_wide::SimdLevel::Avx2
        {
            out.resize(edges_a.len() * self.blocks.len(), 0);
            // SAFETY: `detected` returns AVX2 only after checking that this CPU runs
            // it, the one requirement of a `#[target_feature(enable = "avx2")]` fn.
            unsafe { self.crossing_masks_avx2(edges_a, out) };
            return;
        }
        for ea in edges_a {
            for k in 0..self.blocks.len() {
                out.push(self.crossing(k, ea) as u8);
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn crossing_masks_avx2(&self, edges_a: &[EdgeData], out: &mut [u8]) {
        use std::arch::x86_64::{
            __m256, _CMP_GT_OQ, _CMP_LT_OQ, _mm256_and_ps, _mm256_cmp_ps, _mm256_loadu_ps,
            _mm256_movemask_ps, _mm256_mul_ps, _mm256_set1_ps, _mm256_setzero_ps,
        };
        let load = |lanes: &[f32; BLOCK]| -> __m256 {
            // SAFETY: reads the 8 floats of `lanes` (unaligned load, in bounds).
            unsafe { _mm256_loadu_ps(lanes.as_ptr()) }
        };
        // `(x x' + y y') + z z'` per lane with `u` the same in every lane.
        let dot = |u: Vec3, v: &[[f32; BLOCK]; 3]| {
            let x = _mm256_mul_ps(_mm256_set1_ps(u.x), load(&v[0]));
            let y = _mm256_mul_ps(_mm256_set1_ps(u.y), load(&v[1]));
            let z = _mm256_mul_ps(_mm256_set1_ps(u.z), load(&v[2]));
            std::arch::x86_64::_mm256_add_ps(std::arch::x86_64::_mm256_add_ps(x, y), z)
        };
        let zero = _mm256_setzero_ps();
        let blocks = self.blocks.len();
        for (i, ea) in edges_a.iter().enumerate() {
            for (k, block) in self.blocks.iter().enumerate() {
                let cba = dot(ea.cross, &block.n0);
                let dba = dot(ea.cross, &block.n1);
                let adc = dot(ea.n0, &block.cross);
                let bdc = dot(ea.n1, &block.cross);
                let first = _mm256_cmp_ps::<_CMP_LT_OQ>(_mm256_mul_ps(cba, dba), zero);
                let second = _mm256_cmp_ps::<_CMP_LT_OQ>(_mm256_mul_ps(adc, bdc), zero);
                let third = _mm256_cmp_ps::<_CMP_GT_OQ>(_mm256_mul_ps(cba, bdc), zero);
                let crossing = _mm256_and_ps(_mm256_and_ps(first, second), third);
                let used = self.len - k * BLOCK;
                let lanes = if used >= BLOCK { 0xff } else { (1 << used) - 1 };
                out[i * blocks + k] = (_mm256_movemask_ps(crossing) & lanes) as u8;
            }
        }
    }

    /// Edge `l` of block `k`, after [`Self::move_to_a`].
    #[inline]
    pub fn edge(&self, k: usize, l: usize) -> EdgeData {
        let block = &self.blocks[k];
        // Lane `l` of three component rows.
        let lane =
            |rows: &[[f32; BLOCK]; 3], l: usize| Vec3::new(rows[0][l], rows[1][l], rows[2][l]);
        EdgeData {
            index: block.index[l],
            n0: lane(&block.n0, l),
            n1: lane(&block.n1, l),
            cross: lane(&block.cross, l),
            point: lane(&block.point, l),
            direction: lane(&block.direction, l),
            length: block.length[l],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::edges::arcs_cross;
    use super::super::{Query, faces};
    use super::*;
    use crate::polytope::{BoxPolytope, Polytope};
    use sepax_geometry::rng::Rng;
    use sepax_geometry::{ConvexHull, Pose};

    fn random_hull(rng: &mut Rng) -> ConvexHull {
        let n = 4 + (rng.next_u64() % 40) as usize;
        let radii = rng.vec3(Vec3::splat(0.01), Vec3::splat(2.0));
        let points: Vec<Vec3> = (0..n).map(|_| rng.unit_vec3() * radii).collect();
        ConvexHull::try_from_points(&points).expect("random points span a hull")
    }

    fn same(x: &EdgeData, y: &EdgeData) -> bool {
        let bits = |v: Vec3| v.to_array().map(f32::to_bits);
        x.index == y.index
            && bits(x.n0) == bits(y.n0)
            && bits(x.n1) == bits(y.n1)
            && bits(x.cross) == bits(y.cross)
            && bits(x.point) == bits(y.point)
            && bits(x.direction) == bits(y.direction)
            && x.length.to_bits() == y.length.to_bits()
    }

    /// Every lane equals the scalar `edge_b` bit for bit (moved by the baseline lanes
    /// and by this CPU's level: over 100,000 edges), and every lane's crossing bit the
    /// scalar `arcs_cross`, for hulls and boxes at random poses (far ones too).
    #[test]
    fn lanes_match_the_scalar_edge_query() {
        let mut rng = Rng::new(0xed6e_1a4e);
        let (mut crossings, mut compared) = (0, 0);
        for trial in 0..3_000 {
            let hull_a = random_hull(&mut rng);
            let hull_b = random_hull(&mut rng);
            let boxed = BoxPolytope::new(rng.vec3(Vec3::splat(0.01), Vec3::splat(3.0)));
            let a = Polytope::from_hull(&hull_a);
            let b = if trial % 3 == 0 {
                boxed.view()
            } else {
                Polytope::from_hull(&hull_b)
            };
            let reach = if trial % 2 == 0 { 1.0 } else { 1e4 };
            let pose_a = Pose::new(
                rng.vec3(Vec3::splat(-reach), Vec3::splat(reach)),
                rng.rotation(),
            );
            let pose_b = Pose::new(
                rng.vec3(Vec3::splat(-reach), Vec3::splat(reach)),
                rng.rotation(),
            );
            let frame = Frame::new(&pose_a, &pose_b);
            let query = Query {
                a: &a,
                b: &b,
                frame: &frame,
                centroid_offset: Vec3::ZERO,
                inner_radii: 0.0,
                witness_slack: faces::WITNESS_SLACK,
                direction_scale: 1.0,
            };
            let mut lanes = EdgeLanesOfB::new();
            for (j, _) in b.edges.iter().enumerate() {
                lanes.push(&b.edge_records[j], j, b.edge_scale, 1.0);
            }
            // The baseline lanes, and this CPU's level (AVX2 where it has it).
            let mut baseline = EdgeLanesOfB::new();
            baseline.blocks = lanes.blocks.clone();
            baseline.len = lanes.len;
            baseline.move_to_a_lanes(&frame);
            lanes.move_to_a(&frame);
            for j in 0..b.edges.len() {
                let (k, l) = (j / BLOCK, j % BLOCK);
                assert!(same(&lanes.edge(k, l), &query.edge_b(j)));
                assert!(same(&baseline.edge(k, l), &query.edge_b(j)));
                compared += 1;
            }
            let edges_a: Vec<EdgeData> = (0..a.edges.len()).map(|i| query.edge_a(i)).collect();
            // This CPU's level (AVX2 where it has it) against the baseline lanes.
            let mut masks = SmallVec::new();
            lanes.crossing_masks(&edges_a, &mut masks);
            for (i, ea) in edges_a.iter().enumerate() {
                let lane = query.edge_a_record(i);
                assert!(same(&lane, ea));
                for k in 0..lanes.blocks() {
                    let mask = lanes.crossing(k, ea);
                    assert_eq!(masks[i * lanes.blocks() + k] as u32, mask);
                    for l in 0..BLOCK {
                        let j = k * BLOCK + l;
                        let expected = j < b.edges.len() && {
                            let eb = query.edge_b(j);
                            arcs_cross(ea.n0, ea.n1, ea.cross, eb.n0, eb.n1, eb.cross)
                        };
                        assert_eq!(mask >> l & 1 == 1, expected, "trial {trial}, a {i}, b {j}");
                        crossings += expected as usize;
                    }
                }
            }
        }
        assert!(crossings > 1_000, "{crossings} crossings");
        assert!(compared > 100_000, "{compared} edges compared");
    }
}
