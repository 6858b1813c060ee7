use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use sepax_benches::pairs::{Kind, box_pairs, hull_pairs};
use sepax_benches::to_parry;
use sepax_narrowphase::{PairCache, collide, contact};
use std::hint::black_box;
fn main() {
    let which = std::env::args().nth(1).unwrap();
    let pairs = match which.as_str() {
        w if w.contains("hull") => hull_pairs(24, 256, 24),
        _ => box_pairs(1, 256, Kind::Resting),
    };
    let peers: Vec<_> = pairs
        .iter()
        .map(|p| {
            (
                to_parry::shape(&p.a),
                to_parry::shape(&p.b),
                to_parry::pose(&p.pose_a).inv_mul(&to_parry::pose(&p.pose_b)),
            )
        })
        .collect();
    let mut m: Vec<ContactManifold<(), ()>> = Vec::new();
    let n: usize = std::env::var("N")
        .map(|v| v.parse().unwrap())
        .unwrap_or(100);
    for _ in 0..n {
        match which.as_str() {
            "box" | "hull" => {
                for p in &pairs {
                    black_box(collide(
                        &p.a,
                        &p.pose_a,
                        &p.b,
                        &p.pose_b,
                        0.0,
                        &mut PairCache::default(),
                    ));
                }
            }
            "boxc" => {
                for p in &pairs {
                    black_box(contact(&p.a, &p.pose_a, &p.b, &p.pose_b, 0.0));
                }
            }
            _ => {
                for (a, b, pos) in &peers {
                    m.clear();
                    let mut w = None;
                    DefaultQueryDispatcher
                        .contact_manifolds(pos, &**a, &**b, 0.0, &mut m, &mut w)
                        .unwrap();
                    black_box(&m);
                }
            }
        }
    }
}
