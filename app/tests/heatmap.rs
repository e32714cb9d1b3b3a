//! The heatmap's pixels in each theme: zero is the theme's background (no
//! bright block on a dark page), ±1 stand out from it, changed cells are
//! outlined in a colour that reads on that background.

use loom_app::heatmap::{render, Palette, Window};
use loom_core::frontend::Tensor;

/// Relative luminance in 0..=255 (Rec. 709 weights), enough to compare contrast.
fn luma([r, g, b]: [u8; 3]) -> f32 {
    0.2126 * f32::from(r) + 0.7152 * f32::from(g) + 0.0722 * f32::from(b)
}

#[test]
fn zero_is_the_background_of_each_theme_and_ones_stand_out() {
    let (light, dark) = (Palette::LIGHT, Palette::DARK);
    assert!(luma(light.colour(0.0)) > 200.0);
    assert!(luma(dark.colour(0.0)) < 60.0, "a dark page's zero cells are dark: {:?}", dark.colour(0.0));
    for p in [light, dark] {
        let zero = luma(p.colour(0.0));
        for v in [-1.0, 1.0] {
            let c = p.colour(v);
            let spread = c.iter().zip(p.colour(0.0)).map(|(a, b)| (i32::from(*a) - i32::from(b)).abs()).max().unwrap();
            assert!(spread > 90, "{v} is hardly distinct from 0: {c:?}");
        }
        assert!((luma(p.mark) - zero).abs() > 150.0, "the changed-cell outline must read on zero cells");
        assert_eq!(p.colour(5.0), p.colour(1.0), "large values saturate");
    }
    assert_eq!(Palette::of(true), dark);
    assert_eq!(Palette::of(false), light);
}

#[test]
fn a_dark_render_of_a_zero_tensor_has_no_bright_pixel_and_outlines_changes() {
    let (d, n) = (4, 6);
    let x = Tensor::zeros(d, n);
    let w = Window::fit(n, 0, n, 6 * 4, 4);
    let mut changed = vec![false; d * n];
    changed[2 * d + 1] = true; // column 2, row 1
    let px = render(&x, Some(&changed), &w, &Palette::DARK);
    assert_eq!(px.len(), w.width() * d * w.cell_h * 4);
    let pixel = |col: usize, row: usize, dx: usize, dy: usize| {
        let i = ((row * w.cell_h + dy) * w.width() + col * w.cell_w + dx) * 4;
        [px[i], px[i + 1], px[i + 2]]
    };
    assert_eq!(pixel(2, 1, 0, 0), Palette::DARK.mark, "a changed cell's edge");
    assert_eq!(pixel(2, 1, 1, 1), Palette::DARK.colour(0.0), "its inside keeps the value's colour");
    let bright = px.chunks(4).filter(|p| luma([p[0], p[1], p[2]]) > 128.0).count();
    let outline = 2 * w.cell_w + 2 * w.cell_h - 4;
    assert_eq!(bright, outline, "only the changed cell's outline is bright");
}
