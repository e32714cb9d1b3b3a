//! The Loom playground page (Leptos, client-side rendered).
//!
//! [`session`] is the view-model (plain Rust, tested without a DOM), [`ui`]
//! the thin components that show it and call its actions, [`storage`] what
//! survives a reload.

pub mod demo;
pub mod heatmap;
pub mod session;
pub mod storage;
pub mod ui;

/// Mounts the page on `<body>`.
pub fn start() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(ui::App);
    mark_interactive();
}

/// The performance mark `loom-interactive`, in the first animation frame after
/// mounting: by then the example is compiled and the effects (the editor's
/// creation among them) have run. `tests/e2e/first_load.mjs` reads it as the
/// time to interactive.
fn mark_interactive() {
    use leptos::prelude::{request_animation_frame, window};
    request_animation_frame(|| {
        if let Some(p) = window().performance() {
            let _ = p.mark("loom-interactive");
        }
    });
}
