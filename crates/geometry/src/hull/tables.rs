//! A hull's tables in one allocation.
//!
//! A [`ConvexHull`](super::ConvexHull) keeps 19 tables (vertices, planes, edges, their
//! blocks of 8 lanes, the face loops, the adjacency, …). As 17 boxed slices and two
//! vectors they were 19 allocations made among the builder's temporaries: in a scene
//! of 2,000 distinct 24-point hulls each hull's ~14 KB lay on about 10 pages, a
//! megabyte apart, and a hull pair paid for the TLB misses (copied after the build, ~5
//! pages a hull, the hull scene's narrow stage was 11 % faster).
//!
//! Here the tables lie one after the other in one buffer of 64-byte lines, each from a
//! line boundary (so every table is aligned for its type, the 64-byte edge blocks and
//! records included), in the order a hull pair reads them: the face and vertex blocks
//! first, the walks' tables last. Every table's element type is plain old data
//! ([`bytemuck::Pod`]: any bytes are a value). A key ([`Table`]) names a table and
//! its item type; the packer lays out each table under its key's type, and a table is
//! read back as a typed slice by a pointer cast (`Tables::get`, the one `unsafe`
//! block, measured against checked casts there).
//!
//! Two hulls' tables compare equal when their bytes do (a stricter test than comparing
//! the floats: `0.0` and `−0.0` differ).

use super::blocks::VertexBlock;
use super::edge_blocks::{EdgeBlock, EdgeRecord};
use super::plane_blocks::PlaneBlock;
use super::{GaussArc, HullEdge, Plane};
use bytemuck::{Pod, Zeroable};
use glam::Vec3;
use std::marker::PhantomData;

/// One cache line of table bytes; its alignment is every table's.
#[derive(Clone, Copy, PartialEq, Pod, Zeroable)]
#[repr(C, align(64))]
struct Line([u8; LINE]);

const LINE: usize = 64;

/// Which table, and the type of its items.
pub(crate) struct Table<T>(usize, PhantomData<fn() -> T>);

impl<T> Clone for Table<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Table<T> {}

/// The tables, in their order in the buffer (see [`TableSlices`] for what each holds).
pub(crate) const PLANE_BLOCKS: Table<PlaneBlock> = Table(0, PhantomData);
pub(crate) const VERTEX_BLOCKS: Table<VertexBlock> = Table(1, PhantomData);
pub(crate) const PLANES: Table<Plane> = Table(2, PhantomData);
pub(crate) const VERTICES: Table<Vec3> = Table(3, PhantomData);
pub(crate) const EDGE_BLOCKS: Table<EdgeBlock> = Table(4, PhantomData);
pub(crate) const EDGE_RECORDS: Table<EdgeRecord> = Table(5, PhantomData);
pub(crate) const FACE_STARTS: Table<u32> = Table(6, PhantomData);
pub(crate) const FACE_VERTICES: Table<u32> = Table(7, PhantomData);
pub(crate) const SIDE_PLANES: Table<Plane> = Table(8, PhantomData);
pub(crate) const FACE_EDGES: Table<u32> = Table(9, PhantomData);
pub(crate) const EDGE_STEPS: Table<[u32; 2]> = Table(10, PhantomData);
pub(crate) const EDGES: Table<HullEdge> = Table(11, PhantomData);
pub(crate) const NORMAL_BLOCKS: Table<VertexBlock> = Table(12, PhantomData);
pub(crate) const ARCS: Table<GaussArc> = Table(13, PhantomData);
pub(crate) const NEIGHBOR_STARTS: Table<u32> = Table(14, PhantomData);
pub(crate) const NEIGHBORS: Table<u32> = Table(15, PhantomData);
pub(crate) const NEIGHBOR_EDGES: Table<u32> = Table(16, PhantomData);
pub(crate) const POLES: Table<Vec3> = Table(17, PhantomData);
pub(crate) const ACROSS: Table<u32> = Table(18, PhantomData);
const COUNT: usize = 19;

/// Every table of a hull, borrowed, to be packed (the fields' docs are on the
/// accessors of [`ConvexHull`](super::ConvexHull) of the same names).
pub(crate) struct TableSlices<'a> {
    pub plane_blocks: &'a [PlaneBlock],
    pub vertex_blocks: &'a [VertexBlock],
    pub planes: &'a [Plane],
    pub vertices: &'a [Vec3],
    pub edge_blocks: &'a [EdgeBlock],
    pub edge_records: &'a [EdgeRecord],
    pub face_starts: &'a [u32],
    pub face_vertices: &'a [u32],
    pub side_planes: &'a [Plane],
    pub face_edges: &'a [u32],
    pub edge_steps: &'a [[u32; 2]],
    pub edges: &'a [HullEdge],
    pub normal_blocks: &'a [VertexBlock],
    pub arcs: &'a [GaussArc],
    pub neighbor_starts: &'a [u32],
    pub neighbors: &'a [u32],
    pub neighbor_edges: &'a [u32],
    /// The polar climb's poles, one per face (`polar_climb.rs`).
    pub poles: &'a [Vec3],
    /// The polar climb's face across each loop step, parallel to `face_vertices`.
    pub across: &'a [u32],
}

/// A hull's tables in one buffer (see the [module docs](self)).
#[derive(Clone, PartialEq)]
pub(crate) struct Tables {
    /// Each table's first byte (a line's, so a multiple of 64) and length in items, by
    /// [`Table`] index; written only
    /// by [`Packer::put`], with the table of the key's own item type.
    spans: [[u32; 2]; COUNT],
    lines: Box<[Line]>,
}

/// The tables being laid out: each key's span, and its bytes to copy.
struct Packer<'a> {
    spans: [[u32; 2]; COUNT],
    bytes: [&'a [u8]; COUNT],
    line_count: usize,
}

impl<'a> Packer<'a> {
    /// Table `key` next, from a line boundary. The item type is the key's, so a span
    /// always describes items of the type [`Tables::get`] reads it as.
    fn put<T: Pod>(&mut self, key: Table<T>, items: &'a [T]) {
        let bytes: &[u8] = bytemuck::cast_slice(items);
        debug_assert!(self.bytes[key.0].is_empty() && self.spans[key.0] == [0, 0]);
        self.spans[key.0] = [(self.line_count * LINE) as u32, items.len() as u32];
        self.bytes[key.0] = bytes;
        self.line_count += bytes.len().div_ceil(LINE);
    }

    fn finish(self) -> Tables {
        debug_assert!(self.line_count * LINE <= u32::MAX as usize);
        let mut lines = vec![Line([0; LINE]); self.line_count].into_boxed_slice();
        let buffer: &mut [u8] = bytemuck::cast_slice_mut(&mut lines);
        for (&[start, _], bytes) in self.spans.iter().zip(self.bytes) {
            let start = start as usize;
            buffer[start..start + bytes.len()].copy_from_slice(bytes);
        }
        Tables {
            spans: self.spans,
            lines,
        }
    }
}

impl Tables {
    /// Packs the tables one after the other, each from a line boundary. The spans are
    /// `u32`s: the caller keeps the buffer under 4 GiB (so every table's first byte and
    /// its items fit). A hull of `V` vertices has at most `3V` edges, `2V` faces and `6V`
    /// loop steps, about 730 bytes of tables a vertex: 0.8 GB at
    /// [`ConvexHull::MAX_VERTICES`](super::ConvexHull::MAX_VERTICES).
    pub(crate) fn pack(t: &TableSlices) -> Tables {
        let mut packer = Packer {
            spans: [[0; 2]; COUNT],
            bytes: [&[]; COUNT],
            line_count: 0,
        };
        packer.put(PLANE_BLOCKS, t.plane_blocks);
        packer.put(VERTEX_BLOCKS, t.vertex_blocks);
        packer.put(PLANES, t.planes);
        packer.put(VERTICES, t.vertices);
        packer.put(EDGE_BLOCKS, t.edge_blocks);
        packer.put(EDGE_RECORDS, t.edge_records);
        packer.put(FACE_STARTS, t.face_starts);
        packer.put(FACE_VERTICES, t.face_vertices);
        packer.put(SIDE_PLANES, t.side_planes);
        packer.put(FACE_EDGES, t.face_edges);
        packer.put(EDGE_STEPS, t.edge_steps);
        packer.put(EDGES, t.edges);
        packer.put(NORMAL_BLOCKS, t.normal_blocks);
        packer.put(ARCS, t.arcs);
        packer.put(NEIGHBOR_STARTS, t.neighbor_starts);
        packer.put(NEIGHBORS, t.neighbors);
        packer.put(NEIGHBOR_EDGES, t.neighbor_edges);
        packer.put(POLES, t.poles);
        packer.put(ACROSS, t.across);
        packer.finish()
    }

    /// One table as a typed slice.
    ///
    /// A pointer cast, unchecked: with a bounds check (or `bytemuck`'s checked casts,
    /// which test the alignment and the length's multiple too) at every call, the
    /// compiler no longer reuses a table across a query's steps. Measured in callgrind
    /// (`prof MODE 24`, instructions inside `collide`; checked casts → this):
    /// sphere–hull 2.85 → 2.45 million, hull–hull 37.67 → 36.98, box–hull 32.86 →
    /// 32.27 (a bounds check alone: 2.87, 37.65, 32.99); in time, `cargo bench
    /// --bench narrowphase -- sphere_hull_manifold/sepax/`, four alternated runs of each
    /// build, 34.8 → 31.9 µs (geometric means; the unchecked build faster in all four).
    /// A span's first byte rather than its first line saves the shift: 2.45 → 2.41,
    /// 36.98 → 36.91, 32.27 → 32.20.
    #[inline]
    pub(crate) fn get<T: Pod>(&self, table: Table<T>) -> &[T] {
        const { assert!(align_of::<T>() <= LINE) };
        let [start, items] = self.spans[table.0];
        let (start, items) = (start as usize, items as usize);
        debug_assert!(start + items * size_of::<T>() <= self.lines.len() * LINE);
        // SAFETY: `spans[table.0]` was written only by `Packer::put` with a `&[T]` of
        // this key's item type `T` (the keys' indices are distinct, tested), and
        // `finish` copied those `items` values' bytes to byte `start` of `lines`, which
        // holds them: the `items · size_of::<T>()` bytes from there lie inside the
        // buffer (a `[]` table at the end points one past it, as an empty slice may).
        // `start` is a line's first byte, on a 64-byte boundary, aligned for `T` (its
        // alignment is at most 64, checked at compile time); every bit pattern is a
        // `T` (`Pod`); the slice borrows `self`, and nothing writes to `lines` after
        // `finish`.
        unsafe {
            let first = self.lines.as_ptr().cast::<u8>().wrapping_add(start);
            std::slice::from_raw_parts(first.cast::<T>(), items)
        }
    }

    /// The buffer's size in bytes.
    pub(crate) fn byte_len(&self) -> usize {
        self.lines.len() * LINE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ConvexHull;
    use crate::rng::Rng;

    /// Every table read back from the buffer equals the slice packed, whatever the
    /// lengths (empty tables included); the tables do not overlap and each starts on a
    /// line boundary.
    #[test]
    fn tables_read_back_what_was_packed() {
        let mut rng = Rng::new(0x7AB1E5);
        for _ in 0..200 {
            let mut len = || rng.below(40);
            let u32s = |n: usize, k: u32| (0..n as u32).map(|i| i * 7 + k).collect::<Vec<u32>>();
            let vec3s = |n: usize, k: f32| {
                (0..n)
                    .map(|i| Vec3::new(i as f32, k, -(i as f32)))
                    .collect::<Vec<Vec3>>()
            };
            let planes = |n: usize, k: f32| {
                vec3s(n, k)
                    .into_iter()
                    .map(|normal| Plane { normal, offset: k })
                    .collect::<Vec<Plane>>()
            };
            let (n0, n1, n2, n3, n4, n5) = (len(), len(), len(), len(), len(), len());
            let (n6, n7, n8, n9, n10, n11) = (len(), len(), len(), len(), len(), len());
            let (n12, n13) = (len(), len());
            let hull = ConvexHull::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
            let blocks = |n: usize| hull.vertex_blocks().iter().cycle().take(n).copied();
            let vertex_blocks: Vec<VertexBlock> = blocks(n0).collect();
            let normal_blocks: Vec<VertexBlock> = blocks(n1).collect();
            let plane_blocks: Vec<PlaneBlock> = hull
                .plane_blocks()
                .iter()
                .cycle()
                .take(n2)
                .copied()
                .collect();
            let edge_blocks: Vec<EdgeBlock> = hull
                .edge_blocks()
                .iter()
                .cycle()
                .take(n3)
                .copied()
                .collect();
            let edge_records: Vec<EdgeRecord> = hull
                .edge_records()
                .iter()
                .cycle()
                .take(n4)
                .copied()
                .collect();
            let edges: Vec<HullEdge> = hull.edges().iter().cycle().take(n5).copied().collect();
            let arcs: Vec<GaussArc> = hull.gauss_arcs().iter().cycle().take(n6).copied().collect();
            let edge_steps: Vec<[u32; 2]> = (0..n7 as u32).map(|i| [i, i + 3]).collect();
            let (vertices, poles) = (vec3s(n8, 1.5), vec3s(n9, -2.5));
            let (main_planes, side_planes) = (planes(n10, 0.25), planes(n11, 4.0));
            let u = [n12, n13, len(), len(), len(), len(), len(), len()];
            let us: Vec<Vec<u32>> = u
                .iter()
                .enumerate()
                .map(|(k, &n)| u32s(n, k as u32))
                .collect();
            let slices = TableSlices {
                plane_blocks: &plane_blocks,
                vertex_blocks: &vertex_blocks,
                planes: &main_planes,
                vertices: &vertices,
                edge_blocks: &edge_blocks,
                edge_records: &edge_records,
                face_starts: &us[0],
                face_vertices: &us[1],
                side_planes: &side_planes,
                face_edges: &us[2],
                edge_steps: &edge_steps,
                edges: &edges,
                normal_blocks: &normal_blocks,
                arcs: &arcs,
                neighbor_starts: &us[3],
                neighbors: &us[4],
                neighbor_edges: &us[5],
                poles: &poles,
                across: &us[6],
            };
            let tables = Tables::pack(&slices);
            assert_eq!(tables.get(PLANE_BLOCKS), slices.plane_blocks);
            assert_eq!(tables.get(VERTEX_BLOCKS), slices.vertex_blocks);
            assert_eq!(tables.get(PLANES), slices.planes);
            assert_eq!(tables.get(VERTICES), slices.vertices);
            assert_eq!(tables.get(EDGE_BLOCKS), slices.edge_blocks);
            assert_eq!(tables.get(EDGE_RECORDS), slices.edge_records);
            assert_eq!(tables.get(FACE_STARTS), slices.face_starts);
            assert_eq!(tables.get(FACE_VERTICES), slices.face_vertices);
            assert_eq!(tables.get(SIDE_PLANES), slices.side_planes);
            assert_eq!(tables.get(FACE_EDGES), slices.face_edges);
            assert_eq!(tables.get(EDGE_STEPS), slices.edge_steps);
            assert_eq!(tables.get(EDGES), slices.edges);
            assert_eq!(tables.get(NORMAL_BLOCKS), slices.normal_blocks);
            assert_eq!(tables.get(ARCS), slices.arcs);
            assert_eq!(tables.get(NEIGHBOR_STARTS), slices.neighbor_starts);
            assert_eq!(tables.get(NEIGHBORS), slices.neighbors);
            assert_eq!(tables.get(NEIGHBOR_EDGES), slices.neighbor_edges);
            assert_eq!(tables.get(POLES), slices.poles);
            assert_eq!(tables.get(ACROSS), slices.across);
            // The tables do not overlap and lie inside the buffer.
            let mut regions = all_regions(&tables);
            regions.sort();
            let mut end = 0;
            for (start, bytes) in regions {
                assert!(start >= end && start % LINE == 0);
                end = start + bytes;
            }
            assert!(end <= tables.byte_len());
            // A copy keeps the line alignment (edge records need 64 bytes).
            let copy = tables.clone();
            assert_eq!(copy.get(EDGE_RECORDS), slices.edge_records);
            assert!(copy == tables);
        }
    }

    /// Where table `key` lies in the buffer: its first byte and its size in bytes.
    fn region<T: Pod>(tables: &Tables, key: Table<T>) -> (usize, usize) {
        let [start, _] = tables.spans[key.0];
        (start as usize, size_of_val(tables.get(key)))
    }

    fn all_regions(t: &Tables) -> Vec<(usize, usize)> {
        vec![
            region(t, PLANE_BLOCKS),
            region(t, VERTEX_BLOCKS),
            region(t, PLANES),
            region(t, VERTICES),
            region(t, EDGE_BLOCKS),
            region(t, EDGE_RECORDS),
            region(t, FACE_STARTS),
            region(t, FACE_VERTICES),
            region(t, SIDE_PLANES),
            region(t, FACE_EDGES),
            region(t, EDGE_STEPS),
            region(t, EDGES),
            region(t, NORMAL_BLOCKS),
            region(t, ARCS),
            region(t, NEIGHBOR_STARTS),
            region(t, NEIGHBORS),
            region(t, NEIGHBOR_EDGES),
            region(t, POLES),
            region(t, ACROSS),
        ]
    }

    /// The keys' indices are distinct and cover every span (what `Tables::get`'s
    /// safety rests on: no two keys of different item types share a span).
    #[test]
    fn keys_are_distinct() {
        let mut indices = vec![
            PLANE_BLOCKS.0,
            VERTEX_BLOCKS.0,
            PLANES.0,
            VERTICES.0,
            EDGE_BLOCKS.0,
            EDGE_RECORDS.0,
            FACE_STARTS.0,
            FACE_VERTICES.0,
            SIDE_PLANES.0,
            FACE_EDGES.0,
            EDGE_STEPS.0,
            EDGES.0,
            NORMAL_BLOCKS.0,
            ARCS.0,
            NEIGHBOR_STARTS.0,
            NEIGHBORS.0,
            NEIGHBOR_EDGES.0,
            POLES.0,
            ACROSS.0,
        ];
        indices.sort();
        assert_eq!(indices, (0..COUNT).collect::<Vec<_>>());
    }
}
