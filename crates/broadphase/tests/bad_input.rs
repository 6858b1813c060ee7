//! Bad input gets a named error, never a panic, and never reaches a sort.

use glam::Vec3;
use sepax_broadphase::{BroadPhaseError, BruteForce, ProxyId, ProxyKind, StaticBvh, SweepAndPrune};
use sepax_geometry::Aabb;

fn unit() -> Aabb {
    Aabb::new(Vec3::ZERO, Vec3::ONE)
}

#[test]
fn non_finite_and_inverted_boxes_are_refused() {
    let nan = Aabb::new(Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ONE);
    let inf = Aabb::new(Vec3::ZERO, Vec3::splat(f32::INFINITY));
    let inverted = Aabb::new(Vec3::ONE, Vec3::ZERO);
    let mut sap = SweepAndPrune::new();
    let mut bf = BruteForce::new();
    for kind in [ProxyKind::Static, ProxyKind::Dynamic] {
        let id = ProxyId(0);
        assert_eq!(
            sap.insert(id, nan, kind),
            Err(BroadPhaseError::NonFiniteAabb)
        );
        assert_eq!(
            sap.insert(id, inf, kind),
            Err(BroadPhaseError::NonFiniteAabb)
        );
        assert_eq!(
            sap.insert(id, inverted, kind),
            Err(BroadPhaseError::InvertedAabb)
        );
        assert_eq!(
            bf.insert(id, nan, kind),
            Err(BroadPhaseError::NonFiniteAabb)
        );
        assert_eq!(
            bf.insert(id, inverted, kind),
            Err(BroadPhaseError::InvertedAabb)
        );
    }
    assert!(sap.is_empty() && bf.is_empty());
    let (a, b) = (ProxyId(0), ProxyId(1));
    sap.insert(a, unit(), ProxyKind::Dynamic).unwrap();
    sap.insert(b, unit(), ProxyKind::Dynamic).unwrap();
    assert_eq!(sap.update(a, nan), Err(BroadPhaseError::NonFiniteAabb));
    assert_eq!(sap.update(a, inverted), Err(BroadPhaseError::InvertedAabb));
    assert_eq!(
        sap.aabb(a),
        Ok(unit()),
        "a refused update keeps the old box"
    );
    sap.update_pairs();
    assert_eq!(sap.pairs(), &[(a, b)]);
}

#[test]
fn unknown_and_removed_ids_are_errors() {
    let mut sap = SweepAndPrune::new();
    let ghost = ProxyId(7);
    assert_eq!(
        sap.update(ghost, unit()),
        Err(BroadPhaseError::UnknownProxy(ghost))
    );
    assert_eq!(sap.remove(ghost), Err(BroadPhaseError::UnknownProxy(ghost)));
    assert_eq!(sap.aabb(ghost), Err(BroadPhaseError::UnknownProxy(ghost)));
    let a = ProxyId(3);
    sap.insert(a, unit(), ProxyKind::Dynamic).unwrap();
    assert_eq!(
        sap.insert(a, unit(), ProxyKind::Static),
        Err(BroadPhaseError::ProxyExists(a)),
        "a live id is not inserted twice"
    );
    sap.remove(a).unwrap();
    assert_eq!(sap.remove(a), Err(BroadPhaseError::UnknownProxy(a)));
    assert_eq!(sap.update(a, unit()), Err(BroadPhaseError::UnknownProxy(a)));
    sap.update_pairs();
    assert!(sap.pairs().is_empty());
    let mut bf = BruteForce::new();
    assert_eq!(bf.remove(ghost), Err(BroadPhaseError::UnknownProxy(ghost)));
    assert_eq!(
        bf.update(ghost, unit()),
        Err(BroadPhaseError::UnknownProxy(ghost))
    );
}

#[test]
fn bvh_refuses_bad_boxes_and_rays() {
    let bad = [(ProxyId(0), Aabb::new(Vec3::ONE, Vec3::ZERO))];
    assert_eq!(
        StaticBvh::build(&bad).unwrap_err(),
        BroadPhaseError::InvertedAabb
    );
    let bvh = StaticBvh::build(&[(ProxyId(0), unit())]).unwrap();
    let mut out = vec![ProxyId(9)];
    let nan = Aabb::new(Vec3::splat(f32::NAN), Vec3::ONE);
    assert_eq!(
        bvh.query_aabb(&nan, &mut out),
        Err(BroadPhaseError::NonFiniteAabb)
    );
    assert!(out.is_empty());
    let o = Vec3::splat(-1.0);
    assert_eq!(
        bvh.cast_ray(o, Vec3::ZERO, 1.0),
        Err(BroadPhaseError::InvalidRay)
    );
    assert_eq!(
        bvh.cast_ray(o, Vec3::splat(f32::NAN), 1.0),
        Err(BroadPhaseError::InvalidRay)
    );
    assert_eq!(
        bvh.cast_ray(Vec3::splat(f32::INFINITY), Vec3::X, 1.0),
        Err(BroadPhaseError::InvalidRay)
    );
    assert_eq!(
        bvh.cast_ray_first(o, Vec3::X, -1.0),
        Err(BroadPhaseError::InvalidRay)
    );
    assert_eq!(
        bvh.cast_ray_first(o, Vec3::X, f32::NAN),
        Err(BroadPhaseError::InvalidRay)
    );
    // Issue 9: a denormal direction made the slab parameters ±inf or NaN; a
    // direction too long for |dir|² overflows it. Both are refused.
    for dir in [Vec3::X * 1e-45, Vec3::X * 1e-20, Vec3::X * 1e20] {
        assert_eq!(
            bvh.cast_ray(o, dir, f32::INFINITY),
            Err(BroadPhaseError::InvalidRay)
        );
        assert_eq!(
            bvh.cast_ray_first(o, dir, f32::INFINITY),
            Err(BroadPhaseError::InvalidRay)
        );
    }
    assert!(
        bvh.cast_ray(o, Vec3::ONE * 1e-18, f32::INFINITY)
            .unwrap()
            .len()
            == 1
    );
    assert!(bvh.cast_ray(o, Vec3::ONE, f32::INFINITY).unwrap().len() == 1);
    let empty = StaticBvh::build(&[]).unwrap();
    assert!(empty.is_empty());
    assert_eq!(empty.cast_ray_first(o, Vec3::X, 10.0), Ok(None));
}
