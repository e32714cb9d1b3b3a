//! The page's components. Each takes the shared [`SessionSignal`], reads what
//! it shows and calls [`Session`] actions; no state lives in the components.
//! Elements tests and scripts address carry stable `data-testid`s.

mod diagnostics;
mod editor;
mod machine;
mod toolbar;

use crate::session::{Session, EXAMPLE};
use crate::storage;
use leptos::prelude::*;
use loom_core::Config;

/// The session every component shares. Engines are not `Send`, so it lives in
/// the (single-threaded) local arena.
pub type SessionSignal = RwSignal<Session, LocalStorage>;

/// The configuration a first visit starts with.
const DEFAULT_CONFIG: &str = "default";

#[component]
pub fn App() -> impl IntoView {
    let config = storage::load_config()
        .and_then(|name| Config::preset(&name).ok())
        .unwrap_or_else(|| Config::preset(DEFAULT_CONFIG).expect("the default preset exists"));
    let source = storage::load_draft().unwrap_or_else(|| EXAMPLE.to_owned());
    let session: SessionSignal = RwSignal::new_local(Session::new(source, config));
    view! {
        <header class="bar">
            <h1>"Loom" <span class="sub">" playground"</span></h1>
            <toolbar::Toolbar session />
        </header>
        <main class="panes">
            <section class="pane source" aria-label="Program">
                <editor::Editor session />
                <diagnostics::Diagnostics session />
            </section>
            <section class="pane machine" aria-label="Machine">
                <machine::MachineView session />
            </section>
        </main>
    }
}
