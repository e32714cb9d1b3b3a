//! The manual's scaling figure (`docs/src/trace-scaling.svg`) as an SVG: dot products per lookup against the
//! trace's length, both axes logarithmic, brute force against the hull.
//! Written by `loom trace scaling --svg FILE` (no plotting dependency).

use crate::trace::bench::ScalePoint;
use std::fmt::Write;

/// One series: a name, a colour, and `(x, y)` points (both > 0).
pub struct Series<'a> {
    pub name: &'a str,
    pub colour: &'a str,
    pub points: Vec<(f64, f64)>,
}

impl<'a> Series<'a> {
    pub fn from_scaling(name: &'a str, colour: &'a str, rows: &[ScalePoint], memory_only: bool) -> Series<'a> {
        let y = |p: &ScalePoint| if memory_only { p.memory_dots_per_lookup } else { p.dots_per_lookup };
        Series { name, colour, points: rows.iter().map(|p| (p.from as f64, y(p))).filter(|&(_, v)| v > 0.0).collect() }
    }
}

const W: f64 = 720.0;
const H: f64 = 440.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// A log–log line chart with powers-of-two ticks on x and powers of ten on y.
pub fn svg(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let pts = || series.iter().flat_map(|s| s.points.iter().copied());
    let lg = |v: f64| v.max(f64::MIN_POSITIVE).log2();
    let (x0, x1) = (
        pts().map(|p| lg(p.0)).fold(f64::MAX, f64::min).floor(),
        pts().map(|p| lg(p.0)).fold(f64::MIN, f64::max).ceil(),
    );
    let (y0, y1) = (
        pts().map(|p| p.1.log10()).fold(f64::MAX, f64::min).floor().min(0.0),
        pts().map(|p| p.1.log10()).fold(f64::MIN, f64::max).ceil().max(1.0),
    );
    let (x1, y1) = (x1.max(x0 + 1.0), y1.max(y0 + 1.0));
    let sx = |x: f64| LEFT + (lg(x) - x0) / (x1 - x0) * (W - LEFT - RIGHT);
    let sy = |y: f64| H - BOTTOM - (y.log10() - y0) / (y1 - y0) * (H - TOP - BOTTOM);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{title}</text>"#, W / 2.0);
    for k in x0 as i32..=x1 as i32 {
        let x = sx(2f64.powi(k));
        let _ = writeln!(s, r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{}" stroke="#e4e4e4"/>"##, H - BOTTOM);
        if k % 2 == 0 {
            let _ = writeln!(
                s,
                r#"<text x="{x:.1}" y="{}" text-anchor="middle">2<tspan dy="-5" font-size="9">{k}</tspan></text>"#,
                H - BOTTOM + 18.0
            );
        }
    }
    for k in y0 as i32..=y1 as i32 {
        let y = sy(10f64.powi(k));
        let _ = writeln!(s, r##"<line x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#e4e4e4"/>"##, W - RIGHT);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{:.1}" text-anchor="end">10<tspan dy="-5" font-size="9">{k}</tspan></text>"#,
            LEFT - 8.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke="black"/>"#,
        W - LEFT - RIGHT,
        H - TOP - BOTTOM
    );
    let _ =
        writeln!(s, r#"<text x="{}" y="{}" text-anchor="middle">{x_label}</text>"#, (LEFT + W - RIGHT) / 2.0, H - 10.0);
    let _ = writeln!(
        s,
        r#"<text transform="translate(18 {}) rotate(-90)" text-anchor="middle">{y_label}</text>"#,
        (TOP + H - BOTTOM) / 2.0
    );
    for (i, ser) in series.iter().enumerate() {
        let path: Vec<String> = ser.points.iter().map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y))).collect();
        let c = ser.colour;
        let _ = writeln!(s, r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"/>"#, path.join(" "));
        for &(x, y) in &ser.points {
            let _ = writeln!(s, r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{c}"/>"#, sx(x), sy(y));
        }
        let ly = TOP + 16.0 + 18.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{ly}" x2="{}" y2="{ly}" stroke="{c}" stroke-width="2"/>"#,
            LEFT + 12.0,
            LEFT + 36.0
        );
        let _ = writeln!(s, r#"<text x="{}" y="{}">{}</text>"#, LEFT + 42.0, ly + 4.0, ser.name);
    }
    s.push_str("</svg>\n");
    s
}
