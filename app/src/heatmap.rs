//! The state tensor as pixels, without a DOM: the colour of a value, which
//! cells changed, the column window on display and the RGBA image of it.
//! The canvas component only blits what this produces and draws labels.

use loom_core::frontend::Config;
use loom_core::frontend::Tensor;
use loom_core::frontend::{Column, CONSOLE};

/// The heatmap's colours: a diverging palette that stays readable with
/// colour-vision deficiencies (blue ↔ orange, after ColorBrewer PuOr/RdBu),
/// negative blue, zero neutral, positive orange; changed cells are outlined
/// in `mark`. Zero is the page's background in each theme, so a dark page
/// shows no bright block and its ±1 cells stand out as they do on a light one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    pub neg: [f32; 3],
    pub zero: [f32; 3],
    pub pos: [f32; 3],
    pub mark: [u8; 3],
}

impl Palette {
    pub const LIGHT: Palette =
        Palette { neg: [33.0, 102.0, 172.0], zero: [247.0, 247.0, 247.0], pos: [230.0, 97.0, 1.0], mark: [0, 0, 0] };
    pub const DARK: Palette = Palette {
        neg: [103.0, 169.0, 237.0],
        zero: [30.0, 34.0, 40.0],
        pos: [247.0, 140.0, 54.0],
        mark: [255, 255, 255],
    };

    pub fn of(dark: bool) -> Palette {
        if dark {
            Palette::DARK
        } else {
            Palette::LIGHT
        }
    }

    /// A value's colour; designed values are mostly ±1, larger ones saturate.
    pub fn colour(&self, v: f32) -> [u8; 3] {
        let t = v.clamp(-1.0, 1.0).abs();
        let end = if v < 0.0 { self.neg } else { self.pos };
        let mix = |i: usize| (self.zero[i] + (end[i] - self.zero[i]) * t).round() as u8;
        [mix(0), mix(1), mix(2)]
    }
}

/// Cells that differ between two tensors of the same shape (column-major, like `Tensor::data`).
pub fn changed(prev: &Tensor, now: &Tensor) -> Vec<bool> {
    if prev.d != now.d || prev.n != now.n {
        return vec![true; now.data.len()];
    }
    prev.data.iter().zip(&now.data).map(|(a, b)| a.to_bits() != b.to_bits()).collect()
}

/// A column's zone: as [`Config::column`] names it (the one place zones are
/// decided), except the program's console slot, which is the zone `console`.
pub fn zone(cfg: &Config, console: Option<usize>, col: usize) -> &'static str {
    match cfg.column(col) {
        Column::Memory(slot) if Some(slot) == console => CONSOLE,
        c => c.zone(),
    }
}

/// The column zones (scratch, memory, console, instructions) as contiguous ranges.
pub fn zones(cfg: &Config, console: Option<usize>) -> Vec<(&'static str, std::ops::Range<usize>)> {
    let mut out: Vec<(&'static str, std::ops::Range<usize>)> = Vec::new();
    for col in 0..cfg.n {
        let zone = zone(cfg, console, col);
        match out.last_mut() {
            Some((z, r)) if *z == zone => r.end = col + 1,
            _ => out.push((zone, col..col + 1)),
        }
    }
    out
}

/// The columns on display and the cell size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub first: usize,
    pub cols: usize,
    pub cell_w: usize,
    pub cell_h: usize,
}

impl Window {
    /// Shows columns `first..first + cols` (clamped to `n`) in `width` pixels.
    pub fn fit(n: usize, first: usize, cols: usize, width: usize, cell_h: usize) -> Window {
        let cols = cols.clamp(1, n);
        let first = first.min(n - cols);
        Window { first, cols, cell_w: (width / cols).max(1), cell_h }
    }

    /// The columns worth looking at first: scratch and memory plus the program's instructions.
    pub fn interesting(cfg: &Config, code_len: usize, width: usize, cell_h: usize) -> Window {
        Window::fit(cfg.n, 0, cfg.instr_col(0) + code_len + 1, width, cell_h)
    }

    pub fn zoom(self, n: usize, factor: f64, width: usize) -> Window {
        let cols = ((self.cols as f64 / factor).round() as usize).max(8);
        let centre = self.first + self.cols / 2;
        Window::fit(n, centre.saturating_sub(cols / 2), cols, width, self.cell_h)
    }

    pub fn pan(self, n: usize, by: isize, width: usize) -> Window {
        let first = self.first.saturating_add_signed(by);
        Window::fit(n, first, self.cols, width, self.cell_h)
    }

    pub fn width(&self) -> usize {
        self.cols * self.cell_w
    }

    /// The column under an x offset (pixels from the cells' left edge).
    pub fn col_at(&self, x: f64) -> Option<usize> {
        (x >= 0.0).then(|| self.first + x as usize / self.cell_w).filter(|&c| c < self.first + self.cols)
    }

    /// The x of a column's centre, if shown.
    pub fn x_of(&self, col: usize) -> Option<f64> {
        (self.first..self.first + self.cols)
            .contains(&col)
            .then(|| ((col - self.first) * self.cell_w) as f64 + self.cell_w as f64 / 2.0)
    }
}

/// RGBA pixels of the window (`width() × d·cell_h`), changed cells outlined
/// (or filled when cells are too small to outline).
pub fn render(x: &Tensor, changed: Option<&[bool]>, w: &Window, palette: &Palette) -> Vec<u8> {
    let (width, height) = (w.width(), x.d * w.cell_h);
    let mut px = vec![255u8; width * height * 4];
    let outline = w.cell_w >= 3 && w.cell_h >= 3;
    for c in 0..w.cols {
        let col = w.first + c;
        for row in 0..x.d {
            let hit = changed.is_some_and(|ch| ch[col * x.d + row]);
            let rgb = palette.colour(x.get(row, col));
            for dy in 0..w.cell_h {
                for dx in 0..w.cell_w {
                    let edge = dx == 0 || dy == 0 || dx + 1 == w.cell_w || dy + 1 == w.cell_h;
                    let ink = if hit && (edge || !outline) { palette.mark } else { rgb };
                    let i = ((row * w.cell_h + dy) * width + c * w.cell_w + dx) * 4;
                    px[i..i + 3].copy_from_slice(&ink);
                }
            }
        }
    }
    px
}
