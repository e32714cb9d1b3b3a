//! The Loom playground page (Leptos, client-side rendered).
//!
//! [`session`] is the view-model (plain Rust, tested without a DOM), [`ui`]
//! the thin components that show it and call its actions, [`storage`] what
//! survives a reload; [`trace`] is the session of the second machine (the
//! trace page), beside the Loom session.

pub mod bench;
pub mod demo;
pub mod heatmap;
pub mod lesson;
pub mod link;
pub mod markdown;
pub mod options;
pub mod relay;
pub mod session;
pub mod storage;
pub mod trace;
pub mod ui;
pub mod wire;
pub mod worker;

/// Mounts the playground on `<body>`: the full page, or with `?embed` the
/// widget (an iframe's). Only on the playground's own page (`<body
/// data-loom-page>`): a host page that imports the module for its custom
/// elements mounts widgets itself (`ui::api`).
pub fn start() {
    use leptos::prelude::{document, location_hash, window};
    console_error_panic_hook::set_once();
    let Some(body) = document().body() else { return };
    if !body.has_attribute("data-loom-page") {
        return;
    }
    let location = window().location();
    let mut options = options::Options::from_query(&location.search().unwrap_or_default());
    if options.embed {
        let fragment = location_hash().and_then(|h| link::decode(&h));
        match location_hash().and_then(|h| lesson::from_address("", &h)) {
            Some(Ok(l)) => options.lesson = Some(l),
            Some(Err(e)) => options.problems.push(e.to_string()),
            None => {}
        }
        let playground =
            format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default());
        // The widget is the page: it stays mounted for the page's life.
        std::mem::forget(ui::mount_widget(body, options, fragment, playground, false));
    } else {
        ui::mount_page();
    }
}

/// The performance mark `loom-interactive`, once per page, in the first
/// animation frame after a session's first build reached the page (its
/// client calls this): by then the opening program is compiled (in the
/// worker, which answers after the page mounted) and the effects it wakes
/// (the editor's creation among them) have run. `tests/e2e/first_load.mjs`
/// reads it as the time to interactive.
pub(crate) fn mark_interactive() {
    use leptos::prelude::{request_animation_frame, window};
    request_animation_frame(|| {
        if let Some(p) = window().performance() {
            if p.get_entries_by_name("loom-interactive").length() == 0 {
                let _ = p.mark("loom-interactive");
            }
        }
    });
}
