//! BVH culling over static proxies, built with the `bvh` crate (0.13).
//!
//! The tree is built once (in parallel with `Bvh::build_par`, a binned-SAH top-down
//! build) from boxes converted to the crate's nalgebra types **once, at build time**.
//! bvh 0.13 has no refit and no self-pair query, and its `update_shapes` leaves a
//! tree 2–3× deeper and slower, so when statics change the tree is rebuilt.
//!
//! Queries walk the crate's public node array (`Bvh::nodes`) with an explicit,
//! growable stack. We do not call `traverse_iterator`: it keeps a fixed 32-entry stack
//! and indexes out of bounds on trees deeper than 32 (seen with 100k boxes; the test
//! `deep_tree_queries_do_not_panic` builds a tree deeper than 32 and queries it).
//! Walking the nodes ourselves also keeps one overlap rule everywhere: inner nodes
//! are tested with the same closed-interval / slab arithmetic as the leaves, which is
//! conservative (a union box contains its children) so no hit is lost, and leaves are
//! tested exactly as [`Aabb::overlaps`] and [`Aabb::ray_entry`] do, so the answers
//! equal a brute-force scan bit for bit.
//!
//! **Huge boxes.** The crate's builder takes box centres and bins them by
//! `(centre − min) / size`; a box near `±f32::MAX` has an infinite centre, the bin
//! index becomes NaN and the build panics (issue 9). So the builder is given the boxes
//! clamped to `±f32::MAX / 4` (finite centres and sizes; clamping is monotonic, so it
//! only shapes the tree), and then every inner node's boxes are recomputed from the
//! real boxes, bottom-up ([`refit`]): the walk tests exactly the unions of the real
//! boxes, whatever the builder saw.

use crate::{BroadPhaseError, ProxyId};
use bvh::aabb::{Aabb as BvhAabb, Bounded};
use bvh::bounding_hierarchy::{BHShape, BoundingHierarchy};
use bvh::bvh::{Bvh, BvhNode};
use glam::Vec3;
use nalgebra::Point3;
use sepax_geometry::Aabb;

/// Where a ray enters a proxy's box: the proxy and the ray parameter (0 when the origin
/// is inside). A box entry, not a shape hit: the shape inside the box is the narrow
/// phase's business (`sepax_narrowphase::ray`, whose `RayHit` is the one hit type a
/// user of the pipeline sees).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayEntry {
    /// The proxy hit.
    pub id: ProxyId,
    /// Entry parameter `t` in `origin + t * dir`.
    pub t: f32,
}

/// One shape handed to the bvh crate.
struct Item {
    aabb: BvhAabb<f32, 3>,
    node: usize,
}

impl Bounded<f32, 3> for Item {
    fn aabb(&self) -> BvhAabb<f32, 3> {
        self.aabb
    }
}

impl BHShape<f32, 3> for Item {
    fn set_bh_node_index(&mut self, index: usize) {
        self.node = index;
    }
    fn bh_node_index(&self) -> usize {
        self.node
    }
}

/// A bounding volume hierarchy over a fixed set of boxes, for region queries and
/// ray casts.
///
/// ```
/// use sepax_broadphase::{ProxyId, StaticBvh};
/// use sepax_geometry::Aabb;
/// use glam::Vec3;
///
/// let boxes: Vec<(ProxyId, Aabb)> = (0..100)
///     .map(|i| {
///         let c = Vec3::new(i as f32 * 2.0, 0.0, 0.0);
///         (ProxyId(i), Aabb::new(c - 0.5, c + 0.5))
///     })
///     .collect();
/// let bvh = StaticBvh::build(&boxes).unwrap();
/// let mut hits = Vec::new();
/// bvh.query_aabb(&Aabb::new(Vec3::new(3.5, 0.0, 0.0), Vec3::new(4.5, 0.0, 0.0)), &mut hits)
///     .unwrap();
/// assert_eq!(hits, vec![ProxyId(2)]); // touching its face at x = 4.5 counts
/// let first = bvh.cast_ray_first(Vec3::new(-10.0, 0.0, 0.0), Vec3::X, 100.0).unwrap();
/// assert_eq!(first.map(|h| h.id), Some(ProxyId(0)));
/// ```
pub struct StaticBvh {
    bvh: Bvh<f32, 3>,
    ids: Vec<ProxyId>,
    boxes: Vec<Aabb>,
}

impl std::fmt::Debug for StaticBvh {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaticBvh")
            .field("len", &self.ids.len())
            .field("depth", &self.depth())
            .finish()
    }
}

/// What the builder sees of a box: clamped to `±f32::MAX / 4`, so that its centre and
/// the binning arithmetic stay finite (see the module docs).
fn to_build_box(aabb: &Aabb) -> BvhAabb<f32, 3> {
    let limit = Vec3::splat(f32::MAX / 4.0);
    to_bvh(&Aabb::new(
        aabb.min.clamp(-limit, limit),
        aabb.max.clamp(-limit, limit),
    ))
}

/// Sets every inner node's child boxes to the unions of the real boxes below them.
/// Children come after their parent in `nodes` (the builder lays the tree out
/// depth-first), so one pass from the back sees every child before its parent.
fn refit(nodes: &mut [BvhNode<f32, 3>], boxes: &[Aabb]) {
    let mut union = vec![Aabb::new(Vec3::ZERO, Vec3::ZERO); nodes.len()];
    for i in (0..nodes.len()).rev() {
        union[i] = match &mut nodes[i] {
            BvhNode::Leaf { shape_index, .. } => boxes[*shape_index],
            BvhNode::Node {
                child_l_index,
                child_l_aabb,
                child_r_index,
                child_r_aabb,
                ..
            } => {
                let (l, r) = (union[*child_l_index], union[*child_r_index]);
                *child_l_aabb = to_bvh(&l);
                *child_r_aabb = to_bvh(&r);
                l.union(&r)
            }
        };
    }
}

fn to_bvh(aabb: &Aabb) -> BvhAabb<f32, 3> {
    BvhAabb::with_bounds(
        Point3::new(aabb.min.x, aabb.min.y, aabb.min.z),
        Point3::new(aabb.max.x, aabb.max.y, aabb.max.z),
    )
}

fn from_bvh(aabb: &BvhAabb<f32, 3>) -> Aabb {
    Aabb::new(
        Vec3::new(aabb.min.x, aabb.min.y, aabb.min.z),
        Vec3::new(aabb.max.x, aabb.max.y, aabb.max.z),
    )
}

impl StaticBvh {
    /// Builds the tree over `(id, box)` items (in parallel on the rayon pool).
    ///
    /// Errors: `NonFiniteAabb` / `InvertedAabb` if any box is invalid (nothing is
    /// built). An empty slice gives an empty tree that answers every query with nothing.
    pub fn build(items: &[(ProxyId, Aabb)]) -> Result<StaticBvh, BroadPhaseError> {
        for (_, aabb) in items {
            aabb.validate()?;
        }
        let mut shapes: Vec<Item> = items
            .iter()
            .map(|(_, aabb)| Item {
                aabb: to_build_box(aabb),
                node: 0,
            })
            .collect();
        let mut bvh = Bvh::build_par(&mut shapes);
        let boxes: Vec<Aabb> = items.iter().map(|(_, aabb)| *aabb).collect();
        refit(&mut bvh.nodes, &boxes);
        Ok(StaticBvh {
            bvh,
            ids: items.iter().map(|(id, _)| *id).collect(),
            boxes,
        })
    }

    /// Number of boxes in the tree.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// True when the tree holds no box.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Longest root-to-leaf path, counted in edges (0 for one box or none).
    pub fn depth(&self) -> usize {
        let nodes = &self.bvh.nodes;
        if nodes.is_empty() {
            return 0;
        }
        let mut deepest = 0;
        let mut stack = vec![(0usize, 0usize)];
        while let Some((node, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            if let BvhNode::Node {
                child_l_index,
                child_r_index,
                ..
            } = nodes[node]
            {
                stack.push((child_l_index, depth + 1));
                stack.push((child_r_index, depth + 1));
            }
        }
        deepest
    }

    /// Appends to `out` (after clearing it) the ids of every box overlapping `region`
    /// (closed intervals), sorted by id.
    ///
    /// Errors: `NonFiniteAabb` / `InvertedAabb` for a bad region (`out` left empty).
    pub fn query_aabb(&self, region: &Aabb, out: &mut Vec<ProxyId>) -> Result<(), BroadPhaseError> {
        out.clear();
        region.validate()?;
        self.query_unchecked(region, out, &mut Vec::new(), usize::MAX);
        out.sort_unstable();
        Ok(())
    }

    /// Region query for a box already validated; hits appended unsorted. `stack` is
    /// scratch space, reused across calls to avoid an allocation per query. The walk
    /// stops once `out` holds more than `cap` ids (the pair budget's bound on one
    /// query; `usize::MAX` for all hits).
    ///
    /// Walks the nodes depth-first with an explicit stack: a child is entered when
    /// its box overlaps the region (closed test); a leaf is reported when its own box
    /// overlaps. Invariant: a union box overlaps the region whenever one of its
    /// boxes does, so no hit is pruned.
    pub(crate) fn query_unchecked(
        &self,
        region: &Aabb,
        out: &mut Vec<ProxyId>,
        stack: &mut Vec<usize>,
        cap: usize,
    ) {
        let nodes = &self.bvh.nodes;
        if nodes.is_empty() {
            return;
        }
        stack.clear();
        stack.push(0);
        while let Some(node) = stack.pop() {
            match &nodes[node] {
                BvhNode::Node {
                    child_l_index,
                    child_l_aabb,
                    child_r_index,
                    child_r_aabb,
                    ..
                } => {
                    if from_bvh(child_r_aabb).overlaps(region) {
                        stack.push(*child_r_index);
                    }
                    if from_bvh(child_l_aabb).overlaps(region) {
                        stack.push(*child_l_index);
                    }
                }
                BvhNode::Leaf { shape_index, .. } => {
                    if self.boxes[*shape_index].overlaps(region) {
                        out.push(self.ids[*shape_index]);
                        if out.len() > cap {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Every box hit by the ray `origin + t * dir`, `t` in `[0, max_t]`, sorted by
    /// entry `t`, then id. `dir` need not be unit length; `t` is in its units.
    ///
    /// Errors: `InvalidRay` for a non-finite origin, a direction whose squared length
    /// is not a normal `f32` (zero, denormal, above about `1.8e19` long, non-finite),
    /// or a NaN or negative `max_t` (`max_t = inf` is allowed).
    pub fn cast_ray(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_t: f32,
    ) -> Result<Vec<RayEntry>, BroadPhaseError> {
        check_ray(origin, dir, max_t)?;
        let mut hits = Vec::new();
        self.walk_ray(origin, dir, max_t, |id, t, _| {
            hits.push(RayEntry { id, t });
            max_t
        });
        hits.sort_unstable_by(|a, b| a.t.total_cmp(&b.t).then(a.id.cmp(&b.id)));
        Ok(hits)
    }

    /// The first box hit by the ray (smallest entry `t`, ties to the smallest id),
    /// or `None`. Children are visited nearest first and a subtree whose entry is
    /// beyond the best hit so far is skipped. Errors as [`cast_ray`](Self::cast_ray).
    pub fn cast_ray_first(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_t: f32,
    ) -> Result<Option<RayEntry>, BroadPhaseError> {
        check_ray(origin, dir, max_t)?;
        let mut best: Option<RayEntry> = None;
        self.walk_ray(origin, dir, max_t, |id, t, bound| {
            let better = match best {
                None => true,
                Some(b) => t < b.t || (t == b.t && id < b.id),
            };
            if better {
                best = Some(RayEntry { id, t });
            }
            best.map_or(bound, |b| b.t)
        });
        Ok(best)
    }

    /// Depth-first ray walk. `on_hit(id, t, bound)` returns the new pruning bound:
    /// subtrees whose entry parameter exceeds it are skipped (ties are kept).
    fn walk_ray(
        &self,
        origin: Vec3,
        dir: Vec3,
        max_t: f32,
        mut on_hit: impl FnMut(ProxyId, f32, f32) -> f32,
    ) {
        let nodes = &self.bvh.nodes;
        if nodes.is_empty() {
            return;
        }
        let mut bound = max_t;
        let mut stack: Vec<(usize, f32)> = Vec::with_capacity(64);
        stack.push((0, 0.0));
        while let Some((node, entry)) = stack.pop() {
            if entry > bound {
                continue;
            }
            match &nodes[node] {
                BvhNode::Node {
                    child_l_index,
                    child_l_aabb,
                    child_r_index,
                    child_r_aabb,
                    ..
                } => {
                    let tl = from_bvh(child_l_aabb).ray_entry(origin, dir, bound);
                    let tr = from_bvh(child_r_aabb).ray_entry(origin, dir, bound);
                    // Push the farther child first so the nearer one is popped first.
                    match (tl, tr) {
                        (Some(l), Some(r)) if l <= r => {
                            stack.push((*child_r_index, r));
                            stack.push((*child_l_index, l));
                        }
                        (Some(l), Some(r)) => {
                            stack.push((*child_l_index, l));
                            stack.push((*child_r_index, r));
                        }
                        (Some(l), None) => stack.push((*child_l_index, l)),
                        (None, Some(r)) => stack.push((*child_r_index, r)),
                        (None, None) => {}
                    }
                }
                BvhNode::Leaf { shape_index, .. } => {
                    if let Some(t) = self.boxes[*shape_index].ray_entry(origin, dir, max_t)
                        && t <= bound
                    {
                        bound = on_hit(self.ids[*shape_index], t, bound);
                    }
                }
            }
        }
    }
}

/// The ray rule of [`sepax_geometry::ray`]: a ray that is not
/// [`is_valid_ray`](sepax_geometry::is_valid_ray) is an error. `|dir|²` must be a
/// normal f32: a denormal direction makes the slab parameters overflow to ±inf (and
/// 0 · inf = NaN), a huge one overflows `|dir|²` (issue 9).
fn check_ray(origin: Vec3, dir: Vec3, max_t: f32) -> Result<(), BroadPhaseError> {
    if sepax_geometry::is_valid_ray(origin, dir, max_t) {
        Ok(())
    } else {
        Err(BroadPhaseError::InvalidRay)
    }
}
