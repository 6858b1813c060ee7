//! Contacts between a triangle mesh (shape a) and a convex shape (b): one-sided,
//! internal edges removed, merged into one manifold per pair of bodies.
//!
//! The mesh's own structure (its BVH, its adjacency) lives in geometry; the caller
//! passes every triangle whose box overlaps the convex's bounding box (grown by the
//! contact margin), each a
//! [`MeshTriangle`] (mesh frame, with its internal-edge flags) with its index in the
//! mesh. Everything here runs in the **convex's frame** (see `local`), the normal
//! pointing from the mesh to the convex, as every a → b normal in sepax.
//!
//! ## One triangle
//! A triangle is a flat polytope. Box and hull run a separating-axis test against it
//! (a box: 13 closed-form axes, `box_triangle`; a hull: its faces and every edge
//! pair, `hull_triangle`), a sphere takes the triangle's closest point
//! (`sphere_triangle`); the points come from the project's clipper (`points`). A
//! capsule takes the exact distance from its core segment to the triangle, and a
//! separating-axis test over the front normal and the core × edge axes when the core
//! crosses the triangle; lying along the face it gets two points, its core clipped by
//! the triangle's sides (`capsule_triangle`).
//!
//! ## One-sided
//! The mesh is solid **behind** its front faces (the side its counter-clockwise corners
//! face away from):
//! * a convex whose centre (a box's centre, a hull's centroid, a sphere's or a capsule's
//!   centre) lies
//!   behind a triangle's plane gets no contact from that triangle — it is inside the
//!   ground, or on the far side of a thin wall, and pushing it back through would be
//!   wrong either way;
//! * otherwise the contact normal never points behind the triangle: only axes `L` with
//!   `L · n ≥ 0` compete for it (see `sat`); the verdict (apart or not) still uses
//!   every axis.
//!
//! So a mesh is a surface with a solid side, for ground, walls and level geometry. A
//! closed convex mesh is **not** its convex hull: each triangle answers for what lies
//! over it, and the manifold takes the deepest triangle's normal, so a contact with it
//! can differ from the hull's (of 8,158 shallow pairs of random hulls against the
//! meshes of random hulls' faces, 2,717 had a depth or a normal more than 1e-5 of the
//! size off the hull's, 5 December 2026). For a convex body, build a
//! [`ConvexHull`](sepax_geometry::ConvexHull) (`ConvexHull::try_from_points` on the
//! mesh's vertices): its contacts are exact.
//!
//! ## Internal edges
//! A contact on an edge or corner that the mesh marks inactive (flat or concave: see
//! [`MeshTriangle`]) takes the triangle's front normal, with depths re-measured along
//! it, and keeps only the points over that triangle (see `internal_edges`). An active
//! edge or corner keeps the test's normal while it lies within the range of normals of
//! the faces that meet there, and is moved to the nearest of them otherwise (see
//! `cone`; spheres and capsules skip it: their edge normals run from the edge to the
//! nearest point of the shape's core, which the neighbouring face out-competes whenever
//! it lies beyond that face's normal). A box, a sphere, a hull and capsules (upright and
//! lying) sliding over a floor of 2,048 triangles keep a normal within 1° of up across
//! every seam, and within 1° of the exact surface normal over a gently rolling terrain
//! (`tests/mesh_sliding.rs`).
//!
//! ## Many triangles
//! Each triangle gives a patch (up to four points, one normal; two for a capsule); the
//! patches are merged
//! into **one manifold with at most four points** — the deepest patch's normal, the
//! points of patches within [`MERGE_ANGLE`] of it, depths re-measured along it (see
//! `merge`). Ids pack the triangle id in the high 32 bits, so they stay the same while
//! the same triangle's features touch.
//!
//! ## The margin
//! A margin adds the speculative contacts of the triangles apart within it and changes
//! no touching contact: a triangle the shape is apart from gives no point deeper than
//! minus its gap, whatever its internal edges or cones measure along a front normal
//! (`Patch::keep_apart`); speculative points do not stand in for an overlap's buried
//! contact; the cones look for neighbours among the triangles the query without the
//! margin passes. Tested on a steep terrain: spheres, boxes and capsules keep their
//! normal and depth, hulls their depth within the clip tolerance
//! (`tests/mesh_contacts.rs`). The scratch buffers ([`MeshScratch`]) are reused
//! from call to call: nothing is allocated per triangle.
//!
//! ## Cost
//! Counted with callgrind (`benches/examples/prof.rs`, per pair, November 2026): a box
//! against one touching triangle (`prof boxtri`) takes 4,335 instructions, a box–box
//! touching pair (`prof box touching`) 2,580 (1.7×), parry3d's `contact_manifolds`
//! for a `Triangle` and a `Cuboid` (`prof parry-boxtri`) 6,390; a box resting on a
//! floor, with the 8.6 triangles its box overlaps (`prof boxfloor`), 25,329 for its one
//! manifold; a 16-point hull against one triangle (`prof hulltri`) about 33,100; a
//! capsule against one touching triangle (`prof captri`) 2,958. In the `terrain` scene
//! (`examples/stress --scene terrain --frames 8 --threads 1`, callgrind with
//! `--toggle-collect='sepax_narrowphase::mesh::body::collide_mesh'`) a mesh pair (a box
//! or a lying capsule over about 9 triangles, the BVH query included) takes about
//! 26,800.
//!
//! Where that goes: per triangle, the transform to the convex's frame (about 250), the
//! test (about 1,100 for a box, 1,150 for a capsule: the exact core–triangle distance
//! in f64), and for a touching box the face points (about 1,500: three clips and a
//! reduction); per pair the BVH query (about 2,200, its sort of about 10 indices
//! included) and the merge (about 1,600). Two early-outs change no answer: a triangle
//! whose box is apart from the capsule's beyond the margin skips the distance, and a box
//! contact whose every candidate axis lies on an internal edge or corner goes straight
//! to the face's points (on a terrain, most triangles under a resting box).
//!
//! ```
//! use sepax_geometry::{Cuboid, MeshTriangle, Pose, Shape};
//! use sepax_narrowphase::mesh::{MeshScratch, collide_mesh_triangles};
//! use glam::Vec3;
//!
//! // Two triangles of a floor square at y = 0, front up; their shared diagonal is flat.
//! let mut t0 = MeshTriangle::lone([Vec3::new(-1.0, 0.0, -1.0), Vec3::new(-1.0, 0.0, 1.0), Vec3::new(1.0, 0.0, -1.0)]).unwrap();
//! let mut t1 = MeshTriangle::lone([Vec3::new(1.0, 0.0, -1.0), Vec3::new(-1.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 1.0)]).unwrap();
//! t0.active_edges[1] = false;
//! t1.active_edges[0] = false;
//! let cube = Shape::from(Cuboid::try_from_half_extents(Vec3::splat(0.25)).unwrap());
//! let resting = Pose::from_translation(Vec3::new(0.0, 0.24, 0.0));
//! let mut scratch = MeshScratch::default();
//! let m = collide_mesh_triangles([(0, t0), (1, t1)], &Pose::IDENTITY, &cube, &resting, 0.0, &mut scratch)
//!     .unwrap();
//! assert!((m.normal - Vec3::Y).length() < 1e-6);
//! assert_eq!(m.points.len(), 4);
//! assert!(m.points.iter().all(|p| (p.depth - 0.01).abs() < 1e-5));
//! ```

mod body;
mod box_triangle;
mod capsule_triangle;
mod cone;
mod hull_triangle;
mod internal_edges;
mod local;
mod merge;
mod patch;
mod points;
mod sat;
mod sphere_triangle;

pub(crate) use body::with_thread_scratch;
pub use body::{MeshQueryScratch, collide_mesh, contact_mesh};
pub use merge::MERGE_ANGLE;

use crate::ManifoldPoints;
use crate::contact::{Contact, Feature, Manifold, ManifoldPoint};
use crate::frame::Frame;
use crate::manifold::CLIP_TOLERANCE;
use crate::manifold::reduce::Candidate;
use crate::math::sanitize_margin;
use crate::polytope::{BoxPolytope, Polytope};
use crate::sat::SatOutcome;
use crate::sat::capsule::Core;
use capsule_triangle::capsule_triangle;
use cone::clamp_to_cones;
use internal_edges::{axis_feature, is_active};
use local::{Convex, ExactTriangle, LocalTriangle};
use merge::{merged_points, reference_patch, with_triangle};
use patch::{Against, Patch, convex_outcome, kept_apart, triangle_patch};
use sepax_geometry::{Aabb, MeshTriangle, Pose, Shape};

/// Buffers reused by [`collide_mesh_triangles`] from one call to the next (one per
/// thread): after the first calls, no allocation.
#[derive(Clone, Debug, Default)]
pub struct MeshScratch {
    patches: Vec<(u32, Patch)>,
    /// Contacts with nothing over their triangle (see `patch::buried_patch`).
    buried: Vec<(u32, Patch)>,
    /// The triangles the cones search for neighbours.
    triangles: Vec<(u32, LocalTriangle)>,
    gathered: Vec<Candidate>,
    /// The last manifold's deepest point before its reduction to four: the depth the
    /// `contact` functions report (see [`contact_mesh_triangles`]).
    deepest: f32,
}

impl MeshScratch {
    /// The contact of `manifold`, the last one built with this scratch: its normal and
    /// feature, the depth of its deepest point before the reduction.
    pub(crate) fn contact_of(&self, manifold: &Manifold) -> Contact {
        Contact {
            normal: manifold.normal,
            depth: self.deepest,
            feature: manifold.feature,
        }
    }
}

/// Runs `f` with the shape as the triangle tests see it (a box's polytope on the stack).
fn with_against<R>(shape: &Shape, f: impl FnOnce(Against) -> R) -> R {
    match shape {
        Shape::Sphere(s) => f(Against::Sphere(s.radius())),
        Shape::Cuboid(c) => {
            let half = c.half_extents();
            let boxed = BoxPolytope::new(half);
            f(Against::Convex(Convex::Box {
                half,
                poly: boxed.view(),
            }))
        }
        Shape::ConvexHull(h) => f(Against::Convex(Convex::Hull(Polytope::from_hull(h)))),
        Shape::Capsule(c) => f(Against::Capsule(Core::local(c.half_height(), c.radius()))),
        Shape::TriMesh(_) => unreachable!("meshes are filtered out by the callers"),
    }
}

fn inner_radius(shape: &Shape) -> f32 {
    match shape {
        Shape::Sphere(s) => s.radius(),
        Shape::Cuboid(c) => c.half_extents().min_element(),
        Shape::ConvexHull(h) => h.inradius(),
        Shape::Capsule(c) => c.radius(),
        Shape::TriMesh(_) => 0.0,
    }
}

/// The contact manifold of a mesh (shape a, at `mesh_pose`) and a convex `shape` at
/// `pose`, from the mesh's `triangles` that may touch it: `(index in the mesh,
/// triangle in the mesh frame)` for **every** triangle whose box overlaps the shape's
/// box grown by `margin` (the neighbours of a touched edge or corner are among them,
/// which the active-edge cones rely on; see the [module docs](self)).
///
/// One manifold, at most four points, its normal from the mesh to the shape: see the
/// [module docs](self) for the one-sided rule, the internal edges and the merging.
/// `None` when no triangle gives a contact within `margin` (or its deepest point, whose
/// depth is computed apart from the test's verdict, lies more than `margin` apart by
/// round-off), or a pose is not [`Pose::is_valid`]. The manifold's `feature` is the
/// reference triangle's:
/// `FaceA(triangle)`, `EdgeEdge(3 · triangle + edge, edge of the shape)` (wrapping), or
/// `FaceB(face of the shape)`; `Sphere` for a sphere; for a capsule `FaceA(triangle)`
/// or `EdgeEdge(3 · triangle + edge, 0)` (a corner names the edge leaving it). A negative or NaN margin counts
/// as 0; a triangle with non-finite corners or normal is skipped.
pub fn collide_mesh_triangles(
    triangles: impl IntoIterator<Item = (u32, MeshTriangle)>,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    margin: f32,
    scratch: &mut MeshScratch,
) -> Option<Manifold> {
    // A mesh does not collide with a mesh.
    if matches!(shape, Shape::TriMesh(_)) {
        return None;
    }
    if !(mesh_pose.is_valid() && pose.is_valid()) {
        return None;
    }
    let margin = sanitize_margin(margin);
    // (Only a margin reads it: see `collide_mesh_triangles_within`.)
    let reach = (margin > 0.0)
        .then(|| body::box_in_mesh(mesh_pose, shape, pose))
        .filter(Aabb::is_valid);
    collide_mesh_triangles_within(triangles, (mesh_pose, shape, pose), margin, reach, scratch)
}

/// [`collide_mesh_triangles`] (valid poses, a convex shape, a sanitised margin) given
/// the shape's own box in the mesh's frame, `reach`, among whose triangles the cones
/// look for neighbours (all of them when `None`).
pub(crate) fn collide_mesh_triangles_within(
    triangles: impl IntoIterator<Item = (u32, MeshTriangle)>,
    (mesh_pose, shape, pose): (&Pose, &Shape, &Pose),
    margin: f32,
    reach: Option<Aabb>,
    scratch: &mut MeshScratch,
) -> Option<Manifold> {
    // Without a margin the call's triangles are the bare query's: no filter.
    let reach = reach.filter(|_| margin > 0.0);
    let clip_tolerance = CLIP_TOLERANCE * inner_radius(shape);
    // The mesh in the convex's frame: `point_to_a` maps mesh points there.
    let (mesh_in_convex, exact_frame) = Frame::with_f64(pose, mesh_pose);
    scratch.patches.clear();
    scratch.buried.clear();
    scratch.triangles.clear();
    // The cones look for neighbours among the triangles the shape's own box (no
    // margin) overlaps: the triangles of the call without a margin, so that a margin
    // changes no touching contact (see `cone`).
    let (normal, feature, points, deepest) = with_against(shape, |against| {
        for (id, triangle) in triangles {
            let tri = LocalTriangle::new(&triangle, &mesh_in_convex);
            // A triangle with non-finite corners or normal (its fields are public) is
            // skipped rather than let NaN into the merge.
            if !tri.is_finite() {
                continue;
            }
            let [a, b, c] = triangle.vertices;
            let bounds = || Aabb::new(a.min(b).min(c), a.max(b).max(c));
            if reach.is_none_or(|reach| bounds().overlaps(&reach)) {
                scratch.triangles.push((id, tri));
            }
            let tri64 = ExactTriangle::new(&exact_frame, &triangle);
            if let Some(patch) = triangle_patch(&against, &tri, &tri64, margin, clip_tolerance) {
                match patch.buried {
                    false => scratch.patches.push((id, patch)),
                    true => scratch.buried.push((id, patch)),
                }
            }
        }
        if let Against::Convex(convex) = against {
            clamp_to_cones(
                &mut scratch.patches,
                &mut scratch.buried,
                &scratch.triangles,
                &convex,
                margin,
                clip_tolerance,
            );
        }
        // No triangle gives a touching contact: the deepest of those kept aside joins
        // when it is deeper than every patch (a margin's speculative patches do not hide
        // a buried overlap).
        let mut reference = reference_patch(&scratch.patches);
        let deepest = reference.map(|k| scratch.patches[k].1.depth());
        if deepest.is_none_or(|depth| depth < 0.0)
            && let Some(k) = reference_patch(&scratch.buried)
            && deepest.is_none_or(|depth| scratch.buried[k].1.depth() > depth)
        {
            let buried = scratch.buried.swap_remove(k);
            scratch.patches.push(buried);
            reference = Some(scratch.patches.len() - 1);
        }
        let reference = reference?;
        let (id, patch) = &scratch.patches[reference];
        // The verdict of a triangle's test and the depths of its points are computed
        // apart; where they disagree by round-off (or the input is beyond f32), the deepest
        // point can lie below the margin. The pair is then apart, for `contact` and
        // `intersects` as for this manifold.
        if patch.depth() < -margin {
            return None;
        }
        let normal = patch.normal;
        let feature = mesh_feature(*id, patch.feature);
        let (points, deepest) = if feature == Feature::Sphere {
            let mut point = patch.points[0];
            point.id = with_triangle(*id, point.id);
            (smallvec::smallvec![point], point.depth)
        } else {
            let corners = match &against {
                Against::Convex(convex) => Some((convex.polytope(), &scratch.triangles[..])),
                _ => None,
            };
            merged_points(
                &scratch.patches,
                reference,
                normal,
                clip_tolerance,
                corners,
                &mut scratch.gathered,
            )
        };
        Some((normal, feature, points, deepest))
    })?;
    scratch.deepest = deepest;
    // The reference patch joins its own merge unless its normal is not unit: only with
    // coordinates whose squares overflow f32 (a hull 1e29 wide), where no answer is
    // representable. No manifold then, rather than one without points.
    if points.is_empty() {
        return None;
    }
    let rotation = pose.rotation.normalize();
    let world = Pose::new(pose.translation, rotation);
    // The merge reduces to at most four points, all a manifold holds (`extend` would
    // drop a fifth rather than fail).
    let mut manifold_points = ManifoldPoints::new();
    manifold_points.extend(points.iter().map(|c| {
        let half = normal * (0.5 * c.depth);
        ManifoldPoint {
            position: world.transform_point(c.point),
            depth: c.depth,
            id: c.id,
            anchor_a: mesh_in_convex.point_to_b(c.point + half),
            anchor_b: c.point - half,
        }
    }));
    Some(Manifold {
        normal: rotation * normal,
        points: manifold_points,
        feature,
    })
}

/// The deepest contact of a mesh and a convex shape: the normal and feature of
/// [`collide_mesh_triangles`]'s manifold, and the depth of the deepest point its
/// triangles gave along that normal. A reduction to four points keeps a point within the
/// clip tolerance of the deepest (the earliest of near ties, so that the ids stay from
/// frame to frame), so the manifold's own [`Manifold::depth`] can be up to
/// [`CLIP_TOLERANCE`] times the shape's inner radius less (a triangle's points are
/// reduced, then the merged ones, with what the first reduction dropped). Same
/// arguments.
pub fn contact_mesh_triangles(
    triangles: impl IntoIterator<Item = (u32, MeshTriangle)>,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    margin: f32,
    scratch: &mut MeshScratch,
) -> Option<Contact> {
    let manifold = collide_mesh_triangles(triangles, mesh_pose, shape, pose, margin, scratch)?;
    Some(scratch.contact_of(&manifold))
}

/// The contact of one triangle (mesh frame, at `mesh_pose`) and a convex shape: the
/// exact axis of the one-sided test (the largest gap over the axes with `L · n ≥ 0`;
/// for a sphere, the closest point; for a capsule, the closest points of its core, or
/// that largest gap when the core crosses the triangle), normal from the triangle to
/// the shape. An axis on
/// an inactive edge or corner gives the front normal with the depth along it. `None`
/// when apart beyond `margin`, when the shape's centre is behind the triangle's plane,
/// or for an invalid pose.
pub fn contact_triangle(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    margin: f32,
) -> Option<Contact> {
    // A mesh does not collide with a mesh.
    if matches!(shape, Shape::TriMesh(_)) {
        return None;
    }
    if !(mesh_pose.is_valid() && pose.is_valid()) {
        return None;
    }
    let margin = sanitize_margin(margin);
    let (mesh_in_convex, exact_frame) = Frame::with_f64(pose, mesh_pose);
    let tri = LocalTriangle::new(triangle, &mesh_in_convex);
    let tri64 = ExactTriangle::new(&exact_frame, triangle);
    let rotation = pose.rotation.normalize();
    with_against(shape, |against| {
        let (normal, depth, feature) = match against {
            Against::Sphere(_) => {
                let patch = triangle_patch(&against, &tri, &tri64, margin, 0.0)?;
                (patch.normal, patch.depth(), Feature::Sphere)
            }
            // A shape apart from the triangle stays apart (see `Patch::keep_apart`):
            // along the front normal, or along an eligible axis that reads an overlap,
            // the depth is at most minus the test's gap.
            Against::Capsule(core) => {
                let test = capsule_triangle(&core, &tri, &tri64, margin)?;
                let exact = test.exact;
                if is_active(&tri, test.on) {
                    let depth = kept_apart(-exact.separation, test.gap);
                    (exact.normal, depth, exact.feature)
                } else {
                    let depth = kept_apart(-test.face.separation, test.gap);
                    (tri.normal, depth, Feature::FaceA(0))
                }
            }
            Against::Convex(convex) => {
                let (SatOutcome::Overlap { exact, .. }, gap) =
                    convex_outcome(&convex, &tri, &tri64, margin)?
                else {
                    return None;
                };
                if is_active(&tri, axis_feature(&tri, &exact)) {
                    let depth = kept_apart(-exact.separation, gap);
                    (exact.normal, depth, exact.feature)
                } else {
                    let lowest = -convex.polytope().support(-tri.normal).1;
                    let depth = kept_apart(tri.offset - lowest, gap);
                    (tri.normal, depth, Feature::FaceA(0))
                }
            }
        };
        Some(Contact {
            normal: rotation * normal,
            depth,
            feature,
        })
    })
}

/// [`collide_mesh_triangles`] for one triangle (index 0), with its own scratch.
pub fn collide_triangle(
    triangle: &MeshTriangle,
    mesh_pose: &Pose,
    shape: &Shape,
    pose: &Pose,
    margin: f32,
) -> Option<Manifold> {
    collide_mesh_triangles(
        [(0, *triangle)],
        mesh_pose,
        shape,
        pose,
        margin,
        &mut MeshScratch::default(),
    )
}

/// A triangle patch's feature with the triangle's index (see [`collide_mesh_triangles`]).
fn mesh_feature(triangle: u32, feature: Feature) -> Feature {
    match feature {
        Feature::FaceA(_) => Feature::FaceA(triangle),
        Feature::EdgeEdge(i, j) => Feature::EdgeEdge(triangle.wrapping_mul(3).wrapping_add(i), j),
        other => other,
    }
}
