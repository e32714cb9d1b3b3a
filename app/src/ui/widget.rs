//! The embeddable widget: the views a teacher picked (`panels=`), a compact
//! bar of controls and the "Open in playground ↗" link, fitted to whatever
//! box it is given (an iframe from 480 × 320 to a full page, or a custom
//! element). Each mounted widget has its own client, editor handle, theme and
//! key listener, so several on one page are independent.

use super::{
    attention, console, current_state, demos, diagnostics, editor, explain, heatmap, keys, lesson, machine, memory,
    new_client, open, stack, watch_size, Actions, Client, Mount,
};
use crate::link::{self, LinkError, Shared};
use crate::options::{Options, Panel};
use crate::session::protocol::Status;
use crate::session::Command;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The view of one panel.
fn panel_view(p: Panel, client: Client, actions: Actions, handle: editor::EditorHandle, dark: Signal<bool>) -> AnyView {
    match p {
        Panel::Editor => view! {
            <editor::Editor client actions handle dark=dark />
            <diagnostics::Diagnostics client handle />
        }
        .into_any(),
        Panel::Heatmap => view! { <heatmap::Heatmap client dark /> }.into_any(),
        Panel::Attention => view! { <attention::Attention client /> }.into_any(),
        Panel::Machine => view! { <machine::MachineView client /> }.into_any(),
        Panel::Demo => view! { <demos::Demos client /> }.into_any(),
        Panel::Console => view! { <console::Console client /> }.into_any(),
        Panel::Explain => view! { <explain::Explain client /> }.into_any(),
        Panel::Stack => view! { <stack::CallStack client /> }.into_any(),
        Panel::Memory => view! { <memory::Memory client /> }.into_any(),
    }
}

/// A mounted widget: its client (what a transport talks to) and what unmounts it.
pub struct Widget {
    pub client: Client,
    pub panels: Vec<&'static str>,
    /// Resolves once the widget's first build is done.
    pub opened: js_sys::Promise,
    /// Dropping it takes the widget off the page.
    _unmount: Box<dyn std::any::Any>,
}

/// Mounts a widget inside `parent`. `fragment` is the state of the page's own
/// link (an iframe's `#v2=…`); `scoped`: a custom element (keys and theme stay
/// inside it) rather than a page of its own (an iframe).
pub fn mount_widget(
    parent: web_sys::HtmlElement,
    options: Options,
    fragment: Option<Result<Shared, LinkError>>,
    playground: String,
    scoped: bool,
) -> Widget {
    let out: Rc<RefCell<Option<(Client, js_sys::Promise)>>> = Rc::default();
    let panels: Vec<Panel> = options.panels();
    let ids: Vec<&'static str> = panels.iter().map(|p| p.id()).collect();
    let slot = out.clone();
    let transport_ids = ids.clone();
    let scope = scoped.then(|| parent.clone().into());
    let unmount = leptos::mount::mount_to(parent, move || {
        let start = options.start(fragment.clone().and_then(Result::ok));
        let client = new_client(start.config.as_deref(), !options.in_page, &playground);
        let mut problems = options.problems.clone();
        if let Some(Err(e)) = &fragment {
            problems.push(e.to_string());
        }
        let problems = RwSignal::new(problems);
        let announce = (!scoped).then(|| transport_ids.clone());
        let (opened, resolve) = promise();
        // The first build is done (or refused): a transport says the widget is ready.
        open(client, &start, move |r| {
            if let Err(e) = r {
                problems.update(|p| p.push(e));
            }
            if let Some(ids) = announce {
                super::messages::announce(client, ids);
            }
            let _ = resolve.call0(&JsValue::NULL);
        });
        *slot.borrow_mut() = Some((client, opened));
        provide_context(Mount { embed: true, readonly: options.readonly, persist: false, playground });
        if let Some(text) = options.input.clone() {
            client.input.set(text.clone());
            client.send(Command::Stdin { text });
        }
        if let Some(steps_per_second) = options.speed {
            client.send(Command::Speed { steps_per_second });
        }
        if options.autoplay {
            client.send(Command::Run);
        }
        let player = lesson::Player::new(client);
        if let Some(l) = options.lesson.clone() {
            player.open(l);
        }
        let theme = keys::Theme::new(options.theme);
        if !scoped {
            theme.on_document();
            // An iframe's widget talks to its parent window.
            super::messages::install(client);
        }
        view! { <WidgetView client panels theme problems scope player /> }
    });
    let (client, opened) = out.borrow_mut().take().expect("invariant: the mount ran its view");
    Widget { client, panels: ids, opened, _unmount: Box::new(unmount) }
}

#[component]
fn WidgetView(
    client: Client,
    panels: Vec<Panel>,
    theme: keys::Theme,
    problems: RwSignal<Vec<String>>,
    scope: Option<web_sys::Element>,
    player: lesson::Player,
) -> impl IntoView {
    let handle = editor::EditorHandle::new(false);
    let actions = Actions::new(client, handle);
    let help = RwSignal::new(false);
    keys::install(actions, help, client, scope);
    let dark = theme.dark();
    let root = NodeRef::<leptos::html::Div>::new();
    let size = RwSignal::new((800.0, 500.0));
    watch_size(root, size);
    let fit = Memo::new(move |_| Options::fit(size.get().0, size.get().1));
    let n = panels.len();
    // With the call stack or memory shown, the debugger's moves are in the bar too.
    let debugging = panels.contains(&Panel::Stack) || panels.contains(&Panel::Memory);
    // When not all fit: the first `fit - 1` by priority, and the tab chosen last
    // (until one is chosen, the next by priority).
    let chosen = RwSignal::new(None);
    let order = StoredValue::new(panels.clone());
    let shown = move |p: Panel| {
        let k = fit.get();
        order.with_value(|order| {
            let i = order.iter().position(|x| *x == p).unwrap_or(usize::MAX);
            n <= k || i + 1 < k || chosen.get().unwrap_or(order[k - 1]) == p
        })
    };
    let tabs = panels
        .iter()
        .map(|&p| {
            let on = shown;
            view! {
                <button
                    data-testid=format!("tab-{}", p.id())
                    aria-pressed=move || on(p).to_string()
                    on:click=move |_| chosen.set(Some(p))
                >
                    {p.label()}
                </button>
            }
        })
        .collect_view();
    let views = panels
        .iter()
        .map(|&p| {
            let on = shown;
            view! {
                <section class="wpanel" data-panel=p.id() aria-label=p.label() hidden=move || !on(p)>
                    {panel_view(p, client, actions, handle, dark)}
                </section>
            }
        })
        .collect_view();
    let cols = move || {
        let visible = n.min(fit.get()).max(1);
        let cols = if visible > 3 { visible.div_ceil(2) } else { visible };
        format!("grid-template-columns: repeat({cols}, minmax(0, 1fr))")
    };
    let running = move || client.view.with(|v| v.running);
    let tone = move || {
        client.view.with(|v| match v.status {
            Status::Halted => "status ok",
            Status::Error | Status::Fault => "status bad",
            _ => "status",
        })
    };
    let playground = Mount::get().playground;
    let builds = Memo::new(move |_| client.build.with(|b| b.builds));
    let href = {
        let playground = playground.clone();
        move || {
            builds.get();
            format!("{playground}#{}", link::encode(&current_state(client, handle.text())))
        }
    };
    // The link takes the step on display when it is followed.
    let follow = move |e: leptos::ev::MouseEvent| {
        if let Some(a) = e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
            let _ = a.set_attribute(
                "href",
                &format!("{playground}#{}", link::encode(&current_state(client, handle.text()))),
            );
        }
    };
    let problem = move || problems.with(|p| (!p.is_empty()).then(|| p.join(" · ")));
    let no_layers = move || !client.build.with(|b| b.engine.is_some_and(|e| e.is_transformer()));
    view! {
        <div class="loom widget" data-theme=move || theme.name() tabindex="-1" node_ref=root>
            <div class="wbar" role="toolbar" aria-label="Controls">
                <button data-testid="run" class="primary" aria-pressed=move || running().to_string() on:click=move |_| actions.toggle_run.run(())>
                    {move || if running() { "❚❚ Pause" } else { "▶ Run" }}
                </button>
                <button data-testid="step" title="Step one instruction" on:click=move |_| actions.step.run(())>"Step"</button>
                <button data-testid="step-layer" title="Step one layer" disabled=no_layers on:click=move |_| actions.step_layer.run(())>"Layer"</button>
                {debugging.then(|| view! {
                    <button data-testid="step-over" title="Step over: to the next line, calls run whole (F10)" on:click=move |_| actions.step_over.run(())>"Over"</button>
                    <button data-testid="step-out" title="Step out: until this function returns (Shift+F11)" on:click=move |_| actions.step_out.run(())>"Out"</button>
                })}
                <button data-testid="step-back" title="Step back" on:click=move |_| actions.step_back.run(())>"Back"</button>
                <button data-testid="reset" title="Reset" on:click=move |_| actions.reset.run(())>"Reset"</button>
                <span data-testid="status" class=tone role="status">{move || client.view.with(|v| v.text.clone())}</span>
                <span class="count">"steps " <b data-testid="step-count">{move || client.view.with(|v| v.steps)}</b></span>
                <machine::ThreadNote client />
                <a class="open" data-testid="open-playground" target="_blank" rel="noopener" href=href on:click=follow>
                    "Open in playground ↗"
                </a>
            </div>
            {move || problem().map(|p| view! { <p class="banner bad" data-testid="link-problem" role="alert">{p}</p> })}
            <lesson::LessonView player />
            <nav class="wtabs" aria-label="Views" hidden=move || n <= fit.get()>{tabs}</nav>
            <div class="wpanels" style=cols>{views}</div>
            <keys::HelpSheet open=help />
        </div>
    }
}

/// A promise and the function that resolves it.
fn promise() -> (js_sys::Promise, js_sys::Function) {
    let mut resolve = None;
    let p = js_sys::Promise::new(&mut |r, _| resolve = Some(r));
    (p, resolve.expect("invariant: a promise's executor runs at once"))
}
