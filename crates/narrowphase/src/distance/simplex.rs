//! GJK's simplex and its sub-distance step: the point of a simplex nearest the origin.

use glam::DVec3;

/// A point of the Minkowski difference `B − A`: `w = b − a` (a's frame), with the
/// indices of the core vertices `a` and `b` it came from (kept small: the simplex is
/// copied as GJK shrinks it; the positions are recomputed for the witnesses).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Vertex {
    pub w: DVec3,
    pub ia: u16,
    pub ib: u16,
}

/// One to four vertices and the barycentric weights of the point nearest the origin.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Simplex {
    pub vertices: [Vertex; 4],
    pub weights: [f64; 4],
    pub len: usize,
}

/// The last simplex of a pair as vertex index pairs `(a, b)`: the warm start of the
/// next distance query (indices only, so they stay valid whatever the poses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SimplexHint {
    pub pairs: [[u16; 2]; 4],
    pub len: u8,
}

impl SimplexHint {
    /// The hint for the pair in the other order.
    pub fn flipped(self) -> SimplexHint {
        SimplexHint {
            pairs: self.pairs.map(|[a, b]| [b, a]),
            len: self.len,
        }
    }
}

/// A simplex vertex's sort key: its index pair.
#[inline(always)]
fn key(v: &Vertex) -> u32 {
    (v.ia as u32) << 16 | v.ib as u32
}

impl Simplex {
    pub fn push(&mut self, v: Vertex) {
        self.vertices[self.len] = v;
        self.len += 1;
    }

    pub fn contains(&self, ia: u16, ib: u16) -> bool {
        self.vertices[..self.len]
            .iter()
            .any(|v| v.ia == ia && v.ib == ib)
    }

    pub fn hint(&self) -> SimplexHint {
        let mut hint = SimplexHint::default();
        for (k, v) in self.vertices[..self.len].iter().enumerate() {
            hint.pairs[k] = [v.ia, v.ib];
        }
        hint.len = self.len as u8;
        hint
    }

    /// [`solve`](Self::solve) as a function of the vertex set alone: the vertices are
    /// sorted by index pair first. The point nearest the origin then has the same bits
    /// however the set was reached (the order of the pushes, the larger simplex it was
    /// cut from), so a query warm-started from the simplex it ended with retraces its
    /// last round: the same answer, bit for bit (`collide` relies on it, see
    /// `speculative`). One solve suffices: every sub-simplex a solve reduces to is
    /// itself solved with its vertices in sorted order (the tetrahedron's faces and the
    /// triangle's edges are listed in ascending order), by the same code that solves
    /// it alone, so solving the kept vertices again gives the same point and keeps them.
    pub fn solve_settled(&mut self) -> Option<DVec3> {
        // Insertion sort: at most 4 vertices, mostly in order already.
        for k in 1..self.len {
            let mut j = k;
            while j > 0 && key(&self.vertices[j]) < key(&self.vertices[j - 1]) {
                self.vertices.swap(j, j - 1);
                j -= 1;
            }
        }
        let v = self.solve()?;
        debug_assert!({
            let mut again = *self;
            again.solve() == Some(v) && again.len == self.len
        });
        Some(v)
    }

    /// Shrinks the simplex to the vertices whose hull holds its point nearest the
    /// origin and returns that point; `None` when the origin lies inside the
    /// tetrahedron (the shapes overlap).
    pub fn solve(&mut self) -> Option<DVec3> {
        match self.len {
            1 => {
                self.weights[0] = 1.0;
                Some(self.vertices[0].w)
            }
            2 => Some(self.solve_segment()),
            3 => Some(self.solve_triangle()),
            _ => self.solve_tetrahedron(),
        }
    }

    fn keep(&mut self, picks: &[(usize, f64)]) -> DVec3 {
        let old = self.vertices;
        let mut v = DVec3::ZERO;
        for (k, &(i, weight)) in picks.iter().enumerate() {
            self.vertices[k] = old[i];
            self.weights[k] = weight;
            v += old[i].w * weight;
        }
        self.len = picks.len();
        v
    }

    // Nearest point of segment p q to the origin: t = −p·(q − p) / |q − p|², clamped.
    fn solve_segment(&mut self) -> DVec3 {
        let (p, q) = (self.vertices[0].w, self.vertices[1].w);
        let d = q - p;
        let t = -p.dot(d);
        let dd = d.length_squared();
        if t <= 0.0 || dd == 0.0 {
            self.keep(&[(0, 1.0)])
        } else if t >= dd {
            self.keep(&[(1, 1.0)])
        } else {
            let t = t / dd;
            self.keep(&[(0, 1.0 - t), (1, t)])
        }
    }

    // Signed areas (Montanari, Petrinic, Barbieri 2017, "Improving the GJK algorithm
    // for faster and more reliable distance queries between convex objects"): project
    // the origin on the plane, `p = n (n·a) / |n|²` with `n = (b − a) × (c − a)`, and
    // take its barycentric coordinates from the signed areas `λ_a = n·((b − p) × (c − p))
    // / |n|²` (and cyclically). All positive: the face holds the nearest point, `p`.
    // Otherwise it lies on an edge whose opposite coordinate is not positive (that
    // edge's line separates `p` from the triangle).
    //
    // Why not Ericson's dot-product region walk (Real-Time Collision Detection,
    // 5.1.5): its numerators `d1 d4 − d3 d2` are `|ab × ac|²`-sized differences of
    // `|ab|² |ac|²`-sized products. A small shape beside a large one makes long, thin
    // triangles (a long edge of one shape swept by a short edge of the other), where
    // that cancellation cost the weights 4e-9 and the point 1e-6 of its size, enough to
    // stop GJK on a wrong simplex (a 1e-2 box 1e-4 from a 1e2 box measured 1e-3 away,
    // `tests/distance_oracle.rs`). The cross products keep full relative precision.
    fn solve_triangle(&mut self) -> DVec3 {
        let [a, b, c] = [0, 1, 2].map(|k| self.vertices[k].w);
        let n = (b - a).cross(c - a);
        let nn = n.length_squared();
        if nn.is_nan() || nn <= 0.0 {
            // Collinear (no face): the best of the three edges.
            return self.best_of(&[[0, 1], [0, 2], [1, 2]]);
        }
        let p = n * (n.dot(a) / nn);
        let (pa, pb, pc) = (a - p, b - p, c - p);
        let area = [pb.cross(pc), pc.cross(pa), pa.cross(pb)].map(|x| n.dot(x));
        if area.iter().all(|&x| x > 0.0) {
            let sum = area[0] + area[1] + area[2];
            self.keep(&[(0, area[0] / sum), (1, area[1] / sum), (2, area[2] / sum)]);
            return p;
        }
        // The edges opposite a non-positive coordinate (one or two of them).
        const OPPOSITE: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];
        let mut edges = [[0usize; 2]; 3];
        let mut count = 0;
        for (k, edge) in OPPOSITE.iter().enumerate() {
            if area[k].is_nan() || area[k] <= 0.0 {
                edges[count] = *edge;
                count += 1;
            }
        }
        self.best_of(&edges[..count])
    }

    /// The sub-simplex among `faces` (vertex index lists) nearest the origin.
    fn best_of<const N: usize>(&mut self, faces: &[[usize; N]]) -> DVec3 {
        let mut best: Option<(f64, Simplex, DVec3)> = None;
        for face in faces {
            let mut sub = Simplex::default();
            for &i in face {
                sub.push(self.vertices[i]);
            }
            let v = match N {
                2 => sub.solve_segment(),
                _ => sub.solve_triangle(),
            };
            let d = v.length_squared();
            if best.as_ref().is_none_or(|b| d < b.0) {
                best = Some((d, sub, v));
            }
        }
        let (_, sub, v) = best.expect("at least one face");
        *self = sub;
        v
    }

    // The origin is outside face (p, q, r) when it and the opposite vertex s lie on
    // different sides of its plane: (n · (0 − p)) (n · (s − p)) ≤ 0, n = (q − p) × (r − p).
    // The nearest point is on one of the faces it is outside of; if none, it is inside.
    // A flat tetrahedron (|6V| tiny against its size) has no inside: every face counts.
    fn solve_tetrahedron(&mut self) -> Option<DVec3> {
        // Each face in ascending vertex order (see `solve_settled`); the side test does
        // not depend on the face's orientation.
        const FACES: [([usize; 3], usize); 4] = [
            ([0, 1, 2], 3),
            ([0, 2, 3], 1),
            ([0, 1, 3], 2),
            ([1, 2, 3], 0),
        ];
        let w = [0, 1, 2, 3].map(|k| self.vertices[k].w);
        let size = w
            .iter()
            .fold(0.0f64, |m, p| m.max(p.length_squared()))
            .sqrt();
        let mut outside = [[0usize; 3]; 4];
        let mut count = 0;
        for (face, opposite) in FACES {
            let [p, q, r] = face.map(|k| w[k]);
            let n = (q - p).cross(r - p);
            let (side_origin, side_opposite) = (-n.dot(p), n.dot(w[opposite] - p));
            let flat = side_opposite.abs() <= 1e-12 * size * size * size;
            if flat || side_origin * side_opposite <= 0.0 {
                outside[count] = face;
                count += 1;
            }
        }
        if count == 0 {
            return None;
        }
        Some(self.best_of(&outside[..count]))
    }
}
