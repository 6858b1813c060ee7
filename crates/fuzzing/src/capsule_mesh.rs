//! Target `capsule_mesh`: [`collide`], [`contact`] and [`intersects`] on a capsule or a
//! triangle mesh against any shape (sphere, box, hull, capsule, mesh) at any poses,
//! decoded from bytes ([`decode`]), checked as a [`NarrowCase`].
//!
//! The `narrow_phase` target builds spheres, boxes and hulls only (its decoder stays as
//! it is, so that its corpus keeps decoding to the same cases); this one covers the
//! pair paths it never reaches: capsule–capsule, capsule–box, capsule–hull,
//! capsule–sphere, and every shape against a mesh (the one-sided triangle tests, the
//! internal-edge corrections and the merge of the triangles' patches).
//!
//! **Checked** (tolerances as in [`narrow`](crate::narrow): `size` the sum of the
//! bounding radii, `round` the f32 rounding of b's position seen from a):
//! * nothing panics; an invalid pose gives `None` / `false` everywhere; two meshes
//!   never touch (documented: the mesh path answers `None` / `false` for them);
//! * every output is finite while the answer is representable; a manifold has 1 to 4
//!   points and a unit normal;
//! * `intersects(a, b) == contact(a, b, margin 0).is_some()`, in both orders;
//! * `collide` agrees with `contact` (a manifold needs a contact, a touching contact
//!   gives a manifold), and a second `collide` with the cache the first left gives the
//!   same manifold, as does `collide_full`;
//! * **order symmetry**: `contact(b, a)` is `contact(a, b)` mirrored bit for bit (every
//!   pair is computed in one order), or only one sees a contact within the verdict band;
//! * **the f64 oracles**, for poses with unit rotations: a capsule against a convex
//!   shape by [`capsule_separation`] (verdict outside the band, depth within
//!   `1e-4 · size + round`); a convex shape against a mesh by [`mesh_verdict_gap`],
//!   the verdict only (the mesh path corrects normals and depths on internal edges by
//!   design; the twin reports the raw per-triangle values), and not where a triangle's
//!   plane passes within the band of the shape's centre (the one-sided rule is
//!   undecided there, see `centre_on_a_plane`).
//!
//! [`collide`]: sepax_narrowphase::collide
//! [`contact`]: sepax_narrowphase::contact
//! [`intersects`]: sepax_narrowphase::intersects
//! [`capsule_separation`]: sepax_narrowphase::oracle::capsule_separation
//! [`mesh_verdict_gap`]: sepax_narrowphase::oracle::mesh::mesh_verdict_gap

use crate::bytes::{Bytes, Mode};
use crate::decode::ShapeSpec;
use crate::known::Tolerance;
use crate::narrow::NarrowCase;

/// Runs the target on one input; panics only on a broken invariant (except those of
/// the open bugs `allowed` tolerates, on their conditions).
pub fn run(data: &[u8], allowed: Tolerance) {
    let case = decode(data);
    if let Some((a, b)) = case.shapes() {
        case.check(&a, &b, allowed);
    }
}

/// The case of the bytes: a capsule or a mesh, any shape. Byte 0: bit 0 picks
/// [`Mode::Wild`], bit 1 makes a a mesh ([`ShapeSpec::decode_mesh`]) instead of a
/// capsule, bits 2–3 pick the margin (0 three times out of four). Then shape a, pose a,
/// shape b ([`ShapeSpec::decode_any`]), pose b, margin. Checked as every
/// [`NarrowCase`] is.
pub fn decode(data: &[u8]) -> NarrowCase {
    let shape_a = |flags: u8, b: &mut Bytes, mode: Mode| {
        if flags & 2 == 0 {
            ShapeSpec::decode_capsule(b, mode)
        } else {
            ShapeSpec::decode_mesh(b, mode)
        }
    };
    NarrowCase::decode_with(data, shape_a, |_, b, mode| ShapeSpec::decode_any(b, mode))
}
