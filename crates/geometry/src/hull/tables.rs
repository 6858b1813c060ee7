//! A hull's tables in one allocation.
//!
//! A [`ConvexHull`](super::ConvexHull) keeps 19 tables (vertices, planes, edges, their
//! blocks of 8 lanes, the face loops, the adjacency, …). As 19 boxed slices they were
//! 19 allocations made among the builder's temporaries: in a scene of 2,000 distinct
//! 24-point hulls each hull's ~14 KB lay on about 10 pages, a megabyte apart, and a
//! hull pair paid for the TLB misses (copied after the build, ~5 pages a hull, the
//! hull scene's narrow stage was 11 % faster).
//!
//! Here the tables lie one after the other in one buffer of 64-byte lines, each from a
//! line boundary (so every table is aligned for its type, the 64-byte edge blocks and
//! records included), in the order a hull pair reads them: the face and vertex blocks
//! first, the walks' tables last. Every table's element type is plain old data, so a
//! table is read back as a typed slice through [`bytemuck`]'s checked casts: no
//! `unsafe`, and a cast that could not hold (never, by construction) would stop with a
//! panic rather than read the wrong bytes.
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
    /// Each table's first line and length in items, in [`Table`] order.
    spans: [[u32; 2]; COUNT],
    lines: Box<[Line]>,
}

impl Tables {
    /// Packs the tables, each from a line boundary. The spans are `u32`s: the caller
    /// keeps the buffer under 4 GiB (so its lines and every table's items count fit). A hull of `V` vertices has at most
    /// `3V` edges, `2V` faces and `6V` loop steps, about 730 bytes of tables a vertex:
    /// 0.8 GB at [`ConvexHull::MAX_VERTICES`](super::ConvexHull::MAX_VERTICES).
    pub(crate) fn pack(t: &TableSlices) -> Tables {
        let tables = byte_tables(t);
        let mut spans = [[0u32; 2]; COUNT];
        let mut line_count = 0usize;
        for (span, &(table, items)) in spans.iter_mut().zip(&tables) {
            *span = [line_count as u32, items as u32];
            line_count += table.len().div_ceil(LINE);
        }
        debug_assert!(line_count * LINE <= u32::MAX as usize);
        let mut lines = vec![Line([0; LINE]); line_count].into_boxed_slice();
        let buffer: &mut [u8] = bytemuck::cast_slice_mut(&mut lines);
        for (span, (table, _)) in spans.iter().zip(&tables) {
            let start = span[0] as usize * LINE;
            buffer[start..start + table.len()].copy_from_slice(table);
        }
        Tables { spans, lines }
    }

    /// One table as a typed slice. (Measured, `prof hull 24` in callgrind: these
    /// checked casts cost about 1.5 % more instructions a hull pair than unchecked
    /// pointer casts would; not worth `unsafe`.)
    #[inline]
    pub(crate) fn get<T: Pod>(&self, table: Table<T>) -> &[T] {
        let [line, items] = self.spans[table.0];
        let buffer: &[u8] = bytemuck::cast_slice(&self.lines[line as usize..]);
        bytemuck::cast_slice(&buffer[..items as usize * size_of::<T>()])
    }

    /// The buffer's size in bytes.
    pub(crate) fn byte_len(&self) -> usize {
        self.lines.len() * LINE
    }
}

/// The tables as bytes and their lengths in items, in [`Table`] order.
fn byte_tables<'a>(t: &TableSlices<'a>) -> [(&'a [u8], usize); COUNT] {
    use bytemuck::cast_slice as bytes;
    [
        (bytes(t.plane_blocks), t.plane_blocks.len()),
        (bytes(t.vertex_blocks), t.vertex_blocks.len()),
        (bytes(t.planes), t.planes.len()),
        (bytes(t.vertices), t.vertices.len()),
        (bytes(t.edge_blocks), t.edge_blocks.len()),
        (bytes(t.edge_records), t.edge_records.len()),
        (bytes(t.face_starts), t.face_starts.len()),
        (bytes(t.face_vertices), t.face_vertices.len()),
        (bytes(t.side_planes), t.side_planes.len()),
        (bytes(t.face_edges), t.face_edges.len()),
        (bytes(t.edge_steps), t.edge_steps.len()),
        (bytes(t.edges), t.edges.len()),
        (bytes(t.normal_blocks), t.normal_blocks.len()),
        (bytes(t.arcs), t.arcs.len()),
        (bytes(t.neighbor_starts), t.neighbor_starts.len()),
        (bytes(t.neighbors), t.neighbors.len()),
        (bytes(t.neighbor_edges), t.neighbor_edges.len()),
        (bytes(t.poles), t.poles.len()),
        (bytes(t.across), t.across.len()),
    ]
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
            let mut end = 0;
            for (&[line, _], (bytes, _)) in tables.spans.iter().zip(byte_tables(&slices)) {
                assert!(line as usize * LINE >= end);
                end = line as usize * LINE + bytes.len();
            }
            assert!(end <= tables.byte_len());
            // A copy keeps the line alignment (edge records need 64 bytes).
            let copy = tables.clone();
            assert_eq!(copy.get(EDGE_RECORDS), slices.edge_records);
            assert!(copy == tables);
        }
    }
}
