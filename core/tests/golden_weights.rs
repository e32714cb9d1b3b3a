//! `loom weights` for every preset, as golden files: a change to any layer's
//! construction shows up here as a reviewed diff (`UPDATE_EXPECT=1` rewrites them).

use expect_test::expect_file;
use loom_core::config::PRESETS;
use loom_core::machine::weights::Weights;

#[test]
fn weight_statistics_per_preset() {
    let all: String = PRESETS.iter().map(|c| Weights::build(c).summary() + "\n").collect();
    expect_file!["golden/weights.txt"].assert_eq(&all);
}
