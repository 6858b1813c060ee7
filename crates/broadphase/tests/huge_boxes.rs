//! Issue 9, item 1: boxes as wide as `f32::MAX` or lying near `±f32::MAX` are valid
//! input. Their fat boxes used to grow to `±inf`, and the sweep's sentinel
//! (`min_a = +inf`) then no longer stopped the forward loop: `index out of bounds` in
//! `sweep.rs`. Fat boxes are now clamped to `±f32::MAX`; these scenes must pair
//! exactly as the brute-force oracle says, on every path (one list, grid with big
//! boxes, patched escapes, statics).

use glam::Vec3;
use sepax_broadphase::ProxyKind;
use sepax_geometry::{Aabb, rng::Rng};
use sepax_testkit::broad_twin::BroadPhaseTwin;
use sepax_testkit::clouds::random_boxes;

const M: f32 = f32::MAX;

/// Huge boxes of every kind of extreme: wider than `f32::MAX`, touching `±f32::MAX`,
/// far out on either side.
fn huge_boxes() -> Vec<Aabb> {
    vec![
        Aabb::new(Vec3::splat(-M), Vec3::splat(M)),
        Aabb::new(Vec3::splat(-2e38), Vec3::splat(2e38)),
        Aabb::new(Vec3::splat(3.2e38), Vec3::splat(M)),
        Aabb::new(Vec3::splat(-M), Vec3::splat(-3.2e38)),
        Aabb::new(Vec3::new(-M, -1.0, -1.0), Vec3::new(M, 1.0, 1.0)),
        Aabb::new(Vec3::new(-0.5, -M, -0.5), Vec3::new(0.5, 0.0, 0.5)),
    ]
}

#[test]
fn issue_9_repro_huge_box_and_unit_box_pair_without_panic() {
    let mut pair = BroadPhaseTwin::new();
    pair.insert(
        Aabb::new(Vec3::splat(-2e38), Vec3::splat(2e38)),
        ProxyKind::Dynamic,
    );
    pair.insert(
        Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5)),
        ProxyKind::Dynamic,
    );
    for frame in 0..5 {
        assert_eq!(pair.check(&format!("frame {frame}")), 1);
    }
}

#[test]
fn issue_9_huge_dynamic_boxes_among_small_ones_match_the_oracle() {
    // 300 small boxes: enough for the grid, where huge boxes take the "big" path.
    for kind_of_huge in [ProxyKind::Dynamic, ProxyKind::Static] {
        let mut rng = Rng::new(9);
        let mut pair = BroadPhaseTwin::new();
        for b in random_boxes(&mut rng, 300, 20.0, 0.5, 1.5) {
            pair.insert(b, ProxyKind::Dynamic);
        }
        let huge: Vec<_> = huge_boxes()
            .into_iter()
            .map(|b| pair.insert(b, kind_of_huge))
            .collect();
        pair.check("first frame");
        // Move the huge ones (escapes, patched or swept) and some small ones.
        for frame in 0..6 {
            for (k, &id) in huge.iter().enumerate() {
                let b = huge_boxes()[(k + frame + 1) % huge.len()];
                pair.update(id, b);
            }
            let ids = pair.ids.clone();
            for &id in ids.iter().step_by(7) {
                if huge.contains(&id) {
                    continue;
                }
                let a = pair.sap.aabb(id).unwrap();
                let d = rng.vec3(Vec3::splat(-3.0), Vec3::splat(3.0));
                pair.update(id, Aabb::new(a.min + d, a.max + d));
            }
            pair.check(&format!("{kind_of_huge:?} frame {frame}"));
        }
    }
}

#[test]
fn issue_9_only_huge_boxes_match_the_oracle() {
    let mut pair = BroadPhaseTwin::new();
    for b in huge_boxes() {
        pair.insert(b, ProxyKind::Dynamic);
    }
    for frame in 0..3 {
        pair.check(&format!("frame {frame}"));
    }
}

#[test]
fn issue_9_huge_boxes_in_a_gridded_scene_match_the_oracle() {
    // Enough small boxes for the grid. A huge box used to stretch the grid's
    // estimates (range, mean extent) to ±f32::MAX, turning the grid off.
    let mut rng = Rng::new(10);
    let mut pair = BroadPhaseTwin::new();
    for b in random_boxes(&mut rng, 6_000, 40.0, 0.5, 1.5) {
        pair.insert(b, ProxyKind::Dynamic);
    }
    let mut gridded = 0;
    for (frame, huge) in huge_boxes().into_iter().enumerate() {
        pair.insert(huge, ProxyKind::Dynamic);
        pair.check(&format!("frame {frame}"));
        gridded += (pair.sap.stats().grid != (1, 1)) as usize;
    }
    // Huge boxes do not turn the grid off for everyone else: they are big boxes.
    assert_eq!(gridded, huge_boxes().len());
}
