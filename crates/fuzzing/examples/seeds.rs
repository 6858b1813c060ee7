//! Writes the hand-made seeds of `fuzz/corpus/<target>/hand-*` (and the hand-made
//! inputs of open bugs in `fuzz/artifacts-found/`): degenerate and
//! extreme inputs a fuzzer would take long to build from nothing (duplicate,
//! collinear, coplanar and nearly coplanar points, needles and slabs, huge and tiny
//! values, NaN, stale handles, quarantined poses, ...).
//!
//! ```text
//! cargo run -p sepax-fuzzing --example seeds -- fuzz/corpus
//! ```
//!
//! Each seed is written with [`Enc`], the inverse of `sepax_fuzzing::bytes::Bytes`
//! for the values used here; the program decodes every seed again and prints it, so a
//! mistake in the encoding shows.

use std::path::Path;

/// Bytes that `Bytes` decodes back into the values pushed.
#[derive(Default)]
struct Enc(Vec<u8>);

impl Enc {
    fn byte(mut self, b: u8) -> Enc {
        self.0.push(b);
        self
    }
    /// A multiple of 0.25 in [-32, 31.75] (lattice family, both modes).
    fn q(self, v: f32) -> Enc {
        let k = (v * 4.0).round();
        assert!(
            k == v * 4.0 && (-128.0..128.0).contains(&k),
            "{v} is not a lattice value"
        );
        self.byte(0).byte(k as i8 as u8)
    }
    /// `lattice + jitter · 1e-7`, jitter in [-128, 127] (both modes).
    fn jq(self, v: f32, jitter: i8) -> Enc {
        let e = self.q(v);
        let mut bytes = e.0;
        let n = bytes.len();
        bytes[n - 2] = 4;
        bytes.push(jitter as u8);
        Enc(bytes)
    }
    /// `m / 1024 · 10^e`, e in [-20, 20] (wild mode).
    fn dec(self, m: i16, e: i32) -> Enc {
        let [lo, hi] = m.to_le_bytes();
        self.byte(8).byte(lo).byte(hi).byte((e + 20) as u8)
    }
    /// Any bits (wild mode).
    fn raw(self, v: f32) -> Enc {
        let b = v.to_bits().to_le_bytes();
        self.byte(11).byte(b[0]).byte(b[1]).byte(b[2]).byte(b[3])
    }
    fn q3(self, x: f32, y: f32, z: f32) -> Enc {
        self.q(x).q(y).q(z)
    }
    fn raw3(self, x: f32, y: f32, z: f32) -> Enc {
        self.raw(x).raw(y).raw(z)
    }
    /// Rotation: identity.
    fn id(self) -> Enc {
        self.byte(0)
    }
    /// Rotation: `k` quarter turns about axis 0, 1, 2.
    fn quarter(self, axis: u8, k: u8) -> Enc {
        self.byte(1).byte(axis).byte(k)
    }
    /// Rotation: `turn / 256` of a turn about the lattice axis `(x, y, z)`, each in -2..=2.
    fn turn(self, x: i8, y: i8, z: i8, turn: u8) -> Enc {
        self.byte(2)
            .byte((x + 2) as u8)
            .byte((y + 2) as u8)
            .byte((z + 2) as u8)
            .byte(turn)
    }
    /// Rotation: four raw values, not normalised (wild mode).
    fn raw_quat(self, x: f32, y: f32, z: f32, w: f32) -> Enc {
        self.byte(5).raw(x).raw(y).raw(z).raw(w)
    }
    /// Free points (kind 0), each as three lattice values.
    fn cloud(self, points: &[[f32; 3]]) -> Enc {
        let mut e = self.byte(0).byte(points.len() as u8);
        for p in points {
            e = e.q3(p[0], p[1], p[2]);
        }
        e
    }
    /// A lattice cloud (kind 1) or a round cloud (kind 2): scale, rotation, shift
    /// given by `frame`, then lattice points in -2..=2.
    fn lattice(self, kind: u8, frame: impl FnOnce(Enc) -> Enc, points: &[[i8; 3]]) -> Enc {
        let mut e = frame(self.byte(kind).byte(points.len() as u8));
        for p in points {
            for c in p {
                e = e.byte((c + 2) as u8);
            }
        }
        e
    }
    // Shapes (`ShapeSpec::decode`): 0 sphere, 1 box, 2 hull.
    fn sphere(self, r: f32) -> Enc {
        self.byte(0).q(r)
    }
    fn cuboid(self, x: f32, y: f32, z: f32) -> Enc {
        self.byte(1).q3(x, y, z)
    }
    fn hull(self) -> Enc {
        self.byte(2)
    }
    // `capsule_mesh`: shape a has no tag (flags bit 1 picks it); shape b takes
    // `ShapeSpec::decode_any`'s tags (0 sphere, 1 box, 2 hull as above, 3 capsule,
    // 4 mesh).
    fn cap(self, half_height: f32, radius: f32) -> Enc {
        self.q(half_height).q(radius)
    }
    fn capsule(self, half_height: f32, radius: f32) -> Enc {
        self.byte(3).cap(half_height, radius)
    }
    fn mesh(self) -> Enc {
        self.byte(4)
    }
    /// A height field (mesh kind 0): `columns × rows` samples (2 to 5 a side), row by
    /// row.
    fn heights(self, columns: u8, rows: u8, cell: [f32; 2], heights: &[f32]) -> Enc {
        assert_eq!(heights.len(), (columns * rows) as usize);
        let mut e = self
            .byte(0)
            .byte(columns - 2)
            .byte(rows - 2)
            .q(cell[0])
            .q(cell[1]);
        for h in heights {
            e = e.q(*h);
        }
        e
    }
    /// Free triangles (mesh kind 1): a cloud of free points, then the triangles.
    fn triangles(self, points: &[[f32; 3]], triangles: &[[u8; 3]]) -> Enc {
        let mut e = self.byte(1).cloud(points).byte(triangles.len() as u8);
        for t in triangles {
            e = e.byte(t[0]).byte(t[1]).byte(t[2]);
        }
        e
    }
}

/// The 8 corners of the cube [-1, 1]³ as lattice points.
const CUBE: [[i8; 3]; 8] = [
    [-1, -1, -1],
    [1, -1, -1],
    [-1, 1, -1],
    [1, 1, -1],
    [-1, -1, 1],
    [1, -1, 1],
    [-1, 1, 1],
    [1, 1, 1],
];

fn unit_frame(e: Enc) -> Enc {
    e.q3(1.0, 1.0, 1.0).id().q3(0.0, 0.0, 0.0)
}

#[rustfmt::skip]
fn hull_seeds() -> Vec<(&'static str, Enc)> {
    let o = || Enc::default().byte(0); // ordinary mode
    let w = || Enc::default().byte(1); // wild mode
    let cube: Vec<[f32; 3]> = CUBE.iter().map(|c| c.map(|v| v as f32)).collect();
    let mut cube_extra = cube.clone();
    cube_extra.extend([[0.0, 0.0, 0.0], [0.0, -1.0, -1.0], [1.0, 0.0, 0.0], [0.5, 1.0, 0.25]]);
    let mut many: Vec<[i8; 3]> = Vec::new();
    for x in -2..=2 {
        for y in -2..=2 {
            many.push([x, y, (x * y) % 3]);
        }
    }
    vec![
        ("hand-cube-with-inner-points", o().cloud(&cube_extra)),
        ("hand-cube-face-edits", o().lattice(1, unit_frame, &CUBE).byte(3).byte(0).byte(0).byte(1).byte(2).byte(1).byte(0).byte(3).byte(200)),
        ("hand-cube-drop-face", o().lattice(1, unit_frame, &CUBE).byte(1).byte(3).byte(0).byte(0)),
        ("hand-cube-move-vertex", o().lattice(1, unit_frame, &CUBE).byte(1).byte(0).byte(0).byte(4).byte(5).q3(0.25, 0.0, 0.0)),
        ("hand-duplicates", o().cloud(&[[1.0, 2.0, 3.0]; 40])),
        ("hand-three-points", o().cloud(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])),
        ("hand-collinear", o().cloud(&[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [-3.0, -3.0, -3.0], [0.5, 0.5, 0.5]])),
        ("hand-coplanar", o().cloud(&[[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 1.0], [0.5, 0.25, 1.0]])),
        ("hand-coplanar-rotated", o().lattice(1, |e| e.q3(1.0, 1.0, 0.0).turn(1, 2, -1, 37).q3(3.0, -2.0, 1.0), &many)),
        ("hand-nearly-coplanar", o().byte(0).byte(5).q3(0.0, 0.0, 0.0).q3(1.0, 0.0, 0.0).q3(0.0, 1.0, 0.0).q3(1.0, 1.0, 0.0).q(0.5).q(0.5).jq(0.0, 10)),
        ("hand-thin-slab", o().lattice(1, |e| { e.q(8.0).q(4.0).jq(0.0, 3).turn(2, -1, 1, 91).q3(1.0, 2.0, 3.0) }, &many)),
        ("hand-needle", o().lattice(1, |e| { e.jq(0.0, 5).jq(0.0, 5).q(8.0).turn(1, 1, 0, 17).q3(0.0, 0.0, 0.0) }, &CUBE)),
        ("hand-round", o().lattice(2, |e| e.q3(2.0, 1.0, 0.5).turn(0, 1, 2, 200).q3(0.0, 0.0, 0.0), &many)),
        ("hand-lattice-duplicates", o().lattice(1, unit_frame, &[[0, 0, 0], [1, 1, 1], [0, 0, 0], [1, 0, 0], [1, 1, 1], [0, 1, 0], [0, 0, 1], [0, 0, 1]])),
        ("hand-huge", w().lattice(1, |e| e.raw3(1e37, 1e37, 1e37).id().raw3(0.0, 0.0, 0.0), &CUBE)),
        ("hand-near-max", w().lattice(1, |e| e.raw3(1.7e38, 1.7e38, 1.7e38).id().raw3(0.0, 0.0, 0.0), &CUBE)),
        ("hand-far-from-origin", w().lattice(1, |e| e.q3(1.0, 1.0, 1.0).id().raw3(1e7, -1e7, 3e6), &CUBE)),
        ("hand-tiny", w().lattice(1, |e| { e.dec(1024, -20).dec(1024, -20).dec(1024, -20).id().q3(0.0, 0.0, 0.0) }, &CUBE)),
        ("hand-denormal", w().lattice(1, |e| e.raw3(1e-40, 1e-40, 1e-40).id().q3(0.0, 0.0, 0.0), &CUBE)),
        ("hand-nan", w().byte(0).byte(5).raw3(0.0, 0.0, 0.0).raw3(1.0, 0.0, 0.0).raw3(0.0, f32::NAN, 0.0).raw3(0.0, 0.0, 1.0).raw3(1.0, 1.0, 1.0)),
        ("hand-infinite", w().byte(0).byte(4).raw3(0.0, 0.0, 0.0).raw3(1.0, 0.0, 0.0).raw3(0.0, 1.0, 0.0).raw3(0.0, 0.0, f32::NEG_INFINITY)),
    ]
}

/// `flags`: bit 0 wild, bit 1 boxes and hulls only, bits 2–3 both set: a margin follows.
#[rustfmt::skip]
fn narrow_seeds() -> Vec<(&'static str, Enc)> {
    let n = |flags: u8| Enc::default().byte(flags);
    let cube_hull = |e: Enc| {
        e.hull().lattice(1, |f| f.q3(0.5, 0.5, 0.5).id().q3(0.0, 0.0, 0.0), &CUBE)
    };
    let tetra = |e: Enc| {
        e.hull().cloud(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    };
    vec![
        ("hand-boxes-overlap", n(0).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).id().cuboid(0.5, 0.5, 0.5).q3(0.75, 0.0, 0.0).turn(0, 0, 1, 8)),
        ("hand-boxes-coincident", n(0).cuboid(1.0, 0.5, 0.25).q3(2.0, 2.0, 2.0).turn(1, 2, 0, 30).cuboid(0.5, 0.5, 0.5).q3(2.0, 2.0, 2.0).id()),
        ("hand-boxes-resting-flush", n(0).cuboid(5.0, 0.5, 5.0).q3(0.0, 0.0, 0.0).id().cuboid(0.5, 0.5, 0.5).q3(0.0, 1.0, 0.0).quarter(1, 1)),
        ("hand-boxes-edge-on-edge", n(0).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).turn(1, 0, 0, 32).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 1.25).turn(0, 1, 0, 32)),
        ("hand-boxes-touching", n(0).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).id().cuboid(0.5, 0.5, 0.5).q3(1.0, 0.25, 0.0).id()),
        ("hand-boxes-far", n(0).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).id().cuboid(0.5, 0.5, 0.5).q3(30.0, 0.0, 0.0).id()),
        ("hand-spheres-coincident", n(0).sphere(1.0).q3(1.0, 1.0, 1.0).id().sphere(0.5).q3(1.0, 1.0, 1.0).id()),
        ("hand-sphere-in-box", n(0).sphere(0.25).q3(0.0, 0.25, 0.0).id().cuboid(1.0, 1.0, 1.0).q3(0.0, 0.0, 0.0).turn(1, 1, 1, 20)),
        ("hand-sphere-hull", n(0).sphere(0.5).q3(0.0, 0.0, 1.25).id().hull().cloud(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]).q3(0.0, 0.0, 0.0).id()),
        ("hand-hull-hull", tetra(cube_hull(n(0)).q3(0.0, 0.0, 0.0).turn(1, -1, 2, 50)).q3(0.25, 0.25, 0.25).turn(2, 1, 0, 100)),
        ("hand-box-hull-face", cube_hull(n(0).cuboid(1.0, 1.0, 1.0).q3(0.0, 0.0, 0.0).id()).q3(0.0, 1.25, 0.0).id()),
        ("hand-needle-slab", n(2).byte(0).jq(0.0, 50).jq(0.0, 50).q(1.0).q3(0.0, 0.0, 0.0).turn(1, 0, 0, 64).byte(0).q3(2.0, 0.25, 2.0).q3(0.0, 0.25, 0.0).id()),
        ("hand-thin-hull-box", n(2).byte(1).lattice(1, |e| { e.q(2.0).q(2.0).jq(0.0, 40).turn(1, 1, 0, 9).q3(0.0, 0.0, 0.0) }, &CUBE).q3(0.0, 0.0, 0.0).id().byte(0).q3(0.5, 0.5, 0.5).q3(0.25, 0.0, 0.5).turn(0, 1, 1, 40)),
        ("hand-margin-gap", n(12).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).id().cuboid(0.5, 0.5, 0.5).jq(1.0, 100).q(0.0).q(0.0).id().q(0.25)),
        ("hand-margin-nan", n(13).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).id().cuboid(0.5, 0.5, 0.5).q3(0.75, 0.0, 0.0).id().raw(f32::NAN)),
        ("hand-margin-negative", n(12).sphere(0.5).q3(0.0, 0.0, 0.0).id().sphere(0.5).q3(0.75, 0.0, 0.0).id().q(-1.0)),
        ("hand-nan-pose", n(1).cuboid(0.5, 0.5, 0.5).raw3(f32::NAN, 0.0, 0.0).id().cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).id()),
        ("hand-non-unit-rotation", n(1).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).raw_quat(0.0, 0.0, 0.0, 2.0).sphere(0.5).q3(0.0, 0.0, 0.0).id()),
        // "hand-nearly-unit-rotation" (|q| = 1.0005) is in fuzz/artifacts-found: it
        // shows OpenBug::NearUnitRotation.
        ("hand-huge-boxes", n(1).byte(1).raw3(1e17, 1e17, 1e17).q3(0.0, 0.0, 0.0).id().byte(1).raw3(1e17, 1.0, 1.0).raw3(1e17, 0.0, 0.0).id()),
        ("hand-tiny-boxes", n(1).byte(1).dec(1024, -12).dec(1024, -12).dec(1024, -12).q3(0.0, 0.0, 0.0).id().byte(1).dec(1024, -12).dec(1024, -12).dec(1024, -12).dec(1536, -12).q3(0.0, 0.0, 0.0).id()),
        ("hand-far-from-origin", n(1).cuboid(0.5, 0.5, 0.5).raw3(1e6, 1e6, 1e6).id().cuboid(0.5, 0.5, 0.5).raw3(1e6, 1e6 + 0.875, 1e6).turn(1, 0, 1, 3)),
    ]
}

/// `flags`: bit 0 wild, bit 1 a is a mesh (else a capsule), bits 2–3 both set: a
/// margin follows.
#[rustfmt::skip]
fn capsule_mesh_seeds() -> Vec<(&'static str, Enc)> {
    let n = |flags: u8| Enc::default().byte(flags);
    let flat = |e: Enc| e.heights(3, 3, [1.0, 1.0], &[0.0; 9]);
    let bumpy = |e: Enc| e.heights(4, 3, [0.5, 0.75], &[0.0, 0.25, -0.25, 0.0, 0.5, 0.0, 0.25, -0.5, 0.0, 0.0, 1.0, 0.0]);
    let fold = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.5, 1.0]];
    let tetra = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    vec![
        ("hand-capsules-crossing", n(0).cap(0.5, 0.25).q3(0.0, 0.0, 0.0).id().capsule(0.5, 0.25).q3(0.0, 0.0, 0.25).turn(1, 0, 0, 64)),
        ("hand-capsules-parallel", n(0).cap(1.0, 0.25).q3(0.0, 0.0, 0.0).quarter(2, 1).capsule(0.5, 0.25).q3(0.5, 0.5, 0.0).quarter(2, 1)),
        ("hand-capsules-coaxial", n(0).cap(1.0, 0.5).q3(0.0, 0.0, 0.0).id().capsule(1.0, 0.5).q3(0.0, 0.0, 0.0).id()),
        ("hand-capsule-lying-on-box", n(0).cap(0.5, 0.25).q3(0.0, 0.75, 0.0).quarter(2, 1).cuboid(1.0, 0.5, 1.0).q3(0.0, 0.0, 0.0).id()),
        ("hand-capsule-standing-on-box", n(0).cap(0.5, 0.25).q3(0.25, 1.25, 0.0).id().cuboid(1.0, 0.5, 1.0).q3(0.0, 0.0, 0.0).turn(0, 1, 0, 20)),
        ("hand-capsule-box-edge", n(0).cap(0.75, 0.25).q3(0.75, 0.75, 0.0).turn(1, 0, 0, 64).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).id()),
        ("hand-capsule-sphere", n(0).cap(0.5, 0.25).q3(0.0, 0.0, 0.0).id().sphere(0.5).q3(0.5, 0.25, 0.0).id()),
        ("hand-capsule-hull", n(0).cap(0.5, 0.25).q3(0.25, 1.0, 0.25).turn(1, 1, 0, 30).hull().cloud(&tetra).q3(0.0, 0.0, 0.0).id()),
        ("hand-capsule-zero-height", n(0).cap(0.0, 0.5).q3(0.0, 0.75, 0.0).id().cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).id()),
        ("hand-capsule-margin", n(12).cap(0.5, 0.25).q3(0.0, 0.0, 0.0).id().capsule(0.5, 0.25).q3(0.75, 0.0, 0.0).id().q(0.5)),
        ("hand-capsule-on-flat-mesh", n(0).cap(0.5, 0.25).q3(1.0, 0.25, 1.0).quarter(2, 1).mesh().heights(3, 3, [1.0, 1.0], &[0.0; 9]).q3(0.0, 0.0, 0.0).id()),
        ("hand-capsule-on-bumpy-mesh", bumpy(n(0).cap(0.5, 0.25).q3(0.75, 0.5, 0.75).turn(1, 0, 1, 60).mesh()).q3(0.0, 0.0, 0.0).id()),
        ("hand-mesh-under-box", flat(n(2)).q3(0.0, 0.0, 0.0).id().cuboid(0.5, 0.5, 0.5).q3(1.0, 0.5, 1.0).turn(0, 1, 0, 10)),
        ("hand-mesh-under-sphere-on-seam", flat(n(2)).q3(0.0, 0.0, 0.0).id().sphere(0.5).q3(1.0, 0.25, 1.0).id()),
        ("hand-fold-under-hull", n(2).triangles(&fold, &[[0, 2, 1], [1, 2, 3]]).q3(0.0, 0.0, 0.0).id().hull().cloud(&tetra).q3(0.25, 0.25, 0.25).turn(1, 2, 0, 40)),
        ("hand-fold-under-capsule", n(2).triangles(&fold, &[[0, 2, 1], [1, 2, 3]]).q3(0.0, 0.0, 0.0).id().capsule(0.5, 0.25).q3(0.5, 0.5, 0.5).turn(1, 0, -1, 50)),
        ("hand-mesh-back-side", n(2).triangles(&fold, &[[0, 1, 2]]).q3(0.0, 0.0, 0.0).id().sphere(0.5).q3(0.25, -0.25, 0.25).id()),
        ("hand-mesh-degenerate-triangles", n(2).triangles(&fold, &[[0, 0, 1], [0, 1, 2], [1, 2, 1]]).q3(0.0, 0.0, 0.0).id().cuboid(0.25, 0.25, 0.25).q3(0.25, 0.25, 0.25).id()),
        ("hand-meshes", flat(n(2)).q3(0.0, 0.0, 0.0).id().mesh().heights(3, 3, [1.0, 1.0], &[0.0; 9]).q3(0.0, 0.0, 0.0).id()),
        ("hand-capsule-nan-pose", n(1).cap(0.5, 0.25).raw3(f32::NAN, 0.0, 0.0).id().capsule(0.5, 0.25).q3(0.0, 0.0, 0.0).id()),
        ("hand-capsule-far-from-origin", n(1).cap(0.5, 0.25).raw3(1e6, 1e6, 1e6).quarter(0, 1).cuboid(0.5, 0.5, 0.5).raw3(1e6, 1e6 + 0.625, 1e6).id()),
    ]
}

/// Operations (`Script::decode`): 0 insert, 3 remove, 4 set_pose, 7 set_shape,
/// 8 set_groups, 9 step, 11 query (then 0: AABB, 1: ray).
#[rustfmt::skip]
fn world_seeds() -> Vec<(&'static str, Enc)> {
    let s = |flags: u8| Enc::default().byte(flags).byte(1).byte(2);
    // insert `shape` at `pose`, kind byte (0: static), groups byte (0: all), user data.
    let insert = |e: Enc, shape: fn(Enc) -> Enc, pose: &dyn Fn(Enc) -> Enc, kind: u8| {
        pose(shape(e.byte(0))).byte(kind).byte(0).byte(7)
    };
    let cube: fn(Enc) -> Enc = |e| e.cuboid(0.5, 0.5, 0.5);
    let ball: fn(Enc) -> Enc = |e| e.sphere(0.5);
    let ground: fn(Enc) -> Enc = |e| e.cuboid(10.0, 0.5, 10.0);
    let at = |x: f32, y: f32| move |e: Enc| e.q3(x, y, 0.0).id();
    let step = |e: Enc| e.byte(9);
    let quickstart = {
        let e = insert(s(0), ground, &at(0.0, -0.5), 0);
        let e = insert(e, cube, &|e| e.q3(-2.0, 0.5, 0.0).turn(0, 0, 1, 12), 1);
        let e = step(insert(e, ball, &at(0.0, 0.25), 1));
        step(e.byte(4).byte(2).q3(0.0, 3.0, 0.0).id())
    };
    let remove_then_stale = {
        let e = insert(s(0), cube, &at(0.0, 0.0), 1);
        let e = step(insert(e, cube, &at(0.75, 0.0), 1));
        let e = step(e.byte(3).byte(1));
        step(e.byte(4).byte(1).q3(0.0, 0.0, 0.0).id().byte(3).byte(1).byte(8).byte(1).byte(0))
    };
    let quarantine = {
        let e = insert(s(1), cube, &at(0.0, 0.0), 1);
        let e = step(insert(e, cube, &at(0.75, 0.0), 1));
        let e = step(e.byte(4).byte(1).raw3(f32::NAN, 0.0, 0.0).id());
        let e = step(e.byte(4).byte(0).q3(0.0, 0.0, 0.0).raw_quat(0.0, 0.0, 0.0, 3.0));
        step(e.byte(4).byte(1).q3(0.5, 0.0, 0.0).id().byte(4).byte(0).q3(0.0, 0.0, 0.0).id())
    };
    let filtered = {
        let e = insert(s(0), cube, &at(0.0, 0.0), 1);
        let e = step(insert(e, cube, &at(0.75, 0.0), 1));
        // groups byte 3: memberships 1, filter 0 (collides with nothing).
        let e = step(e.byte(8).byte(0).byte(3).byte(1).byte(0));
        step(e.byte(8).byte(0).byte(0))
    };
    let statics = {
        let e = insert(s(0), cube, &at(0.0, 0.0), 0);
        step(insert(e, cube, &at(0.5, 0.0), 0))
    };
    let reshape = {
        let e = insert(s(0), cube, &at(0.0, 0.0), 1);
        let e = step(insert(e, cube, &at(1.25, 0.0), 1));
        let e = step(e.byte(7).byte(0).cuboid(1.0, 1.0, 1.0));
        step(e.byte(7).byte(1).hull().lattice(1, unit_frame, &CUBE))
    };
    let speculative = {
        let e = Enc::default().byte(2).q(0.5).byte(0).byte(0);
        let e = insert(e, cube, &at(0.0, 0.0), 1);
        let e = step(insert(e, cube, &at(1.25, 0.0), 1));
        step(e.byte(4).byte(1).q3(0.75, 0.0, 0.0).id())
    };
    let pile = {
        let mut e = s(0);
        for _ in 0..12 {
            e = insert(e, cube, &at(1.0, 1.0), 1);
        }
        step(step(e).byte(3).byte(5).byte(3).byte(0))
    };
    let queries = {
        let e = step(insert(s(1), cube, &at(0.0, 0.0), 0));
        let e = e.byte(11).byte(0).q3(-1.0, -1.0, -1.0).q3(1.0, 1.0, 1.0);
        let e = e.byte(11).byte(0).q3(1.0, 1.0, 1.0).q3(-1.0, -1.0, -1.0);
        let e = e.byte(11).byte(0).raw3(f32::NAN, 0.0, 0.0).q3(1.0, 1.0, 1.0);
        let e = e.byte(11).byte(1).q3(-5.0, 0.0, 0.0).q3(1.0, 0.0, 0.0).raw(f32::INFINITY);
        let e = e.byte(11).byte(1).q3(-5.0, 0.0, 0.0).q3(0.0, 0.0, 0.0).q(10.0);
        let e = e.byte(11).byte(1).q3(-5.0, 0.0, 0.0).raw3(1e-40, 0.0, 0.0).q(10.0);
        e.byte(11).byte(1).q3(0.0, 0.0, 0.0).q3(0.0, 1.0, 0.0).q(-1.0)
    };
    let infinite_margin = {
        let e = Enc::default().byte(3).raw(f32::INFINITY).byte(0).byte(0);
        let e = insert(e, cube, &at(0.0, 0.0), 1);
        step(insert(e, cube, &at(0.75, 0.0), 1))
    };
    let nan_margin = {
        let e = Enc::default().byte(3).raw(f32::NAN).byte(3).byte(3);
        let e = insert(e, ball, &at(0.0, 0.0), 1);
        step(insert(e, ball, &at(0.75, 0.0), 1))
    };
    let static_bvh = {
        let mut e = s(0);
        for i in 0..6 {
            e = insert(e, cube, &at(i as f32 * 1.5, 0.0), 0);
        }
        let e = step(insert(e, ball, &at(3.0, 0.75), 1));
        step(e.byte(4).byte(2).q3(3.0, 0.0, 0.0).id().byte(11).byte(1).q3(-3.0, 0.0, 0.0).q3(1.0, 0.0, 0.0).q(30.0))
    };
    vec![
        ("hand-quickstart", quickstart),
        ("hand-remove-then-stale", remove_then_stale),
        ("hand-quarantine", quarantine),
        ("hand-filtered", filtered),
        ("hand-statics", statics),
        ("hand-reshape", reshape),
        ("hand-speculative", speculative),
        ("hand-pile", pile),
        ("hand-queries", queries),
        ("hand-infinite-margin", infinite_margin),
        ("hand-nan-margin", nan_margin),
        ("hand-static-bvh", static_bvh),
    ]
}

/// `world_all_shapes`: the `world_script` seeds (`ShapeSpec::decode_any` reads their
/// sphere, box and hull tags the same way) and scripts with capsules and meshes.
#[rustfmt::skip]
fn world_all_shapes_seeds() -> Vec<(&'static str, Enc)> {
    let s = |flags: u8| Enc::default().byte(flags).byte(1).byte(2);
    let insert = |e: Enc, shape: &dyn Fn(Enc) -> Enc, pose: &dyn Fn(Enc) -> Enc, kind: u8| {
        pose(shape(e.byte(0))).byte(kind).byte(0).byte(7)
    };
    let terrain = |e: Enc| e.mesh().heights(4, 4, [1.0, 1.0], &[0.0, 0.25, 0.0, -0.25, 0.25, 0.5, 0.25, 0.0, 0.0, 0.25, 0.75, 0.25, -0.25, 0.0, 0.25, 0.0]);
    let fold = |e: Enc| e.mesh().triangles(&[[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 2.0], [2.0, 1.0, 2.0]], &[[0, 2, 1], [1, 2, 3]]);
    let capsule = |e: Enc| e.capsule(0.5, 0.25);
    let cube = |e: Enc| e.cuboid(0.25, 0.25, 0.25);
    let ball = |e: Enc| e.sphere(0.25);
    let at = |x: f32, y: f32, z: f32| move |e: Enc| e.q3(x, y, z).id();
    let lying = |x: f32, y: f32, z: f32| move |e: Enc| e.q3(x, y, z).quarter(2, 1);
    let step = |e: Enc| e.byte(9);
    let on_terrain = {
        let e = insert(s(0), &terrain, &at(0.0, 0.0, 0.0), 0);
        let e = insert(e, &capsule, &lying(1.5, 0.5, 1.5), 1);
        let e = insert(e, &cube, &at(0.5, 0.5, 0.5), 1);
        let e = step(insert(e, &ball, &at(2.5, 0.5, 2.0), 1));
        let e = step(e.byte(4).byte(1).q3(1.25, 0.25, 1.5).turn(0, 1, 0, 20));
        step(e.byte(11).byte(1).q3(1.5, 5.0, 1.5).q3(0.0, -1.0, 0.0).q(10.0))
    };
    let on_fold = {
        let e = insert(s(0), &fold, &at(0.0, 0.0, 0.0), 0);
        let e = insert(e, &capsule, &lying(1.0, 0.25, 1.0), 1);
        step(step(insert(e, &cube, &at(1.5, 0.75, 1.5), 1)))
    };
    let capsules = {
        let mut e = s(0);
        for i in 0..5 {
            e = insert(e, &capsule, &lying(i as f32 * 0.75, 0.0, 0.0), 1);
        }
        step(insert(e, &capsule, &at(1.5, 0.5, 0.0), 1))
    };
    let mesh_refused = {
        // A mesh on a dynamic body, then a dynamic box reshaped into a mesh: both refused.
        let e = insert(s(0), &terrain, &at(0.0, 0.0, 0.0), 1);
        let e = step(insert(e, &cube, &at(0.0, 0.5, 0.0), 1));
        step(terrain(e.byte(7).byte(1)))
    };
    let static_reshape = {
        let e = insert(s(0), &cube, &at(1.0, 0.0, 1.0), 0);
        let e = step(insert(e, &capsule, &lying(1.0, 0.5, 1.0), 1));
        step(terrain(e.byte(7).byte(0)))
    };
    let mut seeds = world_seeds();
    seeds.extend([
        ("hand-mesh-terrain", on_terrain),
        ("hand-mesh-fold", on_fold),
        ("hand-capsules", capsules),
        ("hand-mesh-refused", mesh_refused),
        ("hand-static-becomes-mesh", static_reshape),
    ]);
    seeds
}

/// Inputs of open bugs (`fuzz/artifacts-found/`): each breaks a check until its bug
/// is fixed, so none of them may go into a corpus.
#[rustfmt::skip]
fn open_bug_inputs() -> Vec<(&'static str, &'static str, Enc)> {
    // Issue 9, item 2: a needle box against a thin hull (the issue's repro).
    let hull = [
        [0.0, 0.002, 2.0], [3e-45, 0.002, -7.5403705e-7], [0.001, -1.0000005, 0.002],
        [1.0, 2.0000007, 0.0], [0.001, 1.0, -2.0], [0.0, -0.002, 2.0000002],
    ];
    let thin = |e: Enc| hull.iter().fold(e.byte(1).byte(0).byte(6), |e, p| e.raw3(p[0], p[1], p[2]));
    let needle = |e: Enc| e.byte(0).raw3(0.001, 0.001, 1.0);
    let p1 = |e: Enc| e.raw3(1.0, -2.0000002, 0.0).raw_quat(-0.0008944267, 0.8944267, 0.4472134, 0.00044721336);
    let p2 = |e: Enc| e.raw3(0.5406529, -2.2417085, -0.2937697).raw_quat(0.0, -0.70710677, 1e-45, 0.70710677);
    let start = || Enc::default().byte(3);
    // Issue 9, item 1: a box of half extent 2e38 and a unit box, one step.
    let huge = Enc::default().byte(1).byte(1).byte(1)
        .byte(0).byte(1).raw3(2e38, 2e38, 2e38).q3(0.0, 0.0, 0.0).id().byte(1).byte(0).byte(0)
        .byte(0).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).id().byte(1).byte(0).byte(0)
        .byte(9);
    // A static box of half extent 1e20 far away: the box–sphere contact at the origin
    // is not reported.
    let ground = Enc::default().byte(1).byte(1).byte(1)
        .byte(0).cuboid(1.0, 1.0, 1.0).q3(0.0, 0.0, 0.0).id().byte(0).byte(0).byte(0)
        .byte(0).sphere(1.0).q3(1.5, 0.0, 0.0).id().byte(1).byte(0).byte(0)
        .byte(0).byte(1).raw(1e20).q(1.0).q(1.0).q3(0.0, 30.0, 0.0).id().byte(0).byte(0).byte(0)
        .byte(9);
    let cloud = |points: &[[f32; 3]]| {
        points.iter().fold(Enc::default().byte(1).byte(0).byte(points.len() as u8), |e, p| e.raw3(p[0], p[1], p[2]))
    };
    // A flat tetrahedron: two faces meet at a knife edge; its Gauss arc misses them.
    let knife = cloud(&[[-26.137695, -26.75, 1.7783203], [-4.75, 2.0249024e-14, 1e-45], [26.75, 0.06738281, 0.0], [0.0, 0.0, 0.0]]);
    // Points near f32::MAX: a plane offset rounds to infinity.
    let near_max = cloud(&[
        [-0.25, 3e38, 5.5214844], [-3.4028235e38, 21.25, 21.25], [21.25, 21.25, -1e-45], [3e38, 5.5, 3e38],
        [3e38, 3e38, 0.0], [1e-7, 3e38, 3e38], [3e38, 0.0, 0.0], [0.0, 0.0, 0.0],
    ]);
    // Box–box edge–edge with one box 2e13 long: NaN manifold point, finite depth.
    let long_edge = Enc::default().byte(1)
        .byte(1).raw3(27.0, 9.75, 0.05274572).raw3(-1.1048459e-7, -3.7500048, 12.0).turn(1, 2, 2, 70)
        .byte(1).raw3(1e13, 11.25, 21.93457).raw3(31.75, -5.899414, -2.3671875).id();
    vec![
        ("hull_builder", "gauss-arc-knife-edge", knife),
        ("hull_builder", "huge-hull-infinite-offset", near_max),
        ("narrow_phase", "long-box-edge-nan", long_edge),
        ("world_script", "huge-static-box-hides-contacts", ground),
        ("narrow_phase", "issue9-needle-thin-hull", p2(thin(p1(needle(start()))))),
        ("narrow_phase", "near-unit-rotation-normal-length", Enc::default().byte(1).cuboid(0.5, 0.5, 0.5).q3(0.0, 0.0, 0.0).raw_quat(0.0, 0.0, 0.0, 1.0005).cuboid(0.5, 0.5, 0.5).q3(0.5, 0.5, 0.0).id()),
        ("world_script", "issue9-huge-box-step", huge),
    ]
}

fn main() {
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fuzz/corpus".into());
    let sets = [
        ("hull_builder", hull_seeds()),
        ("narrow_phase", narrow_seeds()),
        ("capsule_mesh", capsule_mesh_seeds()),
        ("world_script", world_seeds()),
        ("world_all_shapes", world_all_shapes_seeds()),
    ];
    let found = Path::new(&root).join("../artifacts-found");
    for (target, name, enc) in open_bug_inputs() {
        let dir = found.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), &enc.0).unwrap();
        let code = sepax_fuzzing::describe(target, &enc.0).unwrap();
        println!("// artifacts-found/{target}/{name}\n{code}\n");
    }
    for (target, seeds) in sets {
        let dir = Path::new(&root).join(target);
        std::fs::create_dir_all(&dir).unwrap();
        for (name, enc) in seeds {
            std::fs::write(dir.join(name), &enc.0).unwrap();
            let code = sepax_fuzzing::describe(target, &enc.0).unwrap();
            println!("// {target}/{name}\n{code}\n");
        }
    }
}
