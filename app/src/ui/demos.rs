//! The demo picker and the wiring of [`crate::demo`] into the page: choosing
//! a demo loads its source and configuration, builds, writes the example's
//! inputs, and shows its panel; the run loop pauses at `frame()` through
//! [`DemoSlot::at_frame`]; keys reach the demo while it runs.

use super::editor::EditorHandle;
use super::{Runner, SessionSignal};
use crate::demo::{trace_matches, DemoPanel, DemoRunner, DemoView, DEMOS};
use crate::session::Session;
use crate::storage;
use leptos::prelude::*;
use loom_core::Config;

/// The demo on display, if any, and its chosen example.
#[derive(Clone, Copy)]
pub struct DemoSlot {
    runner: RwSignal<Option<DemoRunner>, LocalStorage>,
    example: RwSignal<usize>,
}

impl DemoSlot {
    pub fn new() -> DemoSlot {
        DemoSlot { runner: RwSignal::new_local(None), example: RwSignal::new(0) }
    }

    pub fn active(&self) -> bool {
        self.runner.with_untracked(Option::is_some)
    }

    /// Writes the chosen example's inputs into the freshly loaded machine.
    pub fn prepare(&self, s: &mut Session) {
        let example = self.example.get_untracked();
        self.runner.update(|r| {
            let (Some(r), Some(e)) = (r.as_mut(), s.engine_mut()) else { return };
            r.reseed((js_sys::Math::random() * u64::MAX as f64) as u64);
            // A refused write (source edited away from the metadata) shows in the panel's view.
            let _ = r.prepare(e, example);
        });
        s.host_wrote();
    }

    /// At a `frame()`: the queued inputs go in; returns the pause before the next frame.
    pub fn at_frame(&self, s: &mut Session) -> Option<f64> {
        let ms = self.runner.try_update(|r| {
            let r = r.as_mut()?;
            if let Some(e) = s.engine_mut() {
                r.at_frame(e);
            }
            r.frame_interval_ms()
        });
        s.host_wrote();
        ms.flatten()
    }

    /// A key for the demo; true when it used it.
    pub fn on_key(&self, key: &str) -> bool {
        self.runner.try_update(|r| r.as_mut().is_some_and(|r| r.on_key(key))).unwrap_or(false)
    }
}

fn load(id: &str, slot: DemoSlot, session: SessionSignal, runner: Runner, editor: EditorHandle) {
    runner.pause();
    let Some(demo) = DEMOS.iter().find(|d| d.id == id) else {
        slot.runner.set(None);
        return;
    };
    let r = DemoRunner::new(demo);
    let config = Config::preset(&r.meta().config).unwrap_or_else(|_| session.with_untracked(|s| s.config()));
    slot.runner.set(Some(r));
    slot.example.set(0);
    storage::save_draft(demo.source);
    storage::save_config(config.name);
    editor.set_text(demo.source);
    session.update(|s| {
        s.set_source(demo.source.to_owned());
        s.set_config(config);
        slot.prepare(s);
    });
}

#[component]
pub fn Demos(session: SessionSignal, runner: Runner, demo: DemoSlot, editor: EditorHandle) -> impl IntoView {
    // (`slot` is a keyword of the view macro, so the prop is called `demo`.)
    let slot = demo;
    let options = DEMOS
        .iter()
        .map(|d| {
            let title = d.meta().map_or_else(|_| d.id.to_owned(), |m| m.title);
            view! { <option value=d.id>{title}</option> }
        })
        .collect_view();
    let picture = Signal::derive(move || -> Option<DemoView> {
        slot.runner.with(|r| {
            let r = r.as_ref()?;
            session.with(|s| {
                let matches = s.trace().map(trace_matches).unwrap_or_default();
                Some(r.view(s.engine_ref()?, &matches))
            })
        })
    });
    let examples =
        Signal::derive(move || slot.runner.with(|r| r.as_ref().map(DemoRunner::examples).unwrap_or_default()));
    let on_example = Callback::new(move |k: usize| {
        runner.pause();
        slot.example.set(k);
        session.update(|s| {
            s.reset();
            slot.prepare(s);
        });
    });
    let on_key = Callback::new(move |key: String| {
        slot.on_key(&key);
    });
    let on_puzzle = Callback::new(move |text: String| {
        let k = slot.runner.try_update(|r| r.as_mut().and_then(|r| r.set_puzzle(&text).ok())).flatten();
        if let Some(k) = k {
            on_example.run(k);
        }
    });
    view! {
        <label class="picker">
            "demo "
            <select data-testid="demo" on:change=move |ev| load(&event_target_value(&ev), slot, session, runner, editor)>
                <option value="">"— your program —"</option>
                {options}
            </select>
        </label>
        <div class="demo-slot" hidden=move || slot.runner.with(Option::is_none)>
            <DemoPanel view=picture runner_examples=examples on_example on_key on_puzzle />
        </div>
    }
}
