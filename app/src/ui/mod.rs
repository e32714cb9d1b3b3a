//! The page's components. Each takes the shared [`SessionSignal`], reads what
//! it shows and calls [`Session`] actions; no machine state lives in the
//! components. Elements tests and scripts address carry stable `data-testid`s.

mod attention;
mod demos;
mod diagnostics;
mod editor;
mod heatmap;
mod keys;
mod machine;
mod runner;
mod toolbar;

use crate::session::{Session, EXAMPLE};
use crate::storage;
use leptos::prelude::*;
use loom_core::Config;
pub use runner::Runner;

/// The session every component shares. Engines are not `Send`, so it lives in
/// the (single-threaded) local arena.
pub type SessionSignal = RwSignal<Session, LocalStorage>;

/// Changes with every build, and only then: what shows the build alone (the
/// listing, the squiggles, the heatmap's window) depends on this rather than
/// on the session, which a running machine updates every frame. Subscribe
/// with `get()`: `track()` alone never runs a memo, so it never hears of a build.
pub fn builds(session: SessionSignal) -> Memo<u64> {
    Memo::new(move |_| session.with(Session::builds))
}

/// The configuration a first visit starts with.
const DEFAULT_CONFIG: &str = "default";

/// What the buttons and shortcuts do (one place, so both do the same).
#[derive(Clone, Copy)]
pub struct Actions {
    /// Takes the editor's text now (its change callback is debounced): before
    /// anything that builds, so a quick edit is never built stale or lost on reload.
    pub sync: Callback<()>,
    pub compile: Callback<()>,
    pub toggle_run: Callback<()>,
    pub step: Callback<()>,
    pub step_layer: Callback<()>,
    pub step_line: Callback<()>,
    pub step_back: Callback<()>,
    pub reset: Callback<()>,
}

impl Actions {
    fn new(session: SessionSignal, runner: Runner, editor: editor::EditorHandle, demo: demos::DemoSlot) -> Actions {
        let sync = Callback::new(move |()| {
            if let Some(t) = editor.text().filter(|t| session.with_untracked(|s| s.source() != t)) {
                storage::save_draft(&t);
                session.update(|s| s.set_source(t));
            }
        });
        // Any manual action pauses a run first, so the two never interleave.
        let manual = move |f: fn(&mut Session)| {
            Callback::new(move |()| {
                runner.pause();
                sync.run(());
                session.update(f);
            })
        };
        Actions {
            sync,
            compile: Callback::new(move |()| {
                runner.pause();
                sync.run(());
                session.update(|s| {
                    if s.compile() && demo.active() {
                        demo.prepare(s);
                    }
                });
            }),
            toggle_run: Callback::new(move |()| {
                sync.run(());
                runner.toggle();
            }),
            step: manual(Session::step),
            step_layer: manual(Session::step_layer),
            step_line: manual(Session::step_line),
            step_back: manual(Session::step_back),
            reset: Callback::new(move |()| {
                runner.pause();
                sync.run(());
                session.update(|s| {
                    s.reset();
                    if demo.active() {
                        demo.prepare(s);
                    }
                });
            }),
        }
    }
}

/// The text and configuration a shared link (`#src=…&config=…`) carries.
fn shared_link() -> Option<(String, Option<String>)> {
    let hash = leptos::prelude::location_hash()?;
    let mut src = None;
    let mut config = None;
    for part in hash.split('&') {
        let (k, v) = part.split_once('=')?;
        let v = js_sys::decode_uri_component(v).ok()?.as_string()?;
        match k {
            "src" => src = Some(v),
            "config" => config = Some(v),
            _ => {}
        }
    }
    Some((src?, config))
}

#[component]
pub fn App() -> impl IntoView {
    let shared = shared_link();
    let config_name = shared.as_ref().and_then(|s| s.1.clone()).or_else(storage::load_config);
    let config = config_name
        .and_then(|name| Config::preset(&name).ok())
        .unwrap_or_else(|| Config::preset(DEFAULT_CONFIG).expect("the default preset exists"));
    let source = shared.map(|s| s.0).or_else(storage::load_draft).unwrap_or_else(|| EXAMPLE.to_owned());
    let mut initial = Session::new(source, config);
    initial.compile();
    let session: SessionSignal = RwSignal::new_local(initial);
    let demo = demos::DemoSlot::new();
    let runner = Runner::new(session, demo);
    let handle = editor::EditorHandle::new();
    let actions = Actions::new(session, runner, handle, demo);
    let theme = keys::Theme::new();
    let dark = theme.dark();
    let help = RwSignal::new(false);
    keys::install(actions, help, runner, demo);
    view! {
        <header class="bar">
            <h1>"Loom" <span class="sub">" playground"</span></h1>
            <toolbar::Toolbar session actions runner />
            <div class="bar-end">
                <button class="ghost" title="Theme: system, dark, light" aria-label="Toggle theme" on:click=move |_| {
                    theme.cycle()
                }>{move || theme.label()}</button>
                <button class="ghost" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" on:click=move |_| {
                    help.update(|h| *h = !*h)
                }>"?"</button>
                <button class="ghost" title="Put the source and configuration in the address" on:click=move |_| {
                    share(session)
                }>"share"</button>
            </div>
        </header>
        <machine::StatusBar session runner />
        <main class="panes">
            <section class="pane source" aria-label="Program">
                <editor::Editor session actions handle dark=dark />
                <diagnostics::Diagnostics session handle />
                <machine::Listing session />
            </section>
            <section class="pane tensor" aria-label="State tensor">
                <demos::Demos session runner demo editor=handle />
                <heatmap::Heatmap session />
                <attention::Attention session />
            </section>
            <section class="pane machine" aria-label="Machine">
                <machine::MachineView session />
            </section>
        </main>
        <keys::HelpSheet open=help />
    }
}

fn share(session: SessionSignal) {
    let (src, config) = session.with_untracked(|s| (s.source().to_owned(), s.config().name));
    let hash = format!("src={}&config={config}", String::from(js_sys::encode_uri_component(&src)));
    let _ = window().location().set_hash(&hash);
}
