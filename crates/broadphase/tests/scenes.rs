//! Pair sets of SweepAndPrune equal brute force on one frame of many kinds of scenes,
//! below and above the grid and parallel thresholds.

use glam::Vec3;
use sepax_broadphase::{GRID_MIN_PROXIES, PARALLEL_MIN_PROXIES, ProxyKind};
use sepax_geometry::{Aabb, rng::Rng};
use sepax_testkit::broad_twin::check_scene;
use sepax_testkit::clouds::random_boxes;

const SIZES: [usize; 4] = [
    2,
    GRID_MIN_PROXIES - 50,
    GRID_MIN_PROXIES + 900,
    PARALLEL_MIN_PROXIES + 1000,
];

fn dynamic(_: usize) -> ProxyKind {
    ProxyKind::Dynamic
}

#[test]
fn empty_and_single() {
    assert_eq!(check_scene(&[], dynamic, "empty"), 0);
    let one = [Aabb::new(Vec3::ZERO, Vec3::ONE)];
    assert_eq!(check_scene(&one, dynamic, "one"), 0);
}

#[test]
fn sparse_scenes() {
    let mut rng = Rng::new(101);
    for n in SIZES {
        let half = (n as f32).cbrt() * 3.0;
        let boxes = random_boxes(&mut rng, n, half, 0.2, 1.5);
        check_scene(&boxes, dynamic, &format!("sparse {n}"));
    }
}

#[test]
fn dense_scenes() {
    let mut rng = Rng::new(102);
    for n in SIZES {
        let half = (n as f32).cbrt() * 0.6;
        let boxes = random_boxes(&mut rng, n, half, 0.5, 2.0);
        let pairs = check_scene(&boxes, dynamic, &format!("dense {n}"));
        assert!(
            n < 10 || pairs > n,
            "dense scene should have many pairs ({pairs})"
        );
    }
}

#[test]
fn all_on_one_point_and_identical_boxes() {
    let n = GRID_MIN_PROXIES + 100;
    let point = vec![Aabb::new(Vec3::splat(3.0), Vec3::splat(3.0)); n];
    assert_eq!(check_scene(&point, dynamic, "points"), n * (n - 1) / 2);
    let same = vec![Aabb::new(Vec3::splat(-1.0), Vec3::splat(2.0)); 300];
    assert_eq!(check_scene(&same, dynamic, "identical"), 300 * 299 / 2);
}

#[test]
fn flat_and_zero_size_boxes_on_a_lattice() {
    // Boxes on an integer lattice touching exactly at faces, plus flat slabs and points
    // sitting exactly on faces: every contact is a closed-interval tie.
    let mut boxes = Vec::new();
    for i in 0..12 {
        for j in 0..12 {
            for k in 0..12 {
                let c = Vec3::new(i as f32, j as f32, k as f32);
                match (i + j + k) % 3 {
                    0 => boxes.push(Aabb::new(c, c + 1.0)),
                    1 => boxes.push(Aabb::new(c, c + Vec3::new(1.0, 0.0, 1.0))),
                    _ => boxes.push(Aabb::new(c, c)),
                }
            }
        }
    }
    let pairs = check_scene(&boxes, dynamic, "lattice");
    assert!(pairs > boxes.len());
}

#[test]
fn coordinates_near_a_million() {
    let mut rng = Rng::new(103);
    for n in SIZES {
        let boxes: Vec<Aabb> = random_boxes(&mut rng, n, (n as f32).cbrt(), 0.25, 1.0)
            .into_iter()
            .map(|b| Aabb::new(b.min + 1.0e6, b.max + 1.0e6))
            .collect();
        check_scene(&boxes, dynamic, &format!("1e6 {n}"));
    }
}

#[test]
fn big_boxes_among_small_ones() {
    // A few huge boxes (more than 16 grid cells) and many small ones.
    let mut rng = Rng::new(104);
    let mut boxes = random_boxes(&mut rng, 3000, 20.0, 0.3, 1.2);
    boxes.extend(random_boxes(&mut rng, 20, 15.0, 10.0, 40.0));
    boxes.push(Aabb::new(
        Vec3::new(-30.0, -30.0, -0.1),
        Vec3::new(30.0, 30.0, 0.1),
    ));
    check_scene(&boxes, dynamic, "big");
}

#[test]
fn static_mixes() {
    let mut rng = Rng::new(105);
    for n in SIZES {
        let half = (n as f32).cbrt() * 1.2;
        let boxes = random_boxes(&mut rng, n, half, 0.3, 1.5);
        for every in [2usize, 5, 50] {
            let kind = |i: usize| {
                if i.is_multiple_of(every) {
                    ProxyKind::Dynamic
                } else {
                    ProxyKind::Static
                }
            };
            check_scene(&boxes, kind, &format!("static mix {n} 1/{every}"));
        }
        let all_static = check_scene(&boxes, |_| ProxyKind::Static, "all static");
        assert_eq!(all_static, 0, "static-static pairs are never reported");
    }
}
