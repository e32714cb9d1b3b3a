//! The page's components. They draw the [`Build`] and [`View`] the session's
//! events carry (through the [`Client`]) and send it [`Command`]s; no machine
//! state lives in the components. Elements tests and scripts address carry
//! stable `data-testid`s.
//!
//! [`Build`]: crate::session::Build
//! [`View`]: crate::session::View

mod attention;
mod client;
mod demos;
mod diagnostics;
mod editor;
mod heatmap;
mod keys;
mod machine;
mod toolbar;

use crate::session::{Command, Session, StepBy, EXAMPLE};
use crate::storage;
pub use client::Client;
use leptos::prelude::*;
use loom_core::Config;

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
    fn new(client: Client, editor: editor::EditorHandle) -> Actions {
        let sync = Callback::new(move |()| {
            if let Some(t) = editor.text() {
                editor.edited(client, t);
            }
        });
        let send = move |cmd: fn() -> Command| {
            Callback::new(move |()| {
                sync.run(());
                // A refused command says why in the status line.
                let _ = client.send(cmd());
            })
        };
        Actions {
            sync,
            compile: send(|| Command::Compile),
            toggle_run: Callback::new(move |()| {
                sync.run(());
                let running = client.view.with_untracked(|v| v.running);
                let _ = client.send(if running { Command::Pause } else { Command::Run });
            }),
            step: send(|| Command::Step { by: StepBy::Instruction }),
            step_layer: send(|| Command::Step { by: StepBy::Layer }),
            step_line: send(|| Command::Step { by: StepBy::Line }),
            step_back: send(|| Command::Back),
            reset: send(|| Command::Reset),
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
    let client = Client::new(Session::new(source, config));
    let _ = client.send(Command::Compile);
    let handle = editor::EditorHandle::new();
    let actions = Actions::new(client, handle);
    let theme = keys::Theme::new();
    let dark = theme.dark();
    let help = RwSignal::new(false);
    keys::install(actions, help, client);
    view! {
        <header class="bar">
            <h1>"Loom" <span class="sub">" playground"</span></h1>
            <toolbar::Toolbar client actions />
            <div class="bar-end">
                <button class="ghost" title="Theme: system, dark, light" aria-label="Toggle theme" on:click=move |_| {
                    theme.cycle()
                }>{move || theme.label()}</button>
                <button class="ghost" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" on:click=move |_| {
                    help.update(|h| *h = !*h)
                }>"?"</button>
                <button class="ghost" title="Put the source and configuration in the address" on:click=move |_| {
                    share(client, handle)
                }>"share"</button>
            </div>
        </header>
        <machine::StatusBar client />
        <main class="panes">
            <section class="pane source" aria-label="Program">
                <editor::Editor client actions handle dark=dark />
                <diagnostics::Diagnostics client handle />
                <machine::Listing client />
            </section>
            <section class="pane tensor" aria-label="State tensor">
                <demos::Demos client />
                <heatmap::Heatmap client />
                <attention::Attention client />
            </section>
            <section class="pane machine" aria-label="Machine">
                <machine::MachineView client />
            </section>
        </main>
        <keys::HelpSheet open=help />
    }
}

fn share(client: Client, editor: editor::EditorHandle) {
    let (built, config) = client.build.with_untracked(|b| (b.source.clone(), b.config.clone()));
    let src = editor.text().unwrap_or(built);
    let hash = format!("src={}&config={config}", String::from(js_sys::encode_uri_component(&src)));
    let _ = window().location().set_hash(&hash);
}
