//! The page's components. They draw the [`Build`] and [`View`] the session's
//! events carry (through the [`Client`]) and send it [`Command`]s; no machine
//! state lives in the components. Elements tests and scripts address carry
//! stable `data-testid`s.
//!
//! [`Build`]: crate::session::Build
//! [`View`]: crate::session::View

mod api;
mod attention;
mod client;
mod console;
mod demos;
mod diagnostics;
mod download;
mod editor;
mod explain;
mod heatmap;
mod keys;
mod lesson;
mod machine;
mod manual;
mod memory;
mod messages;
mod remote;
mod share;
mod stack;
mod toolbar;
mod trace;
mod widget;

use crate::link::{self, Shared};
use crate::session::{Command, StepBy, EXAMPLE};
use crate::storage;
pub use client::{Client, Done, Thread};
use leptos::prelude::*;
use loom_core::frontend::Config;
pub use widget::{mount_widget, Widget};

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
    /// The debugger's moves: over a call, out of a function, to the editor's cursor line.
    pub step_over: Callback<()>,
    pub step_out: Callback<()>,
    pub run_to_cursor: Callback<()>,
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
                client.send(cmd());
            })
        };
        Actions {
            sync,
            compile: send(|| Command::Compile),
            toggle_run: Callback::new(move |()| {
                sync.run(());
                let running = client.view.with_untracked(|v| v.running);
                client.send(if running { Command::Pause } else { Command::Run });
            }),
            step: send(|| Command::Step { by: StepBy::Instruction }),
            step_layer: send(|| Command::Step { by: StepBy::Layer }),
            step_line: send(|| Command::Step { by: StepBy::Line }),
            step_back: send(|| Command::Back),
            step_over: send(|| Command::Step { by: StepBy::Over }),
            step_out: send(|| Command::Step { by: StepBy::Out }),
            run_to_cursor: Callback::new(move |()| {
                sync.run(());
                match editor.cursor_line() {
                    Some(line) => client.send(Command::RunTo { line }),
                    None => client.problem.set(Some("Run to cursor: put the cursor on a line of the program.".into())),
                }
            }),
            reset: send(|| Command::Reset),
        }
    }
}

/// What one mounted instance (the page, an iframe's widget, a custom
/// element) is allowed to do: given to its components as a Leptos context, so
/// several instances on one page never share it.
#[derive(Clone, Debug)]
pub struct Mount {
    /// The chrome-less widget (`?embed`, a custom element).
    pub embed: bool,
    /// The program cannot be edited.
    pub readonly: bool,
    /// Drafts and choices are saved (the full page only: a widget never
    /// touches the playground's saved draft).
    pub persist: bool,
    /// The full playground's address (the widget's "Open in playground ↗").
    pub playground: String,
}

impl Mount {
    /// The mount's settings (the page's defaults outside any mount).
    pub fn get() -> Mount {
        use_context::<Mount>().unwrap_or(Mount {
            embed: false,
            readonly: false,
            persist: true,
            playground: String::new(),
        })
    }
}

/// The state a link to what is on screen carries: the program (or its demo),
/// language, configuration, engine, breakpoints and the step on display.
pub fn current_state(client: Client, text: Option<String>) -> Shared {
    let (build, steps) = (client.build.get_untracked(), client.view.with_untracked(|v| v.steps));
    let demo = build.demo.as_ref().map(|d| d.id.clone());
    let edited = text.as_ref().is_some_and(|t| *t != build.source);
    Shared {
        // A demo's link names the demo (its source comes with it) unless the text was changed.
        source: if demo.is_some() && !edited { String::new() } else { text.unwrap_or(build.source) },
        lang: build.lang.map(|l| l.name().to_owned()),
        config: Some(build.config),
        engine: build.engine.map(|e| e.name().to_owned()),
        demo: if edited { None } else { demo },
        breakpoints: build.breakpoints,
        step: if edited { 0 } else { steps },
    }
}

/// Opens a state in a session: its demo or program, breakpoints and step
/// (a state without a program opens the example); `done` hears whether it
/// opened, once the session has carried it out.
pub fn open(client: Client, s: &Shared, done: impl FnOnce(Result<(), String>) + 'static) {
    match open_commands(s) {
        Ok(commands) => client.request(commands, Some(Box::new(done))),
        Err(why) => done(Err(why)),
    }
}

/// The commands that open a state (stopping at the first one refused).
fn open_commands(s: &Shared) -> Result<Vec<Command>, String> {
    let engine = s.engine().map_err(|e| e.to_string())?;
    let mut commands = Vec::new();
    if let Some(id) = &s.demo {
        commands.push(Command::Demo { id: Some(id.clone()) });
        if let Some(name) = &s.config {
            commands.push(Command::Config { name: name.clone() });
        }
        if let Some(name) = engine {
            commands.push(Command::Engine { name });
        }
    } else {
        let source = if s.source.is_empty() { EXAMPLE.to_owned() } else { s.source.clone() };
        let lang = s.lang().map_err(|e| e.to_string())?;
        commands.push(Command::Load { source, lang, config: s.config.clone(), engine });
    }
    if !s.breakpoints.is_empty() {
        commands.push(Command::Breakpoints { lines: s.breakpoints.clone() });
    }
    if s.step > 0 {
        commands.push(Command::Seek { step: s.step });
    }
    Ok(commands)
}

/// A fresh client for one mounted instance. `worker`: whether its session
/// may run in a web worker (the `worker` option), loaded from the
/// playground's folder `base` (the page's, or the module's for a custom element).
fn new_client(config: Option<&str>, worker: bool, base: &str) -> Client {
    let config = config
        .and_then(|name| Config::preset(name).ok())
        .unwrap_or_else(|| Config::preset(DEFAULT_CONFIG).expect("the default preset exists"));
    let thread = if worker { Ok(base.to_owned()) } else { Err("worker=0 asked for the in-page loop".to_owned()) };
    Client::new(config, thread)
}

#[component]
pub fn App() -> impl IntoView {
    provide_context(Mount::get());
    let link = leptos::prelude::location_hash().and_then(|h| link::decode(&h));
    let saved_config = storage::load_config();
    let source = storage::load_draft().unwrap_or_default();
    let draft = Shared {
        // A demo comes back with its board, as long as its source was not edited.
        demo: crate::demo::restored(storage::load_demo().as_deref(), &source).map(str::to_owned),
        source,
        config: saved_config.clone().filter(|c| Config::preset(c).is_ok()),
        ..Shared::default()
    };
    let options = crate::options::Options::from_query(&window().location().search().unwrap_or_default());
    let client = new_client(saved_config.as_deref(), !options.in_page, &window().location().href().unwrap_or_default());
    // A link that cannot be opened says why; the draft is shown instead.
    let banner = RwSignal::new(share::Banner::None);
    let broken = {
        let draft = draft.clone();
        move |why: String| {
            open(client, &draft, |_| {});
            banner.set(share::Banner::Broken(why));
        }
    };
    match link {
        Some(Ok(shared)) => open(client, &shared, move |opened| match opened {
            Ok(()) => banner.set(share::Banner::Opened),
            Err(e) => broken(e),
        }),
        Some(Err(e)) => broken(e.to_string()),
        None => open(client, &draft, |_| {}),
    }
    // `?input=`: the text the program reads, as the widget's option gives it.
    if let Some(text) = options.input.clone() {
        client.input.set(text.clone());
        client.send(Command::Stdin { text });
    }
    let handle = editor::EditorHandle::new(true);
    let actions = Actions::new(client, handle);
    let theme = keys::Theme::restore(storage::load_theme().as_deref());
    theme.on_document();
    let dark = theme.dark();
    let help = RwSignal::new(false);
    let sharing = RwSignal::new(false);
    // The second machine's page is made the first time it is picked, then
    // kept (hidden with the other's), so switching back and forth loses nothing.
    let machine = RwSignal::new(Machine::Loom);
    let traced = Memo::new(move |opened: Option<&bool>| opened == Some(&true) || machine.get() == Machine::Trace);
    let trace_client = StoredValue::new(None::<trace::TraceClient>);
    keys::install(shortcuts(actions, machine, trace_client), help, client, None);
    let trace_page = move || {
        traced.get().then(|| {
            let client = trace_client.get_value().unwrap_or_else(|| {
                let c = trace::TraceClient::new();
                trace_client.set_value(Some(c));
                c
            });
            view! { <trace::TracePage client dark=dark /> }
        })
    };
    // `?lesson=ID` or `#lesson=PAYLOAD` opens a lesson over whatever loaded; a bad one says why.
    let player = lesson::Player::new(client);
    let search = window().location().search().unwrap_or_default();
    let lesson_problem = match crate::lesson::from_address(&search, &location_hash().unwrap_or_default()) {
        Some(Ok(l)) => {
            player.open(l);
            None
        }
        Some(Err(e)) => Some(e.to_string()),
        None => None,
    };
    view! {
        <div class="loom page" data-theme=move || theme.name() data-machine=move || machine.get().name()>
            <header class="bar">
                <h1>"Loom" <span class="sub">" playground"</span></h1>
                <label class="picker">
                    "machine "
                    <select
                        data-testid="machine-picker"
                        title="The C machine (a transformer over one tensor) or the trace machine (WebAssembly by attention over its trace)"
                        on:change=move |ev| machine.set(Machine::by_name(&event_target_value(&ev)))
                    >
                        <option value="loom">"Loom · C"</option>
                        <option value="trace">"Trace · WebAssembly"</option>
                    </select>
                </label>
                <div class="loom-only">
                    <toolbar::Toolbar client actions />
                </div>
                <div class="bar-end">
                    <lesson::Picker player />
                    <button class="ghost" title="Theme: system, dark, light" aria-label="Toggle theme" on:click=move |_| {
                        theme.cycle();
                        storage::save_theme(theme.choice());
                    }>{move || theme.label()}</button>
                    <button class="ghost" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" on:click=move |_| {
                        help.update(|h| *h = !*h)
                    }>"?"</button>
                    <download::DownloadMenu client />
                    <button
                        class="ghost"
                        data-testid="share"
                        title="Share a link, or embed this program in another page"
                        on:click=move |_| sharing.set(true)
                    >
                        "share / embed"
                    </button>
                </div>
            </header>
            <div class="trace-only">{trace_page}</div>
            <div class="loom-only">
                <share::LinkBanner banner client draft />
                {lesson_problem.map(|p| view! { <p class="banner bad" data-testid="lesson-problem" role="alert">{p}</p> })}
                <machine::StatusBar client />
                <lesson::LessonView player />
                <main class="panes">
                    <section class="pane source" aria-label="Program">
                        <editor::Editor client actions handle dark=dark />
                        <diagnostics::Diagnostics client handle />
                        <machine::Listing client />
                    </section>
                    <section class="pane tensor" aria-label="State tensor">
                        <demos::Demos client />
                        <heatmap::Heatmap client dark />
                        <attention::Attention client />
                    </section>
                    <section class="pane machine" aria-label="Machine">
                        <explain::Explain client />
                        <console::Console client />
                        <stack::CallStack client />
                        <memory::Memory client />
                        <machine::MachineView client />
                    </section>
                </main>
            </div>
            <keys::HelpSheet open=help />
            <share::ShareDialog open=sharing client handle />
        </div>
    }
}

/// The page's two machines (the picker's values are a contract of the page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Machine {
    /// C (or assembly) on the transformer over one tensor.
    Loom,
    /// WebAssembly executed by attention over its trace.
    Trace,
}

impl Machine {
    fn name(self) -> &'static str {
        match self {
            Machine::Loom => "loom",
            Machine::Trace => "trace",
        }
    }

    fn by_name(name: &str) -> Machine {
        if name == "trace" {
            Machine::Trace
        } else {
            Machine::Loom
        }
    }
}

/// The keyboard's actions: the Loom machine's, or with the trace machine
/// picked the same keys on it (Space runs or pauses, → steps, ← steps back,
/// Esc resets; it has no layers or C lines).
fn shortcuts(actions: Actions, machine: RwSignal<Machine>, trace: StoredValue<Option<trace::TraceClient>>) -> Actions {
    use crate::trace::TraceCommand;
    let either = |loom: Callback<()>, cmd: Option<fn(&trace::TraceClient) -> TraceCommand>| {
        Callback::new(move |()| match (machine.get_untracked(), trace.get_value()) {
            (Machine::Trace, Some(t)) => {
                if let Some(cmd) = cmd {
                    t.send(cmd(&t));
                }
            }
            _ => loom.run(()),
        })
    };
    let run_or_pause = |t: &trace::TraceClient| {
        if t.view.with_untracked(|v| v.running) {
            TraceCommand::Pause
        } else {
            TraceCommand::Run
        }
    };
    Actions {
        sync: actions.sync,
        compile: either(actions.compile, None),
        toggle_run: either(actions.toggle_run, Some(run_or_pause)),
        step: either(actions.step, Some(|_| TraceCommand::Step)),
        step_layer: either(actions.step_layer, None),
        step_line: either(actions.step_line, None),
        step_back: either(actions.step_back, Some(|_| TraceCommand::Back)),
        step_over: either(actions.step_over, None),
        step_out: either(actions.step_out, None),
        run_to_cursor: either(actions.run_to_cursor, None),
        reset: either(actions.reset, Some(|_| TraceCommand::Reset)),
    }
}

/// Mounts the full playground on `<body>`.
pub fn mount_page() {
    leptos::mount::mount_to_body(App);
}

/// Keeps `size` at the element's size (CSS pixels) as its box changes.
pub(super) fn watch_size(root: NodeRef<leptos::html::Div>, size: RwSignal<(f64, f64)>) {
    Effect::new(move |_| {
        let Some(el) = root.get() else { return };
        let measure = {
            let el = el.clone();
            move || {
                let now = (f64::from(el.client_width()), f64::from(el.client_height()));
                if size.get_untracked() != now {
                    size.set(now);
                }
            }
        };
        measure();
        // The redraw a new size causes waits for the next frame: changing the layout inside the
        // observer's own delivery is the "ResizeObserver loop" error browsers report.
        let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
            let measure = measure.clone();
            leptos::prelude::request_animation_frame(measure)
        });
        if let Ok(obs) = web_sys::ResizeObserver::new(wasm_bindgen::JsCast::unchecked_ref(f.as_ref())) {
            obs.observe(&el);
            let keep = send_wrapper::SendWrapper::new((obs, f));
            on_cleanup(move || keep.0.disconnect());
        }
    });
}
