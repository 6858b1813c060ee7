//! Quickhull (Barber, Dobkin, Huhdanpaa 1996) in `f64`: the triangle mesh of the hull.
//!
//! Invariants: every live face is a CCW triangle (seen from outside) with a unit normal;
//! every directed edge of a live face maps to that face in `edge_face`, and its reverse to
//! the neighbour; each not-yet-processed point sits in the `outside` list of exactly one
//! live face, the one it is highest above (by more than `tol`).
//!
//! One step: take the first live face with outside points, its highest point is the
//! *eye*. The faces the eye sees (height `> tol`) form a disk reached by a depth-first
//! walk from that face; its boundary (the *horizon*) must be one simple cycle. Each
//! horizon edge `a → b` gets a new face `(a, b, eye)`; the points of the removed faces go
//! to the new face they are highest above, or are dropped (inside). If the horizon is not
//! a simple cycle (round-off on nearly coplanar faces), the walk is redone with height
//! `> 0`, and if that fails too the eye is dropped; the caller checks at the end that
//! every input point is inside the final hull.
//!
//! New faces are appended and only new faces receive points, so a cursor over the face
//! list finds the next face with work; each step retires one point, so there are at most
//! `n` steps of `O(faces)` each.

use super::hash::IndexMap;
use glam::DVec3;

struct Face {
    v: [u32; 3],
    normal: DVec3,
    offset: f64,
    alive: bool,
    outside: Vec<u32>,
}

impl Face {
    /// The face `(a, b, c)` with its unit normal, or `None` if the triangle is degenerate.
    fn new(p: &[DVec3], v: [u32; 3]) -> Option<Face> {
        let [a, b, c] = v.map(|i| p[i as usize]);
        let normal = (b - a).cross(c - a).try_normalize()?;
        Some(Face {
            v,
            normal,
            offset: normal.dot(a),
            alive: true,
            outside: Vec::new(),
        })
    }

    fn height(&self, q: DVec3) -> f64 {
        self.normal.dot(q) - self.offset
    }

    fn edges(&self) -> [(u32, u32); 3] {
        let [a, b, c] = self.v;
        [(a, b), (b, c), (c, a)]
    }
}

/// The hull's triangles (CCW from outside, indices into `p`) of the points `kept`,
/// starting from the tetrahedron `simplex` (non-degenerate). `None` only if the starting
/// tetrahedron is degenerate in `f64`.
pub(super) fn triangulate(
    p: &[DVec3],
    simplex: [u32; 4],
    kept: &[u32],
    tol: f64,
) -> Option<Vec<[u32; 3]>> {
    let mut faces: Vec<Face> = Vec::new();
    let mut edge_face: IndexMap<(u32, u32), u32> = IndexMap::default();
    for skip in 0..4 {
        let mut v = [0u32; 3];
        let mut k = 0;
        for (j, &s) in simplex.iter().enumerate() {
            if j != skip {
                v[k] = s;
                k += 1;
            }
        }
        let mut face = Face::new(p, v)?;
        if face.height(p[simplex[skip] as usize]) > 0.0 {
            face = Face::new(p, [v[0], v[2], v[1]])?;
        }
        add_face(&mut faces, &mut edge_face, face);
    }
    for &i in kept {
        if !simplex.contains(&i) {
            assign(&mut faces, 0..4, p, i, tol);
        }
    }

    let mut marks = Marks::default();
    let mut cursor = 0;
    while cursor < faces.len() {
        if !faces[cursor].alive || faces[cursor].outside.is_empty() {
            cursor += 1;
            continue;
        }
        let f0 = cursor;
        let eye = highest(&faces[f0], p);
        let q = p[eye as usize];
        let found = [tol, 0.0].into_iter().find_map(|threshold| {
            let (visible, horizon) = horizon(&faces, &edge_face, &mut marks, f0, q, threshold);
            if horizon.is_empty() {
                return None;
            }
            let new: Option<Vec<Face>> = horizon
                .iter()
                .map(|&(a, b)| Face::new(p, [a, b, eye]))
                .collect();
            Some((visible, new?))
        });
        let Some((visible, new_faces)) = found else {
            faces[f0].outside.retain(|&i| i != eye);
            continue;
        };

        let mut orphans = Vec::new();
        for &f in &visible {
            let face = &mut faces[f as usize];
            face.alive = false;
            orphans.append(&mut face.outside);
            for e in face.edges() {
                edge_face.remove(&e);
            }
        }
        let first_new = faces.len();
        for face in new_faces {
            add_face(&mut faces, &mut edge_face, face);
        }
        let end = faces.len();
        for i in orphans {
            if i != eye {
                assign(&mut faces, first_new..end, p, i, tol);
            }
        }
    }
    Some(faces.iter().filter(|f| f.alive).map(|f| f.v).collect())
}

fn add_face(faces: &mut Vec<Face>, edge_face: &mut IndexMap<(u32, u32), u32>, face: Face) {
    let id = faces.len() as u32;
    for e in face.edges() {
        edge_face.insert(e, id);
    }
    faces.push(face);
}

/// Puts point `i` in the outside list of the face in `range` it is highest above, if
/// that height exceeds `tol` (lowest face index among ties); otherwise drops it.
fn assign(faces: &mut [Face], range: std::ops::Range<usize>, p: &[DVec3], i: u32, tol: f64) {
    let q = p[i as usize];
    let mut best = (usize::MAX, tol);
    for f in range {
        let h = faces[f].height(q);
        if h > best.1 {
            best = (f, h);
        }
    }
    if best.0 != usize::MAX {
        faces[best.0].outside.push(i);
    }
}

/// The point of `face.outside` highest above it (lowest index among ties).
fn highest(face: &Face, p: &[DVec3]) -> u32 {
    let mut best = (u32::MAX, f64::NEG_INFINITY);
    for &i in &face.outside {
        let h = face.height(p[i as usize]);
        if h > best.1 || (h == best.1 && i < best.0) {
            best = (i, h);
        }
    }
    best.0
}

/// Per-face visit marks for one horizon walk, reset in O(1) by bumping the walk number.
#[derive(Default)]
struct Marks {
    walk: u32,
    /// `(walk, seen)` per face: marked in walk `walk`, and whether the eye sees it.
    mark: Vec<(u32, bool)>,
}

/// The faces seen from `q` (height `> threshold`) connected to `f0`, and the horizon: the
/// directed edges of those faces whose neighbour is not seen. Returns an empty horizon
/// when it is not one simple cycle.
fn horizon(
    faces: &[Face],
    edge_face: &IndexMap<(u32, u32), u32>,
    marks: &mut Marks,
    f0: usize,
    q: DVec3,
    threshold: f64,
) -> (Vec<u32>, Vec<(u32, u32)>) {
    marks.walk += 1;
    let walk = marks.walk;
    marks.mark.resize(faces.len(), (0, false));
    let mut visible = vec![f0 as u32];
    let mut horizon = Vec::new();
    marks.mark[f0] = (walk, true);
    let mut stack = vec![f0 as u32];
    while let Some(f) = stack.pop() {
        for (a, b) in faces[f as usize].edges() {
            let Some(&g) = edge_face.get(&(b, a)) else {
                return (visible, Vec::new());
            };
            let g = g as usize;
            match marks.mark[g] {
                (w, true) if w == walk => {}
                (w, false) if w == walk => horizon.push((a, b)),
                _ => {
                    let seen = faces[g].height(q) > threshold;
                    marks.mark[g] = (walk, seen);
                    if seen {
                        visible.push(g as u32);
                        stack.push(g as u32);
                    } else {
                        horizon.push((a, b));
                    }
                }
            }
        }
    }
    if !is_simple_cycle(&horizon) {
        horizon.clear();
    }
    (visible, horizon)
}

/// Whether the directed edges form exactly one cycle through distinct vertices.
fn is_simple_cycle(edges: &[(u32, u32)]) -> bool {
    if edges.len() < 3 {
        return false;
    }
    let mut next: IndexMap<u32, u32> =
        IndexMap::with_capacity_and_hasher(edges.len(), Default::default());
    for &(a, b) in edges {
        if next.insert(a, b).is_some() {
            return false;
        }
    }
    let start = edges[0].0;
    let mut v = start;
    for step in 1..=edges.len() {
        let Some(&w) = next.get(&v) else {
            return false;
        };
        v = w;
        if v == start {
            return step == edges.len();
        }
    }
    false
}
