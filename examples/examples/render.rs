//! Draws a scene seen from above (looking down −y) into a PNG: every body outlined,
//! the colliding ones filled red, contact points as dots and normals as short lines.
//!
//! ```text
//! cargo run --release --example render -- [--scene soup|hulls|static-heavy|pile|large-world|terrain]
//!     [--bodies N] [--frame N] [--size PIXELS] [--out FILE]
//! ```
//! Defaults: soup, 300 bodies, frame 0, 640 pixels, `render.png`.

use glam::Vec2;
use sepax_examples::args::Args;
use sepax_examples::outline::{TOP, outline};
use sepax_pipeline::geometry::Shape;
use sepax_pipeline::{CollisionWorld, Config};
use sepax_testkit::scenes;
use std::collections::HashSet;
use std::process::ExitCode;
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

const USAGE: &str = "usage: render [--scene soup|hulls|static-heavy|pile|large-world|terrain] [--bodies N] [--frame N] [--size PIXELS] [--out FILE]";

/// An anti-aliased solid colour.
fn paint(r: u8, g: u8, b: u8, a: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(r, g, b, a);
    p
}

fn run() -> Result<(), String> {
    let args = Args::parse(
        std::env::args().skip(1),
        &["scene", "bodies", "frame", "size", "out"],
        &[],
    )?;
    let name = args.value("scene").unwrap_or("soup");
    let bodies = args.number("bodies", 300)?;
    let frame = args.number("frame", 0)? as u32;
    let size = args.number("size", 640)?.clamp(16, 8192) as u32;
    let out = args.value("out").unwrap_or("render.png");
    let scene = scenes::by_name(name, bodies, 1).ok_or_else(|| {
        format!(
            "unknown scene `{name}` (known: {})",
            scenes::NAMES.join(", ")
        )
    })?;

    let mut world = CollisionWorld::new(Config::default()).map_err(|e| e.to_string())?;
    let handles = scene.populate(&mut world).map_err(|e| e.to_string())?;
    scene
        .apply(&mut world, &handles, frame)
        .map_err(|e| e.to_string())?;
    let report = world.step().clone();
    let colliding: HashSet<_> = report.contacts.iter().flat_map(|c| [c.a, c.b]).collect();

    let outlines: Vec<Vec<Vec2>> = handles
        .iter()
        .map(|&h| outline(world.shape(h).unwrap(), &world.pose(h).unwrap(), TOP))
        .collect();
    let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
    for p in outlines.iter().flatten() {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let scale = 0.95 * size as f32 / (hi - lo).max_element().max(1e-3);
    let center = 0.5 * (lo + hi);
    let px = |p: Vec2| (p - center) * scale + Vec2::splat(size as f32 * 0.5);

    let mut pixmap = Pixmap::new(size, size).ok_or("cannot allocate the image")?;
    pixmap.fill(tiny_skia::Color::from_rgba8(250, 250, 245, 255));
    let fill = paint(220, 40, 40, 150);
    let ink = paint(30, 30, 40, 255);
    let thin = Stroke {
        width: 1.0,
        ..Stroke::default()
    };
    for (outline, h) in outlines.iter().zip(&handles) {
        let mut pb = PathBuilder::new();
        for (k, p) in outline.iter().enumerate() {
            let q = px(*p);
            if k == 0 {
                pb.move_to(q.x, q.y)
            } else {
                pb.line_to(q.x, q.y)
            }
        }
        pb.close();
        let Some(path) = pb.finish() else { continue };
        // A mesh (level geometry under everything) is outlined, never filled.
        let mesh = matches!(world.shape(*h), Ok(Shape::TriMesh(_)));
        if colliding.contains(h) && !mesh {
            pixmap.fill_path(&path, &fill, FillRule::Winding, Transform::identity(), None);
        }
        pixmap.stroke_path(&path, &ink, &thin, Transform::identity(), None);
    }
    let blue = paint(20, 60, 200, 255);
    let normal_len = 0.4 * scale;
    for c in &report.contacts {
        let n = Vec2::new(c.manifold.normal.x, c.manifold.normal.z);
        for p in &c.manifold.points {
            let q = px(Vec2::new(p.position.x, p.position.z));
            if let Some(dot) = PathBuilder::from_circle(q.x, q.y, 2.0) {
                pixmap.fill_path(&dot, &blue, FillRule::Winding, Transform::identity(), None);
            }
            let mut pb = PathBuilder::new();
            pb.move_to(q.x, q.y);
            let e = q + n * normal_len;
            pb.line_to(e.x, e.y);
            if let Some(line) = pb.finish() {
                pixmap.stroke_path(&line, &blue, &thin, Transform::identity(), None);
            }
        }
    }
    pixmap
        .save_png(out)
        .map_err(|e| format!("cannot write {out}: {e}"))?;
    println!(
        "{out}: {} bodies, {} touching pairs, {} contact points",
        scene.len(),
        report.contacts.len(),
        report.contact_points()
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
