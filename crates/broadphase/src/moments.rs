//! Box statistics for the sweep's choices: centre variance per axis (which axis to
//! sweep), bounds and mean extent (how fine a grid), from one pass over a sample.
//!
//! The variance of the centres `x_i` on an axis is `E[x²] − E[x]²`, summed in f64 so
//! that a few thousand f32 centres lose nothing that matters for a choice between
//! axes (it is clamped at 0 against round-off). Boxes more than [`OUTLIER_SIZE`]
//! times the median size are left out: one box as wide as `f32::MAX` would
//! otherwise stretch the grid over everything and leave all other boxes in one cell
//! (issue 9).

use sepax_geometry::Aabb;
use smallvec::SmallVec;

/// Boxes larger than this many times the median box are left out of the estimates
/// (the grid tests them as big boxes).
pub(crate) const OUTLIER_SIZE: f32 = 64.0;

/// Sums of centres, squared centres and extents, and bounds, per axis, over `count`
/// boxes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Moments {
    count: usize,
    sum: [f64; 3],
    sum2: [f64; 3],
    ext: [f64; 3],
    pub lo: [f32; 3],
    pub hi: [f32; 3],
}

impl Default for Moments {
    fn default() -> Self {
        Moments {
            count: 0,
            sum: [0.0; 3],
            sum2: [0.0; 3],
            ext: [0.0; 3],
            lo: [f32::INFINITY; 3],
            hi: [f32::NEG_INFINITY; 3],
        }
    }
}

impl Moments {
    /// The moments of every box of `boxes`.
    pub fn of(boxes: impl Iterator<Item = Aabb>) -> Moments {
        let mut m = Moments::default();
        for aabb in boxes {
            m.add(&aabb);
        }
        m
    }

    /// The moments of the boxes taken at a fixed `stride`, leaving out outliers
    /// (larger than [`OUTLIER_SIZE`] times the median sampled size).
    pub fn sampled(boxes: &[Aabb], stride: usize) -> Moments {
        let cap = outlier_cap(boxes, stride);
        let mut m = Moments::default();
        for aabb in boxes.iter().step_by(stride) {
            if aabb.size().max_element() <= cap {
                m.add(aabb);
            }
        }
        m
    }

    pub fn add(&mut self, aabb: &Aabb) {
        self.count += 1;
        for ax in 0..3 {
            let centre = 0.5 * (aabb.min[ax] as f64 + aabb.max[ax] as f64);
            self.sum[ax] += centre;
            self.sum2[ax] += centre * centre;
            self.ext[ax] += aabb.max[ax] as f64 - aabb.min[ax] as f64;
            self.lo[ax] = self.lo[ax].min(aabb.min[ax]);
            self.hi[ax] = self.hi[ax].max(aabb.max[ax]);
        }
    }

    fn inv_count(&self) -> f64 {
        1.0 / self.count.max(1) as f64
    }

    /// Variance of the box centres per axis, `E[x²] − E[x]²` (at least 0).
    pub fn variance(&self) -> [f64; 3] {
        let inv_n = self.inv_count();
        std::array::from_fn(|ax| (self.sum2[ax] * inv_n - (self.sum[ax] * inv_n).powi(2)).max(0.0))
    }

    /// Mean extent of the boxes on axis `ax`.
    pub fn mean_extent(&self, ax: usize) -> f32 {
        (self.ext[ax] * self.inv_count()) as f32
    }
}

/// Size above which a sampled box is an outlier for the estimates: [`OUTLIER_SIZE`]
/// times the median of the sampled boxes' largest extents (no limit when that median
/// is 0, e.g. mostly points).
fn outlier_cap(boxes: &[Aabb], stride: usize) -> f32 {
    // On the stack: the one caller samples at most 2,047 boxes (a stride of
    // `n / 1024`), so a sweep allocates nothing here.
    let mut sizes: SmallVec<[f32; 2048]> = boxes
        .iter()
        .step_by(stride)
        .map(|b| b.size().max_element())
        .collect();
    if sizes.is_empty() {
        return f32::INFINITY;
    }
    let mid = sizes.len() / 2;
    let (_, median, _) = sizes.select_nth_unstable_by(mid, f32::total_cmp);
    if *median > 0.0 {
        OUTLIER_SIZE * *median
    } else {
        f32::INFINITY
    }
}
