//! Merging the hull's triangles into convex polygon faces.
//!
//! 1. Every edge between two triangles gets two heights: each triangle's far vertex
//!    above the other triangle's plane. Edges whose smaller height is within `tol` are
//!    visited by increasing larger height (ties by triangle index). The smaller one
//!    filters because a sliver triangle (three nearly collinear points on a hull edge)
//!    has a poorly defined plane of its own. Edges at a *frozen* vertex are skipped.
//! 2. Union-find over triangles: the two groups on either side of a visited edge are
//!    merged if their normals point into the same half-space and all their vertices stay
//!    inside a slab of thickness `tol` around the plane of the merged group's
//!    area-weighted normal (the sum of its triangles' area vectors, which is Newell's
//!    normal of the merged polygon). The half-space rule keeps the two sides of a hull
//!    thinner than `tol` in places (a thin slab's rim) apart.
//! 3. A group's boundary is its triangles' directed edges whose twin lies in another
//!    group; it must be one simple cycle, which is the face's CCW loop.
//! 4. A vertex on only two loops lies on the seam between two faces. If it is within
//!    `tol` of the chord of its loop neighbours (a point on a hull edge, or a corner the
//!    merge flattened) it is removed from both loops.
//! 5. Every loop corner must turn left around the face normal, the corner vertex more
//!    than `tol / 4` off the chord of its neighbours: faces are strictly convex, with no
//!    nearly straight corners that would give two almost parallel edges.
//!
//! When a rule fails the merge returns a [`Repair`] instead of loops:
//! * **drop** the point of a nearly straight or slightly reflex corner (turn between
//!   `-2 · tol` and `tol / 4`), or of a sliver face that 4 would shrink below a
//!   triangle: it lies within about `2 · tol` of the hull of the other points, so the
//!   caller builds the hull again without it;
//! * **freeze** a vertex on a bent seam (4), at a strongly reflex corner (5), or where a
//!   loop pinches (3): these come from merging across that vertex two groups that are
//!   each flat within `tol` but not flat together (the two faces of a hull that is
//!   locally thinner than `tol`), so the merge is redone without merging across it.

use super::hash::IndexMap;
use glam::DVec3;

/// Reflex corners deeper than this times `tol` are frozen rather than dropped.
const DROP_DEPTH: f64 = 2.0;

/// What to change before merging again (see the [module docs](self)). Both empty means
/// no repair is known.
#[derive(Debug, Default)]
pub(super) struct Repair {
    /// Points to leave out of the hull.
    pub drop: Vec<u32>,
    /// Vertices across which no triangles may be merged.
    pub freeze: Vec<u32>,
}

impl Repair {
    fn give_up() -> Repair {
        Repair::default()
    }
}

/// The CCW face loops (indices into `p`) of the triangle mesh `tris` with triangles
/// merged while coplanar within `tol`, never across a vertex with `frozen[v]`; or the
/// [`Repair`] that should make the next attempt succeed.
pub(super) fn merge_coplanar(
    p: &[DVec3],
    tris: &[[u32; 3]],
    tol: f64,
    frozen: &[bool],
) -> Result<Vec<Vec<u32>>, Repair> {
    let pt = |i: u32| p[i as usize];
    let area: Vec<DVec3> = tris
        .iter()
        .map(|t| (pt(t[1]) - pt(t[0])).cross(pt(t[2]) - pt(t[0])))
        .collect();
    let unit: Vec<DVec3> = area.iter().map(|a| a.normalize_or_zero()).collect();
    let mut edge_tri: IndexMap<(u32, u32), u32> =
        IndexMap::with_capacity_and_hasher(tris.len() * 3, Default::default());
    for (t, tri) in tris.iter().enumerate() {
        for k in 0..3 {
            edge_tri.insert((tri[k], tri[(k + 1) % 3]), t as u32);
        }
    }
    let twin = |a: u32, b: u32| edge_tri.get(&(b, a)).copied().ok_or_else(Repair::give_up);

    // 1. Flat interior edges, flattest first.
    let mut candidates: Vec<(f64, u32, u32)> = Vec::new();
    for (t, tri) in tris.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            let s = twin(a, b)?;
            if (t as u32) > s || frozen[a as usize] || frozen[b as usize] {
                continue;
            }
            let other = tris[s as usize];
            let far_t = tri[(k + 2) % 3];
            let far_s = *other
                .iter()
                .find(|v| !tri.contains(v))
                .ok_or_else(Repair::give_up)?;
            let h_s = unit[t].dot(pt(far_s) - pt(tri[0])).abs();
            let h_t = unit[s as usize].dot(pt(far_t) - pt(other[0])).abs();
            if h_s.min(h_t) <= tol {
                candidates.push((h_s.max(h_t), t as u32, s));
            }
        }
    }
    candidates.sort_by(|x, y| x.0.total_cmp(&y.0).then((x.1, x.2).cmp(&(y.1, y.2))));

    // 2. Union-find with each root's area vector and sorted vertex list.
    let mut parent: Vec<u32> = (0..tris.len() as u32).collect();
    let mut group_area = area.clone();
    let mut group_verts: Vec<Vec<u32>> = tris
        .iter()
        .map(|t| {
            let mut v = t.to_vec();
            v.sort_unstable();
            v
        })
        .collect();
    for &(_, t, s) in &candidates {
        let (r1, r2) = (find(&mut parent, t), find(&mut parent, s));
        if r1 == r2 {
            continue;
        }
        let (keep, gone) = (r1.min(r2) as usize, r1.max(r2) as usize);
        if group_area[keep].dot(group_area[gone]) <= 0.0 {
            continue;
        }
        let sum = group_area[keep] + group_area[gone];
        let Some(n) = sum.try_normalize() else {
            continue;
        };
        let mut verts = group_verts[keep].clone();
        verts.extend_from_slice(&group_verts[gone]);
        verts.sort_unstable();
        verts.dedup();
        let (lo, hi) = verts
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
                let h = n.dot(pt(v));
                (lo.min(h), hi.max(h))
            });
        if hi - lo <= tol {
            parent[gone] = keep as u32;
            group_area[keep] = sum;
            group_verts[keep] = verts;
            group_verts[gone] = Vec::new();
        }
    }

    // 3. Boundary cycles, one per group, groups in order of their root triangle.
    let mut boundary: Vec<Vec<(u32, u32)>> = vec![Vec::new(); tris.len()];
    for (t, tri) in tris.iter().enumerate() {
        let g = find(&mut parent, t as u32);
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            if find(&mut parent, twin(a, b)?) != g {
                boundary[g as usize].push((a, b));
            }
        }
    }
    let mut repair = Repair::default();
    let mut loops: Vec<Vec<u32>> = Vec::new();
    let mut normals: Vec<DVec3> = Vec::new();
    for (g, edges) in boundary.iter().enumerate() {
        if parent[g] as usize != g {
            continue;
        }
        match boundary_loop(edges) {
            Ok(l) => loops.push(l),
            Err(Some(pinch)) => {
                repair.freeze.push(pinch);
                continue;
            }
            Err(None) => return Err(Repair::give_up()),
        }
        normals.push(group_area[g].try_normalize().ok_or_else(Repair::give_up)?);
    }
    if !repair.freeze.is_empty() {
        return Err(repair);
    }

    // 4. Vertices on only two loops: dropped from the loops on a straight seam.
    let mut face_count = vec![0u32; p.len()];
    for l in &loops {
        for &v in l {
            face_count[v as usize] += 1;
        }
    }
    let mut on_seam = vec![false; p.len()];
    for l in &loops {
        for k in 0..l.len() {
            let (u, v, w) = (l[k], l[(k + 1) % l.len()], l[(k + 2) % l.len()]);
            if face_count[v as usize] < 3 {
                if chord_distance(pt(u), pt(v), pt(w)) <= tol {
                    on_seam[v as usize] = true;
                } else {
                    repair.freeze.push(v);
                }
            }
        }
    }
    for l in &mut loops {
        let kept: Vec<u32> = l
            .iter()
            .copied()
            .filter(|&v| !on_seam[v as usize])
            .collect();
        if kept.len() < 3 {
            repair
                .drop
                .extend(l.iter().copied().filter(|&v| on_seam[v as usize]));
        }
        *l = kept;
    }

    // 5. Strictly convex corners.
    for (l, n) in loops.iter().zip(&normals) {
        if l.len() < 3 {
            continue;
        }
        for k in 0..l.len() {
            let v = l[(k + 1) % l.len()];
            let (a, b, c) = (pt(l[k]), pt(v), pt(l[(k + 2) % l.len()]));
            let turn = (b - a).cross(c - b).dot(*n) / (c - a).length();
            if turn < -DROP_DEPTH * tol {
                repair.freeze.push(v);
            } else if turn <= 0.25 * tol {
                repair.drop.push(v);
            }
        }
    }
    if repair.drop.is_empty() && repair.freeze.is_empty() {
        return Ok(loops);
    }
    for list in [&mut repair.drop, &mut repair.freeze] {
        list.sort_unstable();
        list.dedup();
    }
    Err(repair)
}

/// Distance of `v` from the line through `u` and `w`.
fn chord_distance(u: DVec3, v: DVec3, w: DVec3) -> f64 {
    let d = w - u;
    let len = d.length();
    if len == 0.0 {
        return (v - u).length();
    }
    (v - u).cross(d).length() / len
}

/// The single cycle formed by `edges` (directed), starting at its smallest vertex.
/// `Err(Some(v))` if vertex `v` starts two edges (a pinch), `Err(None)` if the edges are
/// not one cycle for another reason.
fn boundary_loop(edges: &[(u32, u32)]) -> Result<Vec<u32>, Option<u32>> {
    let mut next: IndexMap<u32, u32> =
        IndexMap::with_capacity_and_hasher(edges.len(), Default::default());
    for &(a, b) in edges {
        if next.insert(a, b).is_some() {
            return Err(Some(a));
        }
    }
    let start = edges.iter().map(|e| e.0).min().ok_or(None)?;
    let mut cycle = vec![start];
    let mut v = next[&start];
    while v != start {
        if cycle.len() >= edges.len() {
            return Err(None);
        }
        cycle.push(v);
        v = *next.get(&v).ok_or(None)?;
    }
    if cycle.len() == edges.len() {
        Ok(cycle)
    } else {
        Err(None)
    }
}

/// Union-find root with path halving.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}
