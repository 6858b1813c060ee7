use sepax_geometry::Shape;
use sepax_testkit::pairs::{box_hull_pairs, sphere_hull_pairs};
#[test]
fn stats() {
    let pairs = sphere_hull_pairs(5, 256, 24);
    let (mut touching, mut inside, mut proj, mut front_total, mut faces_total) = (0, 0, 0, 0, 0);
    for p in &pairs {
        let Shape::ConvexHull(h) = &p.b else { panic!() };
        let c = p.pose_b.inverse().transform_point(p.pose_a.translation);
        let ds: Vec<f32> = h.planes().iter().map(|pl| pl.signed_distance(c)).collect();
        let front = ds.iter().filter(|d| **d > 0.0).count();
        front_total += front;
        faces_total += ds.len();
        let m = sepax_narrowphase::contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0);
        touching += m.is_some() as usize;
        let best = ds.iter().cloned().fold(f32::MIN, f32::max);
        if best <= 0.0 {
            inside += 1;
        }
        let _ = &mut proj;
    }
    eprintln!("touching {touching} inside {inside} front {front_total} faces {faces_total}");
    let t = box_hull_pairs(13, 256, 24)
        .iter()
        .filter(|p| sepax_narrowphase::contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0).is_some())
        .count();
    eprintln!("box-hull touching {t}");
}
#[test]
fn caps_hash() {
    use sepax_testkit::pairs::*;
    let mut h: u64 = 0;
    for p in capsule_box_pairs(6, 256)
        .iter()
        .chain(capsule_capsule_pairs(7, 256).iter())
        .chain(apart_capsule_pairs(3, 256).iter())
        .chain(hull_pairs(24, 64, 24).iter())
        .chain(box_pairs(4, 256, PairKind::Touching).iter())
    {
        for v in p
            .pose_b
            .translation
            .to_array()
            .iter()
            .chain(p.pose_a.translation.to_array().iter())
        {
            h = h.wrapping_mul(1000003) ^ v.to_bits() as u64;
        }
    }
    eprintln!("hash {h:x}");
}
