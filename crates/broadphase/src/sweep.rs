//! The sweep kernel: complete box pruning over boxes sorted on one axis.
//!
//! Boxes live in struct-of-arrays form: the sweep axis `a` and the two others `b`, `c`.
//! For boxes sorted by `min_a`, box `q > p` overlaps `p` on `a` iff
//! `min_a[q] <= max_a[p]` (closed intervals; `max_a[q] >= min_a[q] >= min_a[p]` holds
//! already), so each box only looks forward until the first `min_a[q] > max_a[p]`.
//! Every pair is found once, from its box with the earlier position.
//!
//! The candidates are tested eight at a time with no branch: each lane computes one
//! `bool` from six comparisons (`a` bound, `b` and `c` overlap) and two integer tests
//! (the grid reporting rule, see [`crate::grid`]), and the eight bools are packed into a
//! bitmask. Only the mask is branched on. The lane loop runs over `[f32; 8]` arrays
//! with a constant trip count, the shape LLVM turns into 256-bit compares and a
//! `movmskps` on x86-64 (the crate docs say what was checked).

use crate::pairs::pack;

/// One run of boxes sorted by `min_a`, as parallel slices.
#[derive(Clone, Copy)]
pub(crate) struct SoaView<'a> {
    pub min_a: &'a [f32],
    pub max_a: &'a [f32],
    pub min_b: &'a [f32],
    pub max_b: &'a [f32],
    pub min_c: &'a [f32],
    pub max_c: &'a [f32],
    /// Grid cell of `min_b` / `min_c` (all zero when there is no grid).
    pub cell_b: &'a [u32],
    pub cell_c: &'a [u32],
    pub id: &'a [u32],
}

/// Owned struct-of-arrays storage.
#[derive(Clone, Debug, Default)]
pub(crate) struct Soa {
    pub min_a: Vec<f32>,
    pub max_a: Vec<f32>,
    pub min_b: Vec<f32>,
    pub max_b: Vec<f32>,
    pub min_c: Vec<f32>,
    pub max_c: Vec<f32>,
    pub cell_b: Vec<u32>,
    pub cell_c: Vec<u32>,
    pub id: Vec<u32>,
}

impl Soa {
    pub fn clear(&mut self) {
        self.min_a.clear();
        self.max_a.clear();
        self.min_b.clear();
        self.max_b.clear();
        self.min_c.clear();
        self.max_c.clear();
        self.cell_b.clear();
        self.cell_c.clear();
        self.id.clear();
    }

    pub fn len(&self) -> usize {
        self.id.len()
    }

    /// Resizes every array to `n` (new entries zero).
    pub fn resize(&mut self, n: usize) {
        self.min_a.resize(n, 0.0);
        self.max_a.resize(n, 0.0);
        self.min_b.resize(n, 0.0);
        self.max_b.resize(n, 0.0);
        self.min_c.resize(n, 0.0);
        self.max_c.resize(n, 0.0);
        self.cell_b.resize(n, 0);
        self.cell_c.resize(n, 0);
        self.id.resize(n, 0);
    }

    /// Copies entry `src` of `from` to position `dst` of `self`.
    #[inline]
    pub fn copy_from(&mut self, dst: usize, from: &Soa, src: usize) {
        self.min_a[dst] = from.min_a[src];
        self.max_a[dst] = from.max_a[src];
        self.min_b[dst] = from.min_b[src];
        self.max_b[dst] = from.max_b[src];
        self.min_c[dst] = from.min_c[src];
        self.max_c[dst] = from.max_c[src];
        self.cell_b[dst] = from.cell_b[src];
        self.cell_c[dst] = from.cell_c[src];
        self.id[dst] = from.id[src];
    }

    /// The entries `range` as a view.
    pub fn view(&self, range: std::ops::Range<usize>) -> SoaView<'_> {
        SoaView {
            min_a: &self.min_a[range.clone()],
            max_a: &self.max_a[range.clone()],
            min_b: &self.min_b[range.clone()],
            max_b: &self.max_b[range.clone()],
            min_c: &self.min_c[range.clone()],
            max_c: &self.max_c[range.clone()],
            cell_b: &self.cell_b[range.clone()],
            cell_c: &self.cell_c[range.clone()],
            id: &self.id[range],
        }
    }
}

const LANES: usize = 8;

/// The box at position `p`, the one whose candidates are tested.
#[derive(Clone, Copy)]
struct Probe {
    max_a: f32,
    min_b: f32,
    max_b: f32,
    min_c: f32,
    max_c: f32,
    cell_b: u32,
    cell_c: u32,
}

/// Eight candidates starting at `q`: (hit mask, still-inside-on-`a` mask).
///
/// Branch-free on purpose: `&` (not `&&`) on bools, constant trip count, arrays of 8.
#[inline]
fn lanes(s: &SoaView, q: usize, p: &Probe, cell: (u32, u32)) -> (u32, u32) {
    let min_a: &[f32; LANES] = s.min_a[q..q + LANES].try_into().unwrap();
    let min_b: &[f32; LANES] = s.min_b[q..q + LANES].try_into().unwrap();
    let max_b: &[f32; LANES] = s.max_b[q..q + LANES].try_into().unwrap();
    let min_c: &[f32; LANES] = s.min_c[q..q + LANES].try_into().unwrap();
    let max_c: &[f32; LANES] = s.max_c[q..q + LANES].try_into().unwrap();
    let cell_b: &[u32; LANES] = s.cell_b[q..q + LANES].try_into().unwrap();
    let cell_c: &[u32; LANES] = s.cell_c[q..q + LANES].try_into().unwrap();
    let mut hit = 0u32;
    let mut inside = 0u32;
    for k in 0..LANES {
        let in_a = min_a[k] <= p.max_a;
        let ok = in_a
            & (min_b[k] <= p.max_b)
            & (p.min_b <= max_b[k])
            & (min_c[k] <= p.max_c)
            & (p.min_c <= max_c[k])
            & (cell_b[k].max(p.cell_b) == cell.0)
            & (cell_c[k].max(p.cell_c) == cell.1);
        hit |= (ok as u32) << k;
        inside |= (in_a as u32) << k;
    }
    (hit, inside)
}

/// Complete box pruning of the boxes `starts` of the sorted run `s` against every
/// later box of `s`, appending packed pairs to `out`.
///
/// `cell` is the grid cell this run belongs to; a pair is kept only if the cell of
/// the lower corner of the two boxes' overlap (`max` of their `min` cells) is `cell`,
/// so a pair seen in several cells is reported once. Without a grid all cells are 0.
pub(crate) fn sweep(
    s: &SoaView,
    starts: std::ops::Range<usize>,
    cell: (u32, u32),
    out: &mut Vec<u64>,
) {
    let n = s.id.len();
    for p in starts {
        let probe = Probe {
            max_a: s.max_a[p],
            min_b: s.min_b[p],
            max_b: s.max_b[p],
            min_c: s.min_c[p],
            max_c: s.max_c[p],
            cell_b: s.cell_b[p],
            cell_c: s.cell_c[p],
        };
        let id_p = s.id[p];
        let mut q = p + 1;
        loop {
            if q + LANES <= n {
                let (mut hit, inside) = lanes(s, q, &probe, cell);
                while hit != 0 {
                    let k = hit.trailing_zeros() as usize;
                    out.push(pack(id_p, s.id[q + k]));
                    hit &= hit - 1;
                }
                if inside != (1 << LANES) - 1 {
                    break;
                }
                q += LANES;
            } else {
                // Fewer than eight left: the same test, one at a time.
                while q < n && s.min_a[q] <= probe.max_a {
                    let ok = (s.min_b[q] <= probe.max_b)
                        & (probe.min_b <= s.max_b[q])
                        & (s.min_c[q] <= probe.max_c)
                        & (probe.min_c <= s.max_c[q])
                        & (s.cell_b[q].max(probe.cell_b) == cell.0)
                        & (s.cell_c[q].max(probe.cell_c) == cell.1);
                    if ok {
                        out.push(pack(id_p, s.id[q]));
                    }
                    q += 1;
                }
                break;
            }
        }
    }
}

/// Pairs of the "big" box at sorted position `p` (one spanning too many grid cells
/// to be bucketed) with every box of the full sorted run `s` that overlaps it on all
/// three axes. Another big box is paired only when it comes later (`j > p`), so each
/// big–big pair is reported once; big–small pairs are only ever found here.
pub(crate) fn big_against_all(s: &SoaView, is_big: &[bool], p: usize, out: &mut Vec<u64>) {
    let (lo_a, hi_a) = (s.min_a[p], s.max_a[p]);
    let (lo_b, hi_b) = (s.min_b[p], s.max_b[p]);
    let (lo_c, hi_c) = (s.min_c[p], s.max_c[p]);
    let id_p = s.id[p];
    // Sorted on a: boxes after the first min_a > hi_a cannot overlap.
    let end = s.min_a.partition_point(|&m| m <= hi_a);
    for (j, &big_j) in is_big[..end].iter().enumerate() {
        let ok = (lo_a <= s.max_a[j])
            & (s.min_b[j] <= hi_b)
            & (lo_b <= s.max_b[j])
            & (s.min_c[j] <= hi_c)
            & (lo_c <= s.max_c[j])
            & (!big_j | (j > p));
        if ok & (j != p) {
            out.push(pack(id_p, s.id[j]));
        }
    }
}
