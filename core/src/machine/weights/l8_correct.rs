//! L8 correct: every value is exact, so correcting means cleaning: the
//! working rows go back to zero everywhere, and so does the difference head 1
//! left in column 0's memory rows. The next step starts from a clean tensor.

use super::{FfnBuilder, Gates, Layer};
use crate::machine::layout::Layout;

pub fn build(lay: &Layout, g: &Gates) -> Layer {
    let mut f = FfnBuilder::default();
    for region in lay.working() {
        for row in region.rows() {
            f.clear(row);
        }
    }
    for row in lay.mem.rows() {
        f.clear_where(row, &g.col0);
    }
    Layer { name: "L8 correct", heads: Vec::new(), ffn: f.finish() }
}
