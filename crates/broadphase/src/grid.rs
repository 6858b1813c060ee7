//! Buckets on the two non-sweep axes, so the boxes a sweep looks at stay few.
//!
//! With one sorted list, a box of extent `e` on the sweep axis meets about `n·e/L`
//! candidates (`L` the scene length), of which only a `(e/L)²` fraction also overlap
//! on the other two axes: at 100,000 boxes that is thousands of candidates for one or
//! two pairs. Following Terdiman ("Box pruning revisited", part 17) we cut the `b`–`c`
//! plane into a uniform grid of `gb × gc` cells and sweep each cell on its own.
//!
//! * Cell of a coordinate: `cell(v) = clamp(floor((v − origin)·inv), 0, g − 1)`,
//!   monotonic in `v`. A box goes into every cell from `cell(min)` to `cell(max)`.
//! * Each cell is filled by walking the boxes in their global sorted order (a
//!   counting sort), so every cell's list is already sorted on the sweep axis.
//! * A pair overlapping on `b` and `c` shares the cells around the lower corner of
//!   its overlap, `(max(min_b), max(min_c))`; it is reported only in that cell. Since
//!   `cell` is monotonic, that cell is `(max(cell(min_b)), max(cell(min_c)))`, an
//!   integer test on stored values.
//! * Cells are about [`CELL_SCALE`] mean extents wide, and there are at most about
//!   `n / 2` of them, so most boxes touch one to four cells. A box touching more than
//!   [`MAX_SPAN`] cells is "big": it is kept out of the cells and tested against every
//!   box by [`crate::sweep::big_against_all`] (one linear pass per big box).

use crate::sweep::Entry;

/// Cell width in mean box extents on that axis.
pub(crate) const CELL_SCALE: f32 = 4.0;
/// Most cells per axis (cell indices are stored as `u16`).
const MAX_DIM: f32 = 4096.0;
/// Boxes spanning more cells than this are handled as big boxes.
pub(crate) const MAX_SPAN: u32 = 16;

/// Grid placement on the two non-sweep axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct GridSpec {
    pub dims: (u32, u32),
    origin: (f32, f32),
    inv: (f32, f32),
}

/// Per-axis facts the grid is sized from: bounds of the boxes and the mean extent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxisStats {
    pub lo: f32,
    pub hi: f32,
    pub mean_extent: f32,
}

impl GridSpec {
    /// A single cell: the plain sweep.
    pub fn single() -> GridSpec {
        GridSpec {
            dims: (1, 1),
            origin: (0.0, 0.0),
            inv: (0.0, 0.0),
        }
    }

    /// Cells about `CELL_SCALE` mean extents wide, at most about `n / 2` of them.
    pub fn fit(n: usize, b: AxisStats, c: AxisStats) -> GridSpec {
        let budget = (n / 2).max(1) as f32;
        let per_axis = |s: AxisStats| -> f32 {
            let range = s.hi - s.lo;
            if range.is_nan() || range <= 0.0 || !range.is_finite() {
                return 1.0;
            }
            let width = CELL_SCALE * s.mean_extent;
            let cells = if width > 0.0 {
                range / width
            } else {
                budget.sqrt()
            };
            cells.clamp(1.0, MAX_DIM)
        };
        let (mut fb, mut fc) = (per_axis(b), per_axis(c));
        if fb * fc > budget {
            let shrink = (budget / (fb * fc)).sqrt();
            fb = (fb * shrink).max(1.0);
            fc = (fc * shrink).max(1.0);
        }
        let (gb, gc) = (fb.floor().max(1.0) as u32, fc.floor().max(1.0) as u32);
        let inv = |s: AxisStats, g: u32| {
            let range = s.hi - s.lo;
            if g > 1 && range > 0.0 {
                g as f32 / range
            } else {
                0.0
            }
        };
        GridSpec {
            dims: (gb, gc),
            origin: (b.lo, c.lo),
            inv: (inv(b, gb), inv(c, gc)),
        }
    }

    /// `clamp(floor(x), 0, dim − 1)` for `x = (v − origin)·inv`: clamping in floating
    /// point first makes the truncating cast a floor (and avoids a libm call on SSE2).
    #[inline]
    fn cell(v: f32, origin: f32, inv: f32, dim: u32) -> u32 {
        // In range after the float clamp, so the cast only truncates.
        ((v - origin) * inv).clamp(0.0, (dim - 1) as f32) as u32
    }

    /// Cell range `(b0, b1, c0, c1)` of a box given as `bc` lanes (see `sweep`).
    #[inline]
    pub fn span(&self, bc: glam::Vec4) -> (u32, u32, u32, u32) {
        (
            Self::cell(bc.x, self.origin.0, self.inv.0, self.dims.0),
            Self::cell(-bc.z, self.origin.0, self.inv.0, self.dims.0),
            Self::cell(bc.y, self.origin.1, self.inv.1, self.dims.1),
            Self::cell(-bc.w, self.origin.1, self.inv.1, self.dims.1),
        )
    }
}

/// The bucketed boxes: `cells` holds, for each cell, the sorted positions of its
/// boxes contiguously (cell `k = cc·gb + cb` at `offsets[k]..offsets[k + 1]`), in
/// increasing order (so sorted on the sweep axis), then the position of the sentinel.
/// Positions (4 bytes) rather than copies of the boxes (32 bytes) keep the scatter
/// cheap; the sweep reads the boxes through them, always moving forward.
#[derive(Clone, Debug, Default)]
pub(crate) struct Buckets {
    pub cells: Vec<u32>,
    pub offsets: Vec<u32>,
    /// Sorted positions of the big boxes.
    pub big: Vec<u32>,
    /// `is_big[p]` for every sorted position.
    pub is_big: Vec<bool>,
    span_end: Vec<(u32, u32)>,
    /// Each cell's next free slot while filling (kept: a sweep allocates nothing).
    cursor: Vec<u32>,
}

impl Buckets {
    /// Fills the buckets from the globally sorted boxes `sorted`, writing each box's
    /// lower cell `(b, c)` into each entry's `cell` on the way.
    pub fn fill(&mut self, spec: &GridSpec, sorted: &mut [Entry]) {
        let n = sorted.len() - 1; // the last entry is the sentinel
        let (gb, gc) = spec.dims;
        let cell_count = (gb * gc) as usize;
        self.offsets.clear();
        self.offsets.resize(cell_count + 1, 0);
        self.big.clear();
        self.is_big.clear();
        self.is_big.resize(n, false);
        self.span_end.clear();
        self.span_end.resize(n, (0, 0));
        // Pass 1: cell ranges and counts (one extra slot per cell for its sentinel).
        // Nearly every box touches one cell or two neighbours on each axis (cells are
        // `CELL_SCALE` mean extents wide): its up to four cells are counted without
        // a branch, a cell it does not touch getting a zero added to its first cell.
        // Measured on `stress --scene soup --bodies 10000`: the nested loops over the
        // span cost 185 µs a sweep, mostly mispredicted loop exits.
        let row = gb as usize;
        for (p, e) in sorted[..n].iter_mut().enumerate() {
            let (b0, b1, c0, c1) = spec.span(e.bc);
            e.cell = [b0 as u16, c0 as u16];
            self.span_end[p] = (b1, c1);
            let (db, dc) = (b1 - b0, c1 - c0);
            if db <= 1 && dc <= 1 {
                let k = 1 + c0 as usize * row + b0 as usize;
                let (db, dc) = (db as usize, dc as usize);
                self.offsets[k] += 1;
                self.offsets[k + db] += db as u32;
                self.offsets[k + dc * row] += dc as u32;
                self.offsets[k + db + dc * row] += (db & dc) as u32;
                continue;
            }
            if (db + 1) * (dc + 1) > MAX_SPAN {
                self.is_big[p] = true;
                self.big.push(p as u32);
                continue;
            }
            // Exclusive ranges: `..=` iterates measurably slower here.
            for cc in c0..c1 + 1 {
                let row = (cc * gb) as usize + 1;
                for count in &mut self.offsets[row + b0 as usize..row + b1 as usize + 1] {
                    *count += 1;
                }
            }
        }
        let mut sum = 0;
        for k in 0..cell_count {
            sum += self.offsets[k + 1] + 1;
            self.offsets[k + 1] = sum;
        }
        // Pass 2: scatter in sorted order, so each cell stays sorted. The same
        // branch-free form for the small spans: a cell the box does not touch is its
        // first cell again, written at its cursor without moving it, so the slot is
        // overwritten by the cell's next box or is the cell's last slot, whose
        // sentinel is put back below.
        self.cells.clear();
        self.cells.resize(sum as usize, n as u32);
        let cursor = &mut self.cursor;
        cursor.clear();
        cursor.extend_from_slice(&self.offsets[..cell_count]);
        for (p, e) in sorted[..n].iter().enumerate() {
            let [b0, c0] = [e.cell[0] as u32, e.cell[1] as u32];
            let (b1, c1) = self.span_end[p];
            let (db, dc) = (b1 - b0, c1 - c0);
            if db <= 1 && dc <= 1 {
                let k = c0 as usize * row + b0 as usize;
                let (db, dc) = (db as usize, dc as usize);
                for (cell, wrote) in [
                    (k, 1),
                    (k + db, db),
                    (k + dc * row, dc),
                    (k + db + dc * row, db & dc),
                ] {
                    self.cells[cursor[cell] as usize] = p as u32;
                    cursor[cell] += wrote as u32;
                }
                continue;
            }
            if self.is_big[p] {
                continue;
            }
            for cc in c0..c1 + 1 {
                for cb in b0..b1 + 1 {
                    let k = (cc * gb + cb) as usize;
                    self.cells[cursor[k] as usize] = p as u32;
                    cursor[k] += 1;
                }
            }
        }
        for &end in &self.offsets[1..] {
            self.cells[end as usize - 1] = n as u32;
        }
        // Every cell's cursor stopped at its last slot, the sentinel's.
        debug_assert!((0..cell_count).all(|k| cursor[k] + 1 == self.offsets[k + 1]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_is_monotonic_and_clamped() {
        let s = AxisStats {
            lo: -10.0,
            hi: 10.0,
            mean_extent: 1.0,
        };
        let spec = GridSpec::fit(1000, s, s);
        assert!(spec.dims.0 > 1 && spec.dims.1 > 1);
        let mut last = 0;
        assert_eq!(
            GridSpec::cell(-1e30, spec.origin.0, spec.inv.0, spec.dims.0),
            0
        );
        for i in -200..=200 {
            let v = i as f32 * 0.1;
            let c = GridSpec::cell(v, spec.origin.0, spec.inv.0, spec.dims.0);
            assert!(c >= last && c < spec.dims.0);
            last = c;
        }
    }

    #[test]
    fn degenerate_ranges_give_one_cell() {
        let point = AxisStats {
            lo: 3.0,
            hi: 3.0,
            mean_extent: 0.0,
        };
        assert_eq!(GridSpec::fit(10_000, point, point).dims, (1, 1));
    }
}
