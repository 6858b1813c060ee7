//! Mesh contacts allocate nothing once the scratch buffers are warm (issue 10: "no
//! allocation per triangle pair in the step"): a counting global allocator around
//! repeated `collide_mesh_triangles` calls for a box, a sphere, a hull and a capsule on a
//! floor.
//!
//! Only allocations made on the thread that runs the calls are counted: the test
//! harness's own threads may allocate at any moment (CI once saw four such allocations
//! land inside the measured window), and they are not the mesh code's.

use glam::{Quat, Vec3};
use sepax_geometry::{Capsule, ConvexHull, Cuboid, MeshTriangle, Pose, Shape, Sphere};
use sepax_narrowphase::mesh::{MeshScratch, collide_mesh_triangles};
use sepax_testkit::counting_alloc::{Counting, allocations, count_this_thread};
use sepax_testkit::terrain::{flat_floor, triangles_with_flags};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn warm_scratch_collides_without_allocating() {
    count_this_thread();
    let triangles: Vec<(u32, MeshTriangle)> = triangles_with_flags(&flat_floor(6, 1.0))
        .into_iter()
        .enumerate()
        .map(|(i, t)| (i as u32, t))
        .collect();
    let shapes = [
        Shape::from(Cuboid::try_from_half_extents(Vec3::new(0.7, 0.3, 0.5)).unwrap()),
        Shape::from(Sphere::try_new(0.4).unwrap()),
        Shape::from(ConvexHull::cuboid(Vec3::splat(0.45)).unwrap()),
        Shape::from(Capsule::try_new(0.5, 0.3).unwrap()),
    ];
    let mut scratch = MeshScratch::default();
    let poses: Vec<Pose> = (0..50)
        .map(|k| {
            let x = -1.5 + 0.06 * k as f32;
            Pose::new(
                Vec3::new(x, 0.28, 0.1 * x),
                Quat::from_rotation_y(0.1 * k as f32),
            )
        })
        .collect();
    let run = |scratch: &mut MeshScratch| {
        let mut touching = 0;
        for shape in &shapes {
            for pose in &poses {
                let m = collide_mesh_triangles(
                    triangles.iter().copied(),
                    &Pose::IDENTITY,
                    shape,
                    pose,
                    0.02,
                    scratch,
                );
                touching += m.is_some() as usize;
            }
        }
        touching
    };
    // Warm-up: the scratch vectors grow to their working size.
    let touching = run(&mut scratch);
    assert!(touching > 100);
    assert!(
        allocations() > 0,
        "the counter sees this thread: the cold scratch grew during the warm-up"
    );
    let before = allocations();
    run(&mut scratch);
    let allocated = allocations() - before;
    assert_eq!(
        allocated,
        0,
        "{allocated} allocations in {} warm calls",
        shapes.len() * poses.len()
    );
}
