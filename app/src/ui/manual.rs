//! Links into the manual (`docs/`, built by mdBook into `book/` beside the
//! page). Every page of the manual the playground links to is named here and
//! only here, so `core/tests/manual.rs` can check that each one exists.

use super::Mount;
use leptos::prelude::*;

/// The manual's first page.
pub const HOME: &str = "book/index.html";
/// The page's controls, views and keyboard shortcuts.
pub const PLAYGROUND: &str = "book/playground.html";
/// Stepping, breakpoints and the Explain view.
pub const DEBUGGER: &str = "book/debugger.html";
/// What a C or assembly diagnostic means.
pub const ERRORS: &str = "book/c-reference.html#what-errors-mean";
/// The trace machine (its WebAssembly text's load errors included).
pub const TRACE: &str = "book/trace-machine.html";
/// The built-in lessons and how to write one.
pub const LESSONS: &str = "book/lessons.html";
/// Share links, the iframe's options and the custom element.
pub const EMBEDDING: &str = "book/embedding.html";
/// The postMessage protocol and the JS API.
pub const PROTOCOL: &str = "book/protocol.html";
/// The eight layers; [`layer`] adds the anchor of one.
pub const MACHINE: &str = "book/machine.html";

/// The section of the machine's page on layer `index` (0 for L1).
pub fn layer(index: usize) -> String {
    format!("{MACHINE}#l{}", index + 1)
}

/// The address of a manual page `page` for this mount: relative to the page
/// itself, or for a widget resolved against the playground it came from (a
/// custom element on another site would otherwise point into that site).
pub fn href(page: &str) -> String {
    let base = Mount::get().playground;
    if base.is_empty() {
        return page.to_owned();
    }
    web_sys::Url::new_with_base(page, &base).map_or_else(|_| page.to_owned(), |u| u.href())
}

/// A link to a manual page, opened in a new tab (the playground keeps its state).
#[component]
pub fn ManualLink(#[prop(into)] page: String, title: &'static str, children: Children) -> impl IntoView {
    view! {
        <a class="manual" href=href(&page) target="_blank" rel="noopener" title=title>
            {children()}
        </a>
    }
}
