//! The sweep kernel: complete box pruning over boxes sorted on one axis.
//!
//! Boxes are kept in struct-of-arrays form: the sweep axis `a` and the two others
//! `b`, `c`. For boxes sorted by `min_a`, box `q > p` overlaps `p` on `a` iff
//! `min_a[q] <= max_a[p]` (closed intervals; `max_a[q] >= min_a[q] >= min_a[p]` holds
//! already), so each box only looks forward until the first `min_a[q] > max_a[p]`.
//! Every pair is met once, from its box with the earlier position. A sentinel with
//! `min_a = +inf` ends every run, so the forward loop needs no bounds test.
//!
//! The other two axes are tested with one 4-wide compare and no branch (Terdiman,
//! "Box pruning revisited", the SIMD parts): box `q` is stored as
//! `bc = (min_b, min_c, −max_b, −max_c)` and the probe `p` as
//! `(max_b, max_c, −min_b, −min_c)`; the four interval conditions
//! `min_b[q] <= max_b[p]`, `min_c[q] <= max_c[p]`, `max_b[q] >= min_b[p]`,
//! `max_c[q] >= min_c[p]` are then exactly `bc[q] <= probe` lane by lane. Boxes
//! are stored as 32-byte [`Entry`]s (array of structs: the loop reads `min_a` and
//! `bc` of the same candidate, so one cache line serves both). Grid cells hold
//! positions into the sorted entries, copied together before the cell is swept
//! ([`crate::cell_sweep`]). With glam's `Vec4` this compiles to one `cmpleps` and one
//! `movmskps` per candidate on x86-64 (checked in the disassembly, see the crate docs). Negation is exact in floating
//! point, so the test is bit-for-bit the closed-interval test of the oracle.

use crate::budget::Sink;
use crate::pairs::pack;
use glam::Vec4;

/// One box in sweep form: 32 bytes, two per cache line, everything the sweep reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// `(min_b, min_c, −max_b, −max_c)`.
    pub bc: Vec4,
    pub min_a: f32,
    pub max_a: f32,
    /// Grid cell of `(min_b, min_c)` (zero without a grid).
    pub cell: [u16; 2],
    pub id: u32,
}

impl Entry {
    /// Ends every run: `min_a = +inf` stops each forward loop.
    pub const SENTINEL: Entry = Entry {
        bc: Vec4::INFINITY,
        min_a: f32::INFINITY,
        max_a: f32::INFINITY,
        cell: [u16::MAX, u16::MAX],
        id: u32::MAX,
    };
}

/// The `bc` lanes of a box given its `b` and `c` intervals.
#[inline]
pub(crate) fn pack_bc(min_b: f32, max_b: f32, min_c: f32, max_c: f32) -> Vec4 {
    Vec4::new(min_b, min_c, -max_b, -max_c)
}

/// The probe lanes matching [`pack_bc`]: `bc[q] <= probe(p)` iff overlap on `b`, `c`.
#[inline]
pub(crate) fn probe(bc: Vec4) -> Vec4 {
    // (min_b, min_c, -max_b, -max_c) -> (max_b, max_c, -min_b, -min_c)
    Vec4::new(-bc.z, -bc.w, -bc.x, -bc.y)
}

/// Complete box pruning of the boxes `starts` of the sorted, sentinel-terminated run
/// `s` against every later box of `s`, appending packed pairs to `out`. Returns false
/// when it stopped early because the pair budget ran out (see [`crate::budget`]).
///
/// Every box of `s` but the sentinel is finite (fat boxes are clamped, see
/// [`crate::fat`]), so `s[q].min_a <= ep.max_a` is false at the sentinel.
pub(crate) fn sweep(s: &[Entry], starts: std::ops::Range<usize>, out: &mut Sink) -> bool {
    sweep_keeping(s, starts, |_, _| true, out)
}

/// [`sweep`] reporting only the overlapping pairs that `keep(p, q)` accepts (the grid
/// cells' rule of where a pair is reported).
#[inline(always)]
pub(crate) fn sweep_keeping(
    s: &[Entry],
    starts: std::ops::Range<usize>,
    keep: impl Fn(&Entry, &Entry) -> bool,
    out: &mut Sink,
) -> bool {
    debug_assert!(s.last().is_some_and(|e| e.min_a == f32::INFINITY));
    for p in starts {
        if out.over() {
            return false;
        }
        let ep = s[p];
        let pr = probe(ep.bc);
        // The sentinel (min_a = +inf) ends the loop without a bounds test.
        let mut q = p + 1;
        while s[q].min_a <= ep.max_a {
            let eq = &s[q];
            if eq.bc.cmple(pr).all() && keep(&ep, eq) && !out.push(pack(ep.id, eq.id)) {
                return false;
            }
            q += 1;
        }
    }
    true
}

/// [`sweep`] over the boxes `all[idx[..]]` of one grid cell, read through their
/// positions: the twin the full sweep's [`sweep_gathered_cell`](crate::cell_sweep)
/// is tested against. `idx` is increasing
/// and ends with the position of `all`'s sentinel. Pairs are kept only if the lower
/// corner of their overlap lies in `cell` (see [`crate::grid`]). Returns false when
/// the pair budget ran out.
#[cfg(test)]
pub(crate) fn sweep_cell(all: &[Entry], idx: &[u32], cell: [u16; 2], out: &mut Sink) -> bool {
    debug_assert!(
        idx.last()
            .is_some_and(|&i| all[i as usize].min_a == f32::INFINITY)
    );
    for (j, &p) in idx[..idx.len() - 1].iter().enumerate() {
        if out.over() {
            return false;
        }
        let ep = all[p as usize];
        let pr = probe(ep.bc);
        for &q in &idx[j + 1..] {
            let eq = &all[q as usize];
            if eq.min_a > ep.max_a {
                break; // the sentinel always ends here
            }
            if eq.bc.cmple(pr).all()
                && eq.cell[0].max(ep.cell[0]) == cell[0]
                && eq.cell[1].max(ep.cell[1]) == cell[1]
                && !out.push(pack(ep.id, eq.id))
            {
                return false;
            }
        }
    }
    true
}

/// Pairs of the "big" box at sorted position `p` (one spanning too many grid cells
/// to be bucketed) with every box of the full sorted run `s` (sentinel-terminated)
/// that overlaps it on all three axes. Another big box is paired only when it comes
/// later (`j > p`), so each big–big pair is reported once; big–small pairs are only
/// ever found here. Returns false when the pair budget ran out.
pub(crate) fn big_against_all(s: &[Entry], is_big: &[bool], p: usize, out: &mut Sink) -> bool {
    let ep = s[p];
    let pr = probe(ep.bc);
    // Sorted on a: boxes after the first min_a > max_a[p] cannot overlap.
    let end = s.partition_point(|e| e.min_a <= ep.max_a);
    for (j, (eq, &big_j)) in s[..end].iter().zip(is_big).enumerate() {
        let ok = (ep.min_a <= eq.max_a) & eq.bc.cmple(pr).all() & (!big_j | (j > p));
        if ok & (j != p) && !out.push(pack(ep.id, eq.id)) {
            return false;
        }
    }
    true
}
