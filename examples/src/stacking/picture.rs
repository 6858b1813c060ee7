//! Side views of a simulation (looking along −z, y up) as PNG-ready pixmaps: each
//! body's outline (the 2D hull of its projected vertices, see
//! [`outline`](crate::outline)), the ground grey, contact points as dots: red for
//! touching points (`depth >= 0`), blue for speculative ones.
//!
//! A [`View`] is fixed once, from the scene at rest, so that the frames of a run line
//! up into an animation.

use super::simulation::Simulation;
use crate::outline::{SIDE, outline};
use glam::Vec2;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// A world rectangle of the x-y plane mapped onto an image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// World point at the image's top-left corner.
    pub top_left: Vec2,
    /// Pixels per metre.
    pub scale: f32,
    /// Image size in pixels.
    pub width: u32,
    /// Image size in pixels.
    pub height: u32,
}

impl View {
    /// The bounds of the dynamic bodies and the ground line `y = 0`, padded by 1 m and
    /// made at least 3/4 as wide as tall, fitted into `size` pixels on the longer side.
    pub fn fit(sim: &Simulation, size: u32) -> View {
        let (mut lo, mut hi) = (Vec2::new(0.0, 0.0), Vec2::new(0.0, 0.0));
        for b in sim.bodies.iter().filter(|b| b.is_dynamic()) {
            let shape = sim
                .world
                .shape(b.handle)
                .expect("the simulation's own body");
            for p in outline(shape, &b.pose, SIDE) {
                lo = lo.min(p);
                hi = hi.max(p);
            }
        }
        let (mut lo, mut hi) = (lo - Vec2::ONE, hi + Vec2::ONE);
        let width = (hi.x - lo.x).max(0.75 * (hi.y - lo.y));
        let mid = 0.5 * (lo.x + hi.x);
        (lo.x, hi.x) = (mid - 0.5 * width, mid + 0.5 * width);
        let extent = hi - lo;
        let scale = size as f32 / extent.max_element();
        View {
            top_left: Vec2::new(lo.x, hi.y),
            scale,
            width: (extent.x * scale).ceil().max(1.0) as u32,
            height: (extent.y * scale).ceil().max(1.0) as u32,
        }
    }

    /// Pixel of world point `(x, y)`: `((x − left)·s, (top − y)·s)`, y down.
    pub fn pixel(&self, p: Vec2) -> Vec2 {
        Vec2::new(p.x - self.top_left.x, self.top_left.y - p.y) * self.scale
    }
}

fn paint(r: u8, g: u8, b: u8, a: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(r, g, b, a);
    p
}

/// Draws the simulation's current poses and last report's contact points.
pub fn draw(sim: &Simulation, view: &View) -> Option<Pixmap> {
    let mut pixmap = Pixmap::new(view.width, view.height)?;
    pixmap.fill(Color::from_rgba8(250, 250, 245, 255));
    let ink = paint(30, 30, 40, 255);
    let body_fill = paint(230, 190, 120, 255);
    let ground_fill = paint(170, 170, 170, 255);
    let stroke = Stroke {
        width: 1.0,
        ..Stroke::default()
    };
    let id = Transform::identity();
    for b in &sim.bodies {
        let shape = sim
            .world
            .shape(b.handle)
            .expect("the simulation's own body");
        let mut pb = PathBuilder::new();
        for (k, p) in outline(shape, &b.pose, SIDE).into_iter().enumerate() {
            let q = view.pixel(p);
            // Far-away ground corners: clamp so the path stays in a sane range.
            let q = q.clamp(Vec2::splat(-1e4), Vec2::splat(1e4));
            if k == 0 {
                pb.move_to(q.x, q.y);
            } else {
                pb.line_to(q.x, q.y);
            }
        }
        pb.close();
        let Some(path) = pb.finish() else { continue };
        let fill = if b.is_dynamic() {
            &body_fill
        } else {
            &ground_fill
        };
        pixmap.fill_path(&path, fill, FillRule::Winding, id, None);
        pixmap.stroke_path(&path, &ink, &stroke, id, None);
    }
    let touching = paint(210, 30, 30, 255);
    let speculative = paint(30, 80, 220, 255);
    let radius = (0.04 * view.scale).clamp(1.5, 4.0);
    for c in &sim.report().contacts {
        for p in &c.manifold.points {
            let q = view.pixel(Vec2::new(p.position.x, p.position.y));
            let colour = if p.depth >= 0.0 {
                &touching
            } else {
                &speculative
            };
            if let Some(dot) = PathBuilder::from_circle(q.x, q.y, radius) {
                pixmap.fill_path(&dot, colour, FillRule::Winding, id, None);
            }
        }
    }
    Some(pixmap)
}
