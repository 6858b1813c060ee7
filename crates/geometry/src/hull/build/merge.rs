//! Merging the hull's triangles into convex polygon faces.
//!
//! 1. Every edge between two triangles gets two heights: each triangle's far vertex
//!    above the other triangle's plane. Edges whose smaller height is within `tol` are
//!    visited by increasing larger height (ties by triangle index). The smaller one
//!    filters because a sliver triangle (three nearly collinear points on a hull edge)
//!    has a meaningless plane of its own.
//! 2. Union-find over triangles: the two groups on either side of a visited edge are
//!    merged if all their vertices stay inside a slab of thickness `tol` around the plane
//!    of the merged group's area-weighted normal (the sum of its triangles' area vectors,
//!    which is Newell's normal of the merged polygon).
//! 3. A group's boundary is its triangles' directed edges whose twin lies in another
//!    group; it must be one simple cycle, which is the face's CCW loop.
//! 4. A vertex on only two loops lies on the edge between two faces (a point on a hull
//!    edge, or a corner flattened by the merge): it is removed from both loops.
//! 5. Every loop corner must turn left around the face normal, with the corner vertex
//!    more than `tol / 4` from the line through its two neighbours: faces are strictly
//!    convex, with no nearly straight corners that would give two almost parallel edges.
//!
//! Any failure returns `None`; the caller retries with a smaller `tol`.

use glam::DVec3;
use std::collections::HashMap;

/// The CCW face loops (indices into `p`) of the triangle mesh `tris` with triangles
/// merged while coplanar within `tol`, or `None` if the merge does not give simple,
/// strictly convex loops.
pub(super) fn merge_coplanar(p: &[DVec3], tris: &[[u32; 3]], tol: f64) -> Option<Vec<Vec<u32>>> {
    let pt = |i: u32| p[i as usize];
    let area: Vec<DVec3> = tris
        .iter()
        .map(|t| (pt(t[1]) - pt(t[0])).cross(pt(t[2]) - pt(t[0])))
        .collect();
    let unit: Vec<DVec3> = area.iter().map(|a| a.normalize_or_zero()).collect();
    let mut edge_tri: HashMap<(u32, u32), u32> = HashMap::with_capacity(tris.len() * 3);
    for (t, tri) in tris.iter().enumerate() {
        for k in 0..3 {
            edge_tri.insert((tri[k], tri[(k + 1) % 3]), t as u32);
        }
    }
    let twin = |a: u32, b: u32| edge_tri.get(&(b, a)).copied();

    // 1. Flat interior edges, flattest first.
    let mut candidates: Vec<(f64, u32, u32)> = Vec::new();
    for (t, tri) in tris.iter().enumerate() {
        for k in 0..3 {
            let s = twin(tri[k], tri[(k + 1) % 3])?;
            if (t as u32) < s {
                let far_t = tri[(k + 2) % 3];
                let far_s = *tris[s as usize].iter().find(|v| !tri.contains(v))?;
                let h_s = unit[t].dot(pt(far_s) - pt(tri[0])).abs();
                let h_t = unit[s as usize]
                    .dot(pt(far_t) - pt(tris[s as usize][0]))
                    .abs();
                // A sliver's own plane is meaningless: filter on the better of the two
                // heights (the thickness test below decides), order by the worse.
                if h_s.min(h_t) <= tol {
                    candidates.push((h_s.max(h_t), t as u32, s));
                }
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
            let s = twin(a, b)?;
            if find(&mut parent, s) != g {
                boundary[g as usize].push((a, b));
            }
        }
    }
    let mut loops: Vec<Vec<u32>> = Vec::new();
    let mut normals: Vec<DVec3> = Vec::new();
    for (g, edges) in boundary.iter().enumerate() {
        if parent[g] as usize != g {
            continue;
        }
        loops.push(boundary_loop(edges)?);
        normals.push(group_area[g].try_normalize()?);
    }

    // 4. Vertices on only two faces lie on an edge: drop them.
    let mut face_count = vec![0u32; p.len()];
    for l in &loops {
        for &v in l {
            face_count[v as usize] += 1;
        }
    }
    for l in &mut loops {
        l.retain(|&v| face_count[v as usize] >= 3);
        if l.len() < 3 {
            return None;
        }
    }

    // 5. Strictly convex corners.
    for (l, n) in loops.iter().zip(&normals) {
        for k in 0..l.len() {
            let (u, v, w) = (pt(l[k]), pt(l[(k + 1) % l.len()]), pt(l[(k + 2) % l.len()]));
            let turn = (v - u).cross(w - v).dot(*n) / (w - u).length();
            if turn <= 0.25 * tol {
                return None;
            }
        }
    }
    Some(loops)
}

/// The single cycle formed by `edges` (directed, each vertex starting at most one edge),
/// starting at its smallest vertex; `None` if the edges are not one simple cycle.
fn boundary_loop(edges: &[(u32, u32)]) -> Option<Vec<u32>> {
    let mut next: HashMap<u32, u32> = HashMap::with_capacity(edges.len());
    for &(a, b) in edges {
        if next.insert(a, b).is_some() {
            return None;
        }
    }
    let start = edges.iter().map(|e| e.0).min()?;
    let mut cycle = vec![start];
    let mut v = next[&start];
    while v != start {
        if cycle.len() >= edges.len() {
            return None;
        }
        cycle.push(v);
        v = *next.get(&v)?;
    }
    (cycle.len() == edges.len()).then_some(cycle)
}

/// Union-find root with path halving.
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}
