//! StaticBvh answers equal a brute-force scan; deep trees do not panic.

use glam::Vec3;
use sepax_broadphase::{ProxyId, RayEntry, StaticBvh};
use sepax_geometry::{Aabb, rng::Rng};
use sepax_testkit::clouds::random_boxes;

fn brute_rays(items: &[(ProxyId, Aabb)], o: Vec3, d: Vec3, max_t: f32) -> Vec<RayEntry> {
    let mut hits: Vec<RayEntry> = items
        .iter()
        .filter_map(|(id, b)| b.ray_entry(o, d, max_t).map(|t| RayEntry { id: *id, t }))
        .collect();
    hits.sort_by(|a, b| a.t.total_cmp(&b.t).then(a.id.cmp(&b.id)));
    hits
}

fn check_queries(items: &[(ProxyId, Aabb)], rng: &mut Rng, half: f32) {
    let bvh = StaticBvh::build(items).unwrap();
    assert_eq!(bvh.len(), items.len());
    let mut got = Vec::new();
    for _ in 0..200 {
        let c = rng.vec3(Vec3::splat(-half), Vec3::splat(half));
        let s = rng.vec3(Vec3::ZERO, Vec3::splat(half * 0.3));
        let region = Aabb::new(c, c + s);
        bvh.query_aabb(&region, &mut got).unwrap();
        let want: Vec<ProxyId> = items
            .iter()
            .filter(|(_, b)| b.overlaps(&region))
            .map(|(id, _)| *id)
            .collect();
        assert_eq!(got, want);

        let o = rng.vec3(Vec3::splat(-2.0 * half), Vec3::splat(2.0 * half));
        // Axis-aligned rays too: zero direction components take the slab special case.
        let d = match rng.below(3) {
            0 => rng.unit_vec3(),
            1 => Vec3::X,
            _ => Vec3::new(0.0, -1.0, 1.0),
        };
        let max_t = rng.range(0.0, 4.0 * half);
        let all = bvh.cast_ray(o, d, max_t).unwrap();
        let want = brute_rays(items, o, d, max_t);
        assert_eq!(all, want);
        assert_eq!(
            bvh.cast_ray_first(o, d, max_t).unwrap(),
            want.first().copied()
        );
    }
}

#[test]
fn queries_match_brute_force() {
    let mut rng = Rng::new(31);
    let items: Vec<(ProxyId, Aabb)> = random_boxes(&mut rng, 3000, 30.0, 0.2, 3.0)
        .into_iter()
        .enumerate()
        .map(|(i, b)| (ProxyId(i as u32 * 3 + 1), b))
        .collect();
    check_queries(&items, &mut rng, 30.0);
    // A lattice of touching unit boxes: rays and regions along shared faces.
    let mut lattice = Vec::new();
    for i in 0..10 {
        for j in 0..10 {
            let c = Vec3::new(i as f32, j as f32, 0.0);
            lattice.push((ProxyId(lattice.len() as u32), Aabb::new(c, c + 1.0)));
        }
    }
    check_queries(&lattice, &mut rng, 5.0);
}

/// Regression: bvh 0.13's `traverse_iterator` keeps a fixed 32-entry stack and
/// panicked (index out of bounds) on trees deeper than 32. Boxes whose positions grow
/// geometrically (2^-100 .. 2^60 along x) make the binned SAH build split off only
/// the few farthest boxes per level, which gives a tree deeper than 32; every query
/// must still answer exactly, without panicking.
#[test]
fn deep_tree_queries_do_not_panic() {
    let items: Vec<(ProxyId, Aabb)> = (-100..60)
        .map(|i| {
            let c = 2f32.powi(i);
            let b = Aabb::new(Vec3::new(c, 0.0, 0.0), Vec3::new(c * 1.01, 1.0, 1.0));
            (ProxyId((i + 100) as u32), b)
        })
        .collect();
    let bvh = StaticBvh::build(&items).unwrap();
    assert!(
        bvh.depth() > 32,
        "scene must build a deep tree, got depth {}",
        bvh.depth()
    );
    let mut got = Vec::new();
    for (_, region) in &items {
        bvh.query_aabb(region, &mut got).unwrap();
        let want: Vec<ProxyId> = items
            .iter()
            .filter(|(_, b)| b.overlaps(region))
            .map(|(id, _)| *id)
            .collect();
        assert_eq!(got, want);
    }
    let o = Vec3::new(-1.0, 0.5, 0.5);
    let hits = bvh.cast_ray(o, Vec3::X, f32::INFINITY).unwrap();
    assert_eq!(hits, brute_rays(&items, o, Vec3::X, f32::INFINITY));
    assert_eq!(hits.len(), items.len());
    assert_eq!(
        bvh.cast_ray_first(o, Vec3::X, f32::INFINITY).unwrap(),
        hits.first().copied()
    );
}
