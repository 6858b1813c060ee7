use glam::{Quat, Vec3};
use sepax_geometry::{ConvexHull, Pose, Shape, Sphere};
use sepax_narrowphase::contact;
fn main() {
    let a: Shape = Sphere::try_new(0.0009765625).unwrap().into();
    let hv = [
        Vec3::new(0.49902344, -17.0, -19.75),
        Vec3::new(22.75, 0.0, 0.0),
        Vec3::new(3.008789, 22.75, 10.75),
        Vec3::new(0.5, 0.5, 0.0),
        Vec3::new(0.0, 2.25, 0.0),
        Vec3::new(15.75, 0.0, -21.5),
        Vec3::ZERO,
    ];
    let h = ConvexHull::try_from_points(&hv).unwrap();
    for (i, p) in h.planes().iter().enumerate() {
        println!(
            "face {i} {:?} d(centre) {}",
            p,
            p.signed_distance(Vec3::new(2.75, 0.0, 0.0))
        );
    }
    let b: Shape = h.into();
    let pa = Pose::new(
        Vec3::new(2.75, 0.0, 0.0),
        Quat::from_xyzw(0.0, 0.70710677, 0.0, -0.70710677),
    );
    let pb = Pose::IDENTITY;
    println!(
        "{:?}\n{:?}",
        contact(&a, &pa, &b, &pb, 0.0),
        contact(&b, &pb, &a, &pa, 0.0)
    );
}
