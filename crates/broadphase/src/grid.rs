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

use crate::sweep::Soa;

/// Cell width in mean box extents on that axis.
pub(crate) const CELL_SCALE: f32 = 2.0;
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
            cells.clamp(1.0, 4096.0)
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

    #[inline]
    fn cell(v: f32, origin: f32, inv: f32, dim: u32) -> u32 {
        (((v - origin) * inv).floor()).clamp(0.0, (dim - 1) as f32) as u32
    }

    /// Cell range `(b0, b1, c0, c1)` of a box.
    #[inline]
    fn span(&self, min_b: f32, max_b: f32, min_c: f32, max_c: f32) -> (u32, u32, u32, u32) {
        (
            Self::cell(min_b, self.origin.0, self.inv.0, self.dims.0),
            Self::cell(max_b, self.origin.0, self.inv.0, self.dims.0),
            Self::cell(min_c, self.origin.1, self.inv.1, self.dims.1),
            Self::cell(max_c, self.origin.1, self.inv.1, self.dims.1),
        )
    }
}

/// The bucketed boxes: `cells` holds each cell's entries contiguously (cell
/// `k = cc·gb + cb` at `offsets[k]..offsets[k + 1]`), each run sorted on the sweep axis.
#[derive(Clone, Debug, Default)]
pub(crate) struct Buckets {
    pub cells: Soa,
    pub offsets: Vec<u32>,
    /// Sorted positions of the big boxes.
    pub big: Vec<u32>,
    /// `is_big[p]` for every sorted position.
    pub is_big: Vec<bool>,
    span_end: Vec<(u32, u32)>,
}

impl Buckets {
    /// Fills the buckets from the globally sorted boxes `sorted`, writing each box's
    /// lower cell into `sorted.cell_b` / `sorted.cell_c` on the way.
    pub fn fill(&mut self, spec: &GridSpec, sorted: &mut Soa) {
        let n = sorted.len();
        let (gb, gc) = spec.dims;
        let cell_count = (gb * gc) as usize;
        self.offsets.clear();
        self.offsets.resize(cell_count + 1, 0);
        self.big.clear();
        self.is_big.clear();
        self.is_big.resize(n, false);
        self.span_end.clear();
        self.span_end.resize(n, (0, 0));
        // Pass 1: cell ranges and counts.
        for p in 0..n {
            let (b0, b1, c0, c1) = spec.span(
                sorted.min_b[p],
                sorted.max_b[p],
                sorted.min_c[p],
                sorted.max_c[p],
            );
            sorted.cell_b[p] = b0;
            sorted.cell_c[p] = c0;
            self.span_end[p] = (b1, c1);
            if (b1 - b0 + 1) * (c1 - c0 + 1) > MAX_SPAN {
                self.is_big[p] = true;
                self.big.push(p as u32);
                continue;
            }
            for cc in c0..=c1 {
                for cb in b0..=b1 {
                    self.offsets[(cc * gb + cb) as usize + 1] += 1;
                }
            }
        }
        for k in 0..cell_count {
            self.offsets[k + 1] += self.offsets[k];
        }
        // Pass 2: scatter in sorted order, so each cell stays sorted.
        self.cells.clear();
        self.cells.resize(self.offsets[cell_count] as usize);
        let mut cursor: Vec<u32> = self.offsets[..cell_count].to_vec();
        for p in 0..n {
            if self.is_big[p] {
                continue;
            }
            let (b0, c0) = (sorted.cell_b[p], sorted.cell_c[p]);
            let (b1, c1) = self.span_end[p];
            for cc in c0..=c1 {
                for cb in b0..=b1 {
                    let k = (cc * gb + cb) as usize;
                    self.cells.copy_from(cursor[k] as usize, sorted, p);
                    cursor[k] += 1;
                }
            }
        }
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
