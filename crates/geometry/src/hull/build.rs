//! Convex hull of a point cloud: [`ConvexHull::try_from_points`].
//!
//! # Pipeline
//! 1. **Checks** (f32 input): fewer than 4 points, more than the point limit
//!    ([`ConvexHull::MAX_POINTS`] unless the caller gives another), then any NaN/inf.
//! 2. **Tolerance**: the cloud is centred on its bounding-box centre and moved to `f64`.
//!    `eps = 1e-5 · diag + 4 · f32::EPSILON · max|coord|`, with `diag` the bounding-box
//!    diagonal. The second term is the f32 rounding of the input itself: data that is
//!    "coplanar" after a rotation in f32 is only coplanar to that level.
//! 3. **Weld**: points closer than `eps` to an earlier kept point are dropped (a grid of
//!    cell size `eps`), so no two hull vertices are closer than `eps`.
//! 4. **Degeneracy**: the extreme pair along the widest axis, the point farthest from
//!    their line, the point farthest from that plane. Spread `≤ eps` at each step gives
//!    [`HullError::AllDuplicate`], [`HullError::Collinear`], [`HullError::Coplanar`].
//! 5. **Triangulate** ([`quickhull`]): Quickhull in `f64` with a tiny outside threshold
//!    (`1e-11 · diag`), so the triangle mesh is the exact hull up to round-off. Points on
//!    faces and edges (in-plane) are never outside and drop out here.
//! 6. **Merge** ([`merge`]): neighbouring triangles are merged into polygons while the
//!    merged vertex set stays inside a slab of thickness `tol` (the merge tolerance,
//!    first `1e-5 · min(diag, 4 · thickness)` plus the input's rounding: `eps` on a hull
//!    about as thick as it is long, less on needles, planks and plates, whose faces must
//!    be flat to their thickness for their normals to match their vertices; the
//!    thickness is the smaller height of step 4's simplex); each polygon's boundary
//!    becomes a CCW loop; vertices between only
//!    two polygons on a straight seam (points on an edge) are removed from both loops;
//!    every loop corner must stand more than `tol / 4` off the chord of its neighbours.
//!    When a rule fails the merge asks for a repair: a nearly straight or slightly
//!    reflex corner lies within about `2 · tol` of the hull of the other points, so its
//!    point is left out and steps 4–6 run again; a bent seam or pinch (two faces of a
//!    locally very thin hull merged across a vertex) *freezes* that vertex, and the
//!    merge runs again without merging across it.
//! 7. **Topology**: [`ConvexHull::try_from_faces`] checks closure, convexity and Euler,
//!    and builds planes, edges and adjacency. Every edge must run along the cross
//!    product of its faces' normals (what the Gauss-map edge tests assume), every
//!    *input* point must lie within `3 · eps` behind every face plane, and the planes
//!    of every edge's two faces should meet within `100 · eps` beyond its ends
//!    (`edge_reach`; when no rung below gives that, the hull of the rung whose planes
//!    reach least far out is taken).
//!
//! If this fails (seen on clouds built to have many features just above `eps`, and on
//! about 1 in 50,000 lattices whose points were moved by about `eps`),
//! it is repeated with the merge tolerance `tol / 8`, `tol / 64` and finally the
//! Quickhull threshold; if all fail the answer is [`HullError::NumericalFailure`].
//!
//! # Why not the `quickhull` crate
//! `quickhull` 0.1.0 (Jondolf) builds good polygonal hulls for well-posed clouds, but
//! measured against our degenerate-input cases it panics (an assertion in
//! `Plane3d::new`) on 100 copies of one point and on collinear points, returns a flat
//! two-faced "hull" for 3 points and for coplanar points, reports NaN as an internal
//! error, merges faces by a normal *angle* (3°) rather than a distance, and brings a
//! second glam (0.32) plus six other dependencies. A panic cannot be turned into a
//! named error without `catch_unwind`, so we build our own; the clouds a physics engine
//! hulls are small (4 to about 1000 points) and this builder is `O(n · faces)`; the
//! point limit keeps a call below about 0.2 s unless the caller opts in.

mod hash;
mod merge;
mod quickhull;

use super::ConvexHull;
use crate::HullError;
use glam::{DVec3, Vec3};
use hash::IndexMap;

/// Relative tolerance: features thinner than this times the bounding-box diagonal are
/// merged away (see the [module docs](self)).
const REL_EPS: f64 = 1e-5;
/// A hull's size for its merge tolerance is the smaller of its bounding diagonal and
/// this many times its thickness (see `Cloud::merge_tolerance`).
const THICKNESS_SIZE: f64 = 4.0;
/// Relative threshold for "outside" in Quickhull: well above f64 round-off, far below
/// `REL_EPS`.
const REL_OUTSIDE: f64 = 1e-11;
/// Smallest bounding-box diagonal of a hull: below about `1e-19`, squared lengths
/// underflow in f32 and a hull's planes could not be used.
const MIN_EXTENT: f64 = 1e-15;
/// How far beyond an edge's ends its faces' planes may meet, in `eps` (see
/// `edge_reach`): `1e-3` of the diagonal. Beyond it the merge is retried with the next,
/// smaller tolerance (merged faces bend less). A plane stored in f32 is off its
/// vertices by about `1e-7` of their distance from the origin, so even unmerged faces
/// meeting at an angle `θ` cross that much over `θ` away: a sliver, or a lens whose rim
/// is sharper than about `1e-4` rad, may pass no rung, and then the rung whose planes
/// reach least far out gives the hull.
const GHOST: f64 = 100.0;
/// Merge attempts per merge tolerance (each repair drops or freezes at least one vertex).
const MAX_REPAIRS: usize = 32;

impl ConvexHull {
    /// The convex hull of `points`: only the points on the hull become vertices, and
    /// coplanar triangles are merged into polygon faces.
    ///
    /// The hull's vertices are a subset of `points` (bit-exact copies, ordered by their
    /// first index in `points`); a point inside the hull, on a face, on an edge, or
    /// closer than the tolerance to another point never becomes a vertex. Faces are
    /// strictly convex CCW loops (seen from outside), with the planes, edges and
    /// adjacency of [`ConvexHull::try_from_faces`].
    ///
    /// **Tolerance.** `eps = 1e-5 · d + 4 · f32::EPSILON · m`, where `d` is the diagonal
    /// of the points' bounding box and `m` their largest absolute coordinate. Points
    /// closer than `eps` to each other count as one point, and every input point ends up
    /// at most `3 · eps` in front of any face plane. Faces are flat within the merge
    /// tolerance `tol = 1e-5 · min(d, 4 · t) + 4 · f32::EPSILON · m`, where `t` is the
    /// cloud's thickness (the smaller height of the starting simplex, within a small
    /// factor of its least width): `tol = eps` on a hull about as thick as it is long,
    /// smaller on a needle, a plank or a plate, so that its faces' normals match its
    /// vertices (faces flat only to `1e-5` of a needle's length would turn their normals
    /// by a few per cent of a radian across it). Each face corner stands more than
    /// `tol / 4` off the line through its neighbours (less, down to `tol / 256` and in
    /// the last resort to the Quickhull threshold, in the rare clouds where the merge is
    /// retried with a smaller tolerance). The merge is retried so too when the planes of
    /// an edge's two faces would meet more than `1e-3 · d` beyond its ends, which merged
    /// faces that bend within the tolerance do at the rim of a lens about `eps` thin:
    /// the queries read faces by their planes, and the planes' intersection would reach
    /// past the vertices (9 past them on a lens 8e-4 thin and 40 wide). Where no tolerance
    /// gives that (the f32 planes of a sliver or of a lens sharper than about `1e-4`
    /// rad at its rim cross further out by themselves) the tolerance whose planes reach
    /// least far out is taken.
    ///
    /// **Bad input** gives an error, never a panic:
    /// * fewer than 4 points: [`HullError::TooFewPoints`] (checked first);
    /// * more than [`ConvexHull::MAX_POINTS`] points: [`HullError::TooManyPoints`]
    ///   (checked second, before reading any point; see
    ///   [`try_from_points_with_limit`](Self::try_from_points_with_limit) to go past
    ///   it);
    /// * a NaN or infinite coordinate: [`HullError::NonFinite`] with the first index;
    /// * a bounding-box diagonal beyond `f32::MAX` (coordinates near `±f32::MAX`):
    ///   [`HullError::TooLarge`];
    /// * all points within tolerance of one point: [`HullError::AllDuplicate`]; this
    ///   includes a bounding-box diagonal at the f32 rounding level of the coordinates
    ///   or below `1e-15` (where f32 squared lengths underflow);
    /// * all points within `eps` of a line: [`HullError::Collinear`];
    /// * all points within `eps` of a plane: [`HullError::Coplanar`];
    /// * no consistent hull within tolerance: [`HullError::NumericalFailure`]. Rare,
    ///   and only seen on clouds with many pairs of points about `eps` apart: about 1
    ///   in 50,000 fuzzed clouds of ~200 points on a rotated lattice of 4 to 7 points
    ///   a side, each point moved by 0.8 to 1.2 `eps` (issue 9; two such clouds are in
    ///   `tests/hull_limits.rs`). The same points in another order, or snapped to a
    ///   grid of `4 · eps`, gave a hull in every case found. Not seen on thin slabs and
    ///   needles, exact lattices, clusters, spheres and coordinates from `1e-15` to
    ///   `1e37` (`tests/hull_build.rs`).
    ///
    /// **Extreme values.** Any finite coordinates are accepted, up to `±f32::MAX`: the
    /// tolerances are computed in `f64`. A hull near `±f32::MAX` is valid, but a body
    /// whose world AABB then passes `±f32::MAX` is quarantined by the collision world.
    ///
    /// The result depends only on the input (no randomness, no hashing order).
    ///
    /// ```
    /// use sepax_geometry::{ConvexHull, HullError};
    /// use glam::Vec3;
    ///
    /// // A cube's 8 corners plus its centre and the middle of an edge and of a face.
    /// let mut points: Vec<Vec3> = (0..8)
    ///     .map(|i| Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, ((i >> 2) & 1) as f32))
    ///     .collect();
    /// points.extend([Vec3::splat(0.5), Vec3::new(0.5, 0.0, 0.0), Vec3::new(1.0, 0.5, 0.5)]);
    /// let hull = ConvexHull::try_from_points(&points).unwrap();
    /// assert_eq!(hull.vertices().len(), 8);
    /// assert_eq!(hull.face_count(), 6); // quads, not 12 triangles
    /// assert_eq!(hull.edges().len(), 12);
    ///
    /// let flat = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::ONE.with_z(0.0)];
    /// assert_eq!(ConvexHull::try_from_points(&flat), Err(HullError::Coplanar));
    /// ```
    pub fn try_from_points(points: &[Vec3]) -> Result<ConvexHull, HullError> {
        Self::try_from_points_with_limit(points, Self::MAX_POINTS)
    }

    /// The most points [`try_from_points`](Self::try_from_points) takes: 4,096.
    ///
    /// The build costs about `n · h` for `n` points and `h` hull vertices, so the worst
    /// case is every point on the hull (points on a sphere). Measured on a 2-core
    /// machine (release build): 4,000 points on a sphere 0.15 s, 8,000 0.6 s, 16,000
    /// 2 s (100,000 took 36 s in issue 9); 160,000 points in a cube (215 hull
    /// vertices) 0.4 s.
    /// A physics engine's hulls have 4 to about 1,000 points.
    pub const MAX_POINTS: usize = 4096;

    /// [`try_from_points`](Self::try_from_points) with the caller's own point limit, for
    /// callers who accept the cost of large clouds (see [`MAX_POINTS`](Self::MAX_POINTS)
    /// for what it is); `usize::MAX` means no limit. More than `max_points` points give
    /// [`HullError::TooManyPoints`] at once; everything else is as `try_from_points`.
    ///
    /// ```
    /// use sepax_geometry::{ConvexHull, HullError};
    /// use glam::Vec3;
    ///
    /// // A 17 × 17 × 17 lattice: 4,913 points, 8 of them on the hull.
    /// let lattice: Vec<Vec3> = (0..17 * 17 * 17)
    ///     .map(|i| Vec3::new((i % 17) as f32, (i / 17 % 17) as f32, (i / 289) as f32))
    ///     .collect();
    /// assert_eq!(
    ///     ConvexHull::try_from_points(&lattice),
    ///     Err(HullError::TooManyPoints { count: 4913, limit: ConvexHull::MAX_POINTS })
    /// );
    /// let hull = ConvexHull::try_from_points_with_limit(&lattice, usize::MAX).unwrap();
    /// assert_eq!(hull.vertices().len(), 8);
    /// ```
    pub fn try_from_points_with_limit(
        points: &[Vec3],
        max_points: usize,
    ) -> Result<ConvexHull, HullError> {
        if points.len() < 4 {
            return Err(HullError::TooFewPoints(points.len()));
        }
        if points.len() > max_points {
            return Err(HullError::TooManyPoints {
                count: points.len(),
                limit: max_points,
            });
        }
        if let Some(i) = points.iter().position(|p| !p.is_finite()) {
            return Err(HullError::NonFinite(i));
        }
        // In f64: a cloud whose bounding-box diagonal passes f32::MAX has no f32 size
        // (nor tolerance) for its hull.
        let (lo, hi) = points.iter().fold(
            (glam::DVec3::INFINITY, glam::DVec3::NEG_INFINITY),
            |(lo, hi), p| (lo.min(p.as_dvec3()), hi.max(p.as_dvec3())),
        );
        if (hi - lo).length() > f32::MAX as f64 {
            return Err(HullError::TooLarge);
        }
        let cloud = Cloud::new(points)?;
        let kept = cloud.weld();
        let merge_tol = cloud.merge_tolerance(cloud.simplex(&kept)?);

        // Merge tolerance ladder: the first that gives a valid hull whose edges' face
        // planes meet near them (`GHOST`) wins. At each rung, bad vertices reported by
        // the merge are left out and the hull is built again. When no rung gives that
        // (a sliver, or a lens whose f32 planes alone cross further out), the hull
        // whose planes reach least far out does.
        let ladder = [
            merge_tol,
            merge_tol / 8.0,
            merge_tol / 64.0,
            cloud.outside_tol,
        ];
        let mut least_reach: Option<(f64, ConvexHull)> = None;
        for merge_tol in ladder {
            if let Some(hull) = cloud.build(points, &kept, merge_tol) {
                let reach = edge_reach(&hull);
                if reach <= GHOST * cloud.eps {
                    return Ok(hull);
                }
                if least_reach.as_ref().is_none_or(|(r, _)| reach < *r) {
                    least_reach = Some((reach, hull));
                }
            }
        }
        if let Some((_, hull)) = least_reach {
            return Ok(hull);
        }
        Err(HullError::NumericalFailure)
    }
}

/// Compacts the face loops (indices into `points`) into a vertex list ordered by input
/// index, builds the hull, and checks that every edge runs along the cross product of
/// its faces' normals and that every input point lies within `tol` behind every face
/// plane.
fn assemble(points: &[Vec3], loops: &[Vec<u32>], tol: f64) -> Option<ConvexHull> {
    let mut used: Vec<u32> = loops.iter().flatten().copied().collect();
    used.sort_unstable();
    used.dedup();
    let mut remap = vec![u32::MAX; points.len()];
    for (k, &i) in used.iter().enumerate() {
        remap[i as usize] = k as u32;
    }
    let vertices: Vec<Vec3> = used.iter().map(|&i| points[i as usize]).collect();
    let faces: Vec<Vec<u32>> = loops
        .iter()
        .map(|l| l.iter().map(|&i| remap[i as usize]).collect())
        .collect();
    let hull = ConvexHull::try_from_faces(vertices, &faces).ok()?;
    // Each edge must run along normal(f0) × normal(f1), as the Gauss-map tests assume;
    // a short edge between nearly coplanar, not quite planar faces can break this.
    let consistent = hull.edges().iter().all(|e| {
        let [a, b] = e.vertices.map(|i| hull.vertices()[i as usize].as_dvec3());
        let [n0, n1] = e.faces.map(|f| hull.planes()[f as usize].normal.as_dvec3());
        (b - a).dot(n0.cross(n1)) > 0.0
    });
    if !consistent {
        return None;
    }
    let all_inside = hull.planes().iter().all(|plane| {
        let n = plane.normal.as_dvec3();
        let d = plane.offset as f64;
        points.iter().all(|p| n.dot(p.as_dvec3()) - d <= tol)
    });
    all_inside.then_some(hull)
}

/// How far beyond its ends the planes of an edge's two faces meet, at most over the
/// hull's edges.
///
/// The queries read a face by its plane: the hull they measure is the intersection of
/// the face half-spaces. Near an edge that is the wedge of its two faces' planes, whose
/// apex line stands beyond the edge when the edge's ends lie behind the planes (by up
/// to the merge tolerance on a bent merged face, by f32 round-off on a triangle). Where
/// the faces nearly fold flat (`n_f·n_g` near 1) the wedge stays within that distance
/// of the faces; where they are nearly opposite (a thin lens's rim, `n_f·n_g` near −1)
/// the apex line runs far out across the rim. On a lens 8e-4 thin and 40 wide, whose
/// top and bottom faces meet at 1e-4 rad, the half-spaces' hull reached 9 beyond the
/// vertices (a capsule that far away got a contact).
///
/// For an end `p` at `r_f = n_f·p − o_f ≤ 0` and `r_g` likewise (`c = n_f·n_g`), the
/// nearest point of the apex line is `p + a n_f + b n_g` with `a + c b = −r_f` and
/// `c a + b = −r_g`; along the wedge's outward bisector `(n_f + n_g) / √(2 + 2c)` it
/// stands `(a + b) √((1 + c) / 2) = −(r_f + r_g) / √(2 + 2c)` beyond `p`.
fn edge_reach(hull: &ConvexHull) -> f64 {
    let mut reach = 0.0f64;
    for e in hull.edges() {
        let [pf, pg] = e.faces.map(|f| hull.planes()[f as usize]);
        let (nf, ng) = (pf.normal.as_dvec3(), pg.normal.as_dvec3());
        // `√(2 + 2c) = |n_f + n_g|` for unit normals, taken from the sum: `1 + c` is
        // below f32's round-off of the normals at a sharp rim.
        let opening = (nf + ng).length();
        for &v in &e.vertices {
            let p = hull.vertices()[v as usize].as_dvec3();
            let behind = (pf.offset as f64 - nf.dot(p)) + (pg.offset as f64 - ng.dot(p));
            if behind > 0.0 {
                // (Exactly opposite planes, `opening = 0`, reach infinitely far.)
                reach = reach.max(behind / opening);
            }
        }
    }
    reach
}

/// The input moved to `f64` and centred on its bounding-box centre, with its tolerances.
struct Cloud {
    /// Centred points, one per input point (same indices).
    p: Vec<DVec3>,
    /// Distance below which points, lines and planes coincide.
    eps: f64,
    /// Height above a face plane for a point to count as outside in Quickhull.
    outside_tol: f64,
    /// The bounding-box diagonal.
    diag: f64,
    /// The f32 rounding of the input coordinates (part of `eps`).
    rounding: f64,
}

impl Cloud {
    /// One rung of the ladder: the hull merged at `merge_tol`, repaired up to
    /// `MAX_REPAIRS` times; `None` when the rung gives none.
    fn build(&self, points: &[Vec3], kept: &[u32], merge_tol: f64) -> Option<ConvexHull> {
        let mut active = kept.to_vec();
        let mut frozen = vec![false; points.len()];
        let mut triangles: Option<Vec<[u32; 3]>> = None;
        for _ in 0..MAX_REPAIRS {
            if triangles.is_none() {
                let Ok(simplex) = self.simplex(&active) else {
                    break;
                };
                triangles = quickhull::triangulate(&self.p, simplex, &active, self.outside_tol);
            }
            let Some(tris) = &triangles else {
                break;
            };
            match merge::merge_coplanar(&self.p, tris, merge_tol, &frozen) {
                Ok(loops) => {
                    if let Some(hull) = assemble(points, &loops, 3.0 * self.eps) {
                        return Some(hull);
                    }
                    break;
                }
                Err(repair) => {
                    let progress = !repair.drop.is_empty()
                        || repair.freeze.iter().any(|&v| !frozen[v as usize]);
                    if !progress {
                        break;
                    }
                    for v in repair.freeze {
                        frozen[v as usize] = true;
                    }
                    if !repair.drop.is_empty() {
                        active.retain(|i| repair.drop.binary_search(i).is_err());
                        triangles = None;
                    }
                }
            }
        }
        None
    }

    /// Centres the (finite, at least 4) points and derives the tolerances.
    /// `AllDuplicate` when the extent is at the f32 rounding level or below `MIN_EXTENT`.
    fn new(points: &[Vec3]) -> Result<Cloud, HullError> {
        let mut lo = DVec3::splat(f64::INFINITY);
        let mut hi = DVec3::splat(f64::NEG_INFINITY);
        for p in points {
            lo = lo.min(p.as_dvec3());
            hi = hi.max(p.as_dvec3());
        }
        let centre = 0.5 * (lo + hi);
        let diag = (hi - lo).length();
        let max_abs = lo.abs().max(hi.abs()).max_element();
        let rounding = 4.0 * f32::EPSILON as f64 * max_abs;
        if diag <= rounding || diag < MIN_EXTENT {
            return Err(HullError::AllDuplicate);
        }
        Ok(Cloud {
            p: points.iter().map(|p| p.as_dvec3() - centre).collect(),
            eps: REL_EPS * diag + rounding,
            outside_tol: REL_OUTSIDE * diag,
            diag,
            rounding,
        })
    }

    /// Indices of the points kept after welding: a point is dropped when an earlier kept
    /// point lies within `eps`. Uses a hash grid of cell size `eps` (only looked up,
    /// never iterated, so the result does not depend on hashing order): each cell holds
    /// the head of a linked list of its kept points, threaded through `next_in_cell`.
    fn weld(&self) -> Vec<u32> {
        const END: u32 = u32::MAX;
        let cell = |q: DVec3| (q / self.eps).floor().as_i64vec3().to_array();
        // Tuples, not arrays, as keys: hashed as three words, with no length.
        let mut grid: IndexMap<(i64, i64, i64), u32> = IndexMap::default();
        let mut next_in_cell = vec![END; self.p.len()];
        let mut kept = Vec::new();
        for (i, &q) in self.p.iter().enumerate() {
            let c = cell(q);
            let near = |key: (i64, i64, i64)| {
                let mut j = grid.get(&key).copied().unwrap_or(END);
                while j != END {
                    if self.p[j as usize].distance(q) <= self.eps {
                        return true;
                    }
                    j = next_in_cell[j as usize];
                }
                false
            };
            let mut welded = false;
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        welded = welded || near((c[0] + dx, c[1] + dy, c[2] + dz));
                    }
                }
            }
            if welded {
                continue;
            }
            let head = grid.entry((c[0], c[1], c[2])).or_insert(END);
            next_in_cell[i] = *head;
            *head = i as u32;
            kept.push(i as u32);
        }
        kept
    }

    /// The first merge tolerance: `1e-5 · min(diag, 4 · thickness)` plus the input's
    /// rounding, where `thickness` is the smaller height of the starting simplex (its
    /// third corner above the line of the first two, its fourth above the plane of the
    /// first three), within a small factor of the cloud's least width. On a hull about as
    /// thick as it is long this is `eps`. On a needle, a plank or a plate it is smaller:
    /// faces that bend by `1e-5` of the *length* (2.5 % of the thickness of a needle of
    /// aspect 2,500) turn their normals by that over the *width* (0.025 rad), and then
    /// the Gauss map read from the face planes no longer matches the vertices: an edge
    /// pair whose arcs cross on the vertices' hull did not cross on the merged faces,
    /// and the queries measured a depth up to `5e-6` of the size too deep.
    fn merge_tolerance(&self, simplex: [u32; 4]) -> f64 {
        let [a, b, c, d] = simplex.map(|i| self.p[i as usize]);
        let dir = (b - a).normalize();
        let line_height = (c - a).reject_from_normalized(dir).length();
        let normal = (b - a).cross(c - a).normalize();
        let plane_height = normal.dot(d - a).abs();
        let thickness = line_height.min(plane_height);
        REL_EPS * self.diag.min(THICKNESS_SIZE * thickness) + self.rounding
    }

    /// Four kept points spanning a tetrahedron of height `> eps`: the extreme pair along
    /// the widest axis, the point farthest from their line, the point farthest from
    /// their plane. Ties go to the lowest index.
    fn simplex(&self, kept: &[u32]) -> Result<[u32; 4], HullError> {
        if kept.len() < 2 {
            return Err(HullError::AllDuplicate);
        }
        let p = |i: u32| self.p[i as usize];
        let argmax = |key: &dyn Fn(DVec3) -> f64| -> (u32, f64) {
            let mut best = (kept[0], f64::NEG_INFINITY);
            for &i in kept {
                let k = key(p(i));
                if k > best.1 {
                    best = (i, k);
                }
            }
            best
        };
        let mut lo = DVec3::splat(f64::INFINITY);
        let mut hi = DVec3::splat(f64::NEG_INFINITY);
        for &i in kept {
            lo = lo.min(p(i));
            hi = hi.max(p(i));
        }
        let axis = (hi - lo).max_position();
        let a = argmax(&|q| -q[axis]).0;
        let b = argmax(&|q| q[axis]).0;
        let ab = p(b) - p(a);
        if ab.length() <= self.eps {
            return Err(HullError::AllDuplicate);
        }
        let dir = ab.normalize();
        let (c, line_dist) = argmax(&|q| (q - p(a)).reject_from_normalized(dir).length());
        if line_dist <= self.eps {
            return Err(HullError::Collinear);
        }
        let normal = ab.cross(p(c) - p(a)).normalize();
        let (d, plane_dist) = argmax(&|q| normal.dot(q - p(a)).abs());
        if plane_dist <= self.eps {
            return Err(HullError::Coplanar);
        }
        Ok([a, b, c, d])
    }
}
