//! Group filters: a filtered world reports exactly the unfiltered world's contacts
//! whose bodies' groups interact.

use sepax_pipeline::geometry::rng::Rng;
use sepax_pipeline::{CollisionWorld, Config, Groups};
use sepax_testkit::scenes;

#[test]
fn filtered_contacts_are_the_interacting_subset() {
    let scene = scenes::soup(1500, 21);
    let mut rng = Rng::new(3);
    let groups: Vec<Groups> = (0..scene.len())
        .map(|_| Groups {
            memberships: 1 << rng.below(3),
            filter: rng.next_u64() as u32 & 0b111,
        })
        .collect();
    let mut plain = CollisionWorld::new(Config::default()).unwrap();
    let mut filtered = CollisionWorld::new(Config::default()).unwrap();
    let hp = scene.populate(&mut plain).unwrap();
    let hf = scene.populate(&mut filtered).unwrap();
    for (h, g) in hf.iter().zip(&groups) {
        filtered.set_groups(*h, *g).unwrap();
    }
    for frame in 0..3 {
        scene.apply(&mut plain, &hp, frame).unwrap();
        scene.apply(&mut filtered, &hf, frame).unwrap();
        let all = plain.step().contacts.clone();
        let got = &filtered.step().contacts;
        let want: Vec<_> = all
            .into_iter()
            .filter(|c| groups[c.a.index() as usize].interacts(&groups[c.b.index() as usize]))
            .collect();
        assert!(want.len() > 50 && want.len() < plain.report().contacts.len());
        let strip = |v: &[sepax_pipeline::ContactPair]| -> Vec<_> {
            v.iter().map(|c| (c.a, c.b, c.manifold)).collect()
        };
        assert_eq!(strip(got), strip(&want), "frame {frame}");
    }
}

#[test]
fn interacts_is_symmetric_and_exact() {
    let a = Groups {
        memberships: 0b01,
        filter: 0b10,
    };
    let b = Groups {
        memberships: 0b10,
        filter: 0b01,
    };
    let c = Groups {
        memberships: 0b10,
        filter: 0b10,
    };
    assert!(a.interacts(&b) && b.interacts(&a));
    assert!(!a.interacts(&c) && !c.interacts(&a));
    assert!(!a.interacts(&a));
    assert!(Groups::ALL.interacts(&Groups::ALL));
}
