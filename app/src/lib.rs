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
}
