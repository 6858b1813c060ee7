//! The mesh's bounding volume hierarchy: a flat binary tree over the triangles' boxes,
//! built once with a binned surface-area heuristic.
//!
//! **Layout.** Nodes sit in one `Vec` in depth-first order: an inner node's left child
//! is the next node, its right child is named by index; a leaf names a run of
//! [`MeshBvh::triangle_order`]. Every node's box is the exact union (min / max, no
//! rounding) of its triangles' boxes, so a query that tests nodes and then each
//! triangle's box finds exactly what a scan over all triangles finds.
//!
//! **Build** (top-down, an explicit work stack, no recursion). For a node of `n`
//! triangles with box area `A`, on each axis the triangles' box centres are put in
//! [`BINS`] bins over the centres' extent; for each of the `BINS − 1` planes between
//! bins the cost `1 + (n_l · A_l + n_r · A_r) / A` (a traversal step plus the expected
//! triangle tests, Goldsmith–Salmon / MacDonald–Booth) is swept in two passes, and the
//! cheapest plane wins. A node of at most [`MAX_LEAF`] triangles becomes a leaf when no
//! plane beats testing them all (cost `n`); a node whose centres all coincide is split
//! in half by position. From depth [`SAH_DEPTH`] on, the split is the median of the
//! centres along the widest axis instead, so no tree is deeper than [`MAX_DEPTH`] whatever the
//! input: the queries walk it with a fixed stack on the call stack (no allocation, and
//! none of the bvh crate's 32-entry `traverse_iterator` overflow).
//!
//! This is our own small tree rather than the `bvh` crate the broad phase uses: it
//! keeps nalgebra out of `sepax-geometry`, and its node array is the one layout both
//! queries walk. A whole [`TriMesh::try_new`](crate::TriMesh::try_new) of 100,000
//! triangles takes about 60 ms in release (about 620 million instructions, most of
//! them in this build; `build_time_of_100k_triangles` in `tests/mesh_bvh.rs`, trees
//! 16 to 19 deep).

use crate::Aabb;
use glam::{UVec3, Vec3A};

/// Bins per axis in the SAH sweep.
pub const BINS: usize = 12;
/// Largest leaf: a node of more triangles is always split.
pub const MAX_LEAF: usize = 4;
/// Depth from which nodes are split at the median (halving the count each level).
pub const SAH_DEPTH: usize = 32;
/// No node lies deeper than this: `SAH_DEPTH` levels of SAH, then at most 30 halvings
/// of at most [`TriMesh::MAX_TRIANGLES`](crate::TriMesh::MAX_TRIANGLES) (< `2^30`)
/// triangles.
pub const MAX_DEPTH: usize = 64;

/// One node: a box and either two children or a run of triangles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BvhNode {
    /// The union of the boxes of every triangle below.
    pub aabb: Aabb,
    /// Inner node: index of the right child (the left one is the next node).
    /// Leaf: start of its run in [`MeshBvh::triangle_order`].
    first: u32,
    /// Number of triangles in a leaf; 0 for an inner node.
    count: u32,
}

impl BvhNode {
    /// The node's triangles' range in [`MeshBvh::triangle_order`], `None` for an inner
    /// node.
    #[inline]
    pub fn leaf_range(&self) -> Option<std::ops::Range<usize>> {
        (self.count > 0).then(|| self.first as usize..(self.first + self.count) as usize)
    }

    /// The right child of an inner node (the left one is the next node), `None` for a
    /// leaf.
    #[inline]
    pub fn right_child(&self) -> Option<usize> {
        (self.count == 0).then_some(self.first as usize)
    }
}

/// A flat BVH over a mesh's triangles (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct MeshBvh {
    nodes: Vec<BvhNode>,
    order: Vec<u32>,
}

/// One pending node of the build: its triangles `order[start..end]`, its depth, and
/// the parent whose right-child index it must fill in.
struct Task {
    start: usize,
    end: usize,
    depth: usize,
    parent: Option<usize>,
}

/// A box in SIMD-friendly form for the build (the same values as an [`Aabb`]).
#[derive(Clone, Copy)]
struct Bounds {
    min: Vec3A,
    max: Vec3A,
}

/// Per bin: the box of its triangles (empty: `min = +inf`, `max = −inf`) and their
/// count.
#[derive(Clone, Copy)]
struct Bin {
    min: Vec3A,
    max: Vec3A,
    count: usize,
}

impl Bin {
    const EMPTY: Bin = Bin {
        min: Vec3A::INFINITY,
        max: Vec3A::NEG_INFINITY,
        count: 0,
    };

    fn add_box(&mut self, b: &Bounds) {
        self.min = self.min.min(b.min);
        self.max = self.max.max(b.max);
    }

    fn add_bin(&mut self, other: &Bin) {
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.count += other.count;
    }

    fn aabb(&self) -> Aabb {
        Aabb::new(self.min.into(), self.max.into())
    }

    /// Surface area, 0 when empty.
    fn area(&self) -> f32 {
        if self.count == 0 {
            0.0
        } else {
            self.aabb().surface_area()
        }
    }
}

/// The bin of a centre `c` on each axis: `⌊(c − lo) · scale⌋`, at most `BINS − 1`.
/// Binning and partitioning both use this, so they agree bit for bit.
#[inline]
fn bin_index(c: Vec3A, lo: Vec3A, scale: Vec3A) -> UVec3 {
    ((c - lo) * scale)
        .as_uvec3()
        .min(UVec3::splat(BINS as u32 - 1))
}

impl MeshBvh {
    /// The tree over `boxes` (triangle `i` has box `boxes[i]`; at least one box, all
    /// finite with coordinates within `±TriMesh::MAX_COORDINATE`).
    pub(crate) fn build(boxes: &[Aabb]) -> MeshBvh {
        let boxes: Vec<Bounds> = boxes
            .iter()
            .map(|b| Bounds {
                min: b.min.into(),
                max: b.max.into(),
            })
            .collect();
        let centres: Vec<Vec3A> = boxes.iter().map(|b| (b.min + b.max) * 0.5).collect();
        let boxes = &boxes[..];
        let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
        let mut nodes: Vec<BvhNode> = Vec::with_capacity(2 * boxes.len());
        let mut tasks = vec![Task {
            start: 0,
            end: boxes.len(),
            depth: 0,
            parent: None,
        }];
        while let Some(task) = tasks.pop() {
            let index = nodes.len();
            if let Some(parent) = task.parent {
                nodes[parent].first = index as u32;
            }
            let items = &mut order[task.start..task.end];
            let (aabb, centre_min, centre_max) = bounds_of(items, boxes, &centres);
            let split = split_point(
                items, boxes, &centres, aabb, centre_min, centre_max, task.depth,
            );
            match split {
                None => nodes.push(BvhNode {
                    aabb,
                    first: task.start as u32,
                    count: items.len() as u32,
                }),
                Some(mid) => {
                    nodes.push(BvhNode {
                        aabb,
                        first: 0, // filled in when the right child is made
                        count: 0,
                    });
                    let mid = task.start + mid;
                    // Right first: the stack pops the left child next, so it gets
                    // index + 1 and its whole subtree precedes the right child.
                    tasks.push(Task {
                        start: mid,
                        end: task.end,
                        depth: task.depth + 1,
                        parent: Some(index),
                    });
                    tasks.push(Task {
                        start: task.start,
                        end: mid,
                        depth: task.depth + 1,
                        parent: None,
                    });
                }
            }
        }
        MeshBvh { nodes, order }
    }

    /// The nodes, root first, depth-first.
    #[inline]
    pub fn nodes(&self) -> &[BvhNode] {
        &self.nodes
    }

    /// Triangle indices in leaf order; each leaf names a run of it.
    #[inline]
    pub fn triangle_order(&self) -> &[u32] {
        &self.order
    }

    /// The deepest leaf's depth (the root has depth 0).
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = [(0usize, 0usize); MAX_DEPTH + 2];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (node, depth) = stack[len];
            deepest = deepest.max(depth);
            if let Some(right) = self.nodes[node].right_child() {
                stack[len] = (right, depth + 1);
                stack[len + 1] = (node + 1, depth + 1);
                len += 2;
            }
        }
        deepest
    }
}

/// The union of the boxes of `items` (not empty) and the box of their centres.
fn bounds_of(items: &[u32], boxes: &[Bounds], centres: &[Vec3A]) -> (Aabb, Vec3A, Vec3A) {
    let mut bin = Bin::EMPTY;
    let (mut lo, mut hi) = (Vec3A::INFINITY, Vec3A::NEG_INFINITY);
    for &i in items {
        bin.add_box(&boxes[i as usize]);
        lo = lo.min(centres[i as usize]);
        hi = hi.max(centres[i as usize]);
    }
    (bin.aabb(), lo, hi)
}

/// Where to split `items` (reordered in place so the left child is `items[..mid]`), or
/// `None` to make a leaf. `lo`, `hi`: the box of the items' centres.
fn split_point(
    items: &mut [u32],
    boxes: &[Bounds],
    centres: &[Vec3A],
    aabb: Aabb,
    lo: Vec3A,
    hi: Vec3A,
    depth: usize,
) -> Option<usize> {
    let n = items.len();
    if n <= 1 {
        return None;
    }
    let extent = hi - lo;
    if extent.max_element() <= 0.0 {
        // Every centre is the same point: no plane separates them.
        return (n > MAX_LEAF).then_some(n / 2);
    }
    if depth >= SAH_DEPTH {
        return Some(median_split(items, centres, extent.max_position()));
    }

    // One pass over the items fills the bins of all three axes. An axis without extent
    // puts everything in bin 0 and offers no plane.
    let scale = Vec3A::select(
        extent.cmpgt(Vec3A::ZERO),
        Vec3A::splat(BINS as f32) / extent,
        Vec3A::ZERO,
    );
    let mut bins = [[Bin::EMPTY; BINS]; 3];
    for &i in items.iter() {
        let b = &boxes[i as usize];
        let index = bin_index(centres[i as usize], lo, scale);
        for (axis, axis_bins) in bins.iter_mut().enumerate() {
            let bin = &mut axis_bins[index[axis] as usize];
            bin.add_box(b);
            bin.count += 1;
        }
    }

    let area = aabb.surface_area().max(f32::MIN_POSITIVE);
    let mut best: Option<(f32, usize, u32)> = None; // (cost, axis, first bin on the right)
    for (axis, axis_bins) in bins.iter().enumerate() {
        // Sweep from the right: bins k.. for each k; then from the left, pricing the
        // plane between bins k − 1 and k.
        let mut right = [Bin::EMPTY; BINS];
        let mut acc = Bin::EMPTY;
        for k in (1..BINS).rev() {
            acc.add_bin(&axis_bins[k]);
            right[k] = acc;
        }
        let mut left = Bin::EMPTY;
        for k in 1..BINS {
            left.add_bin(&axis_bins[k - 1]);
            if left.count == 0 || right[k].count == 0 {
                continue;
            }
            let cost = 1.0
                + (left.count as f32 * left.area() + right[k].count as f32 * right[k].area())
                    / area;
            if best.is_none_or(|(c, _, _)| cost < c) {
                best = Some((cost, axis, k as u32));
            }
        }
    }

    let (cost, axis, plane) = best?;
    if n <= MAX_LEAF && cost >= n as f32 {
        return None;
    }
    let left = partition(items, |i| {
        bin_index(centres[i as usize], lo, scale)[axis] < plane
    });
    debug_assert!(left > 0 && left < n, "an SAH plane with an empty side");
    Some(left)
}

/// Reorders `items` so the median centre along `axis` (ties by index) splits them in
/// half; returns the half.
fn median_split(items: &mut [u32], centres: &[Vec3A], axis: usize) -> usize {
    let mid = items.len() / 2;
    items.select_nth_unstable_by(mid, |&a, &b| {
        let (ca, cb) = (centres[a as usize][axis], centres[b as usize][axis]);
        ca.total_cmp(&cb).then(a.cmp(&b))
    });
    mid
}

/// Moves the items for which `goes_left` holds to the front (two-pointer swaps, the same
/// order on every run); returns how many there are.
fn partition(items: &mut [u32], goes_left: impl Fn(u32) -> bool) -> usize {
    let mut left = 0;
    let mut right = items.len();
    while left < right {
        if goes_left(items[left]) {
            left += 1;
        } else {
            right -= 1;
            items.swap(left, right);
        }
    }
    left
}
