//! The saved draft and configuration, against Chromium's real localStorage.
#![cfg(target_arch = "wasm32")]

use loom_app::storage;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_draft_round_trips() {
    let draft = "; mine\n.data x = 3\nINC x\n";
    storage::save_draft(draft);
    assert_eq!(storage::load_draft().as_deref(), Some(draft));
    storage::save_draft("");
    assert_eq!(storage::load_draft().as_deref(), Some(""));
}

#[wasm_bindgen_test]
fn the_configuration_round_trips() {
    storage::save_config("compact16");
    assert_eq!(storage::load_config().as_deref(), Some("compact16"));
}
