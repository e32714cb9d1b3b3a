//! The lesson player: a lesson's step (its Markdown as DOM nodes), Next and
//! Back, progress, the step's check verified live on the view, and the
//! picker of built-in lessons. Entering a step sends the commands
//! [`Lesson::enter`] computes, through the client like any button.

use super::manual::{self, ManualLink};
use super::Client;
use crate::lesson::{self, Lesson};
use crate::markdown::{self, Block, Inline};
use leptos::prelude::*;
use loom_core::frontend::Config;
use loom_core::frontend::Layout;

/// The open lesson of a mounted instance, and the step on display.
#[derive(Clone, Copy)]
pub struct Player {
    pub lesson: RwSignal<Option<Lesson>>,
    at: RwSignal<usize>,
    /// The step whose program is loaded (so Next does not reload it).
    loaded: StoredValue<Option<usize>>,
    client: Client,
}

impl Player {
    pub fn new(client: Client) -> Player {
        Player { lesson: RwSignal::new(None), at: RwSignal::new(0), loaded: StoredValue::new(None), client }
    }

    /// Opens a lesson at its first step.
    pub fn open(self, l: Lesson) {
        self.lesson.set(Some(l));
        self.loaded.set_value(None);
        self.go(0);
    }

    pub fn close(self) {
        self.lesson.set(None);
        self.client.highlight.set(None);
    }

    /// Shows step `i`: its program when another is needed, its action, its highlight.
    fn go(self, i: usize) {
        let Some(l) = self.lesson.get_untracked() else { return };
        if i >= l.steps.len() {
            return;
        }
        let client = self.client;
        let highlight = l.steps[i].highlight.clone();
        // The highlight names rows of the configuration the step's program is built for: once it is.
        let show = move || {
            let lay = client.build.with_untracked(|b| Config::preset(&b.config).ok().map(|c| Layout::new(&c)));
            client.highlight.set(highlight.as_ref().zip(lay).and_then(|(h, lay)| h.target(&lay)));
        };
        let mut commands = l.enter(i, self.loaded.get_value());
        match commands.pop() {
            Some(last) => {
                // A refused command says why in the status line; the lesson goes on.
                for cmd in commands {
                    client.send(cmd);
                }
                client.request(vec![last], Some(Box::new(move |_| show())));
            }
            None => show(),
        }
        self.loaded.set_value(Some(l.load_of(i)));
        self.at.set(i);
    }
}

fn inline(parts: Vec<Inline>) -> impl IntoView {
    parts
        .into_iter()
        .map(|p| match p {
            Inline::Text(t) => t.into_any(),
            Inline::Strong(t) => view! { <strong>{t}</strong> }.into_any(),
            Inline::Em(t) => view! { <em>{t}</em> }.into_any(),
            Inline::Code(t) => view! { <code>{t}</code> }.into_any(),
        })
        .collect_view()
}

/// Lesson text as DOM nodes (never HTML).
fn text(md: &str) -> impl IntoView {
    markdown::parse(md)
        .into_iter()
        .map(|b| match b {
            Block::Para(p) => view! { <p>{inline(p)}</p> }.into_any(),
            Block::List(items) => {
                view! { <ul>{items.into_iter().map(|i| view! { <li>{inline(i)}</li> }).collect_view()}</ul> }.into_any()
            }
            Block::Code(c) => view! { <pre><code>{c}</code></pre> }.into_any(),
        })
        .collect_view()
}

/// The picker of built-in lessons.
#[component]
pub fn Picker(player: Player) -> impl IntoView {
    let lessons = lesson::builtin();
    let options =
        lessons.iter().map(|l| view! { <option value=l.id.clone()>{l.title.clone()}</option> }).collect_view();
    let pick = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if let Ok(l) = lesson::by_id(&id) {
            player.open(l);
        }
    };
    view! {
        <select data-testid="lesson-picker" aria-label="Open a lesson" on:change=pick prop:value=move || {
            player.lesson.with(|l| l.as_ref().map_or_else(String::new, |l| l.id.clone()))
        }>
            <option value="">"Lessons…"</option>
            {options}
        </select>
        <ManualLink page=manual::LESSONS title="The lessons, and how to write one, in the manual">"About lessons"</ManualLink>
    }
}

/// The open lesson's step, with Next/Back, progress and its check.
#[component]
pub fn LessonView(player: Player) -> impl IntoView {
    let client = player.client;
    let at = player.at;
    let step = move || player.lesson.with(|l| l.as_ref().and_then(|l| l.steps.get(at.get()).cloned()));
    let count = move || player.lesson.with(|l| l.as_ref().map_or(0, |l| l.steps.len()));
    let verdict = move || {
        let check = step()?.check?;
        Some(client.view.with(|v| check.verify(v)))
    };
    let share = move || player.lesson.with(|l| l.as_ref().map(|l| format!("#{}", lesson::encode(l))));
    let last = move || at.get() + 1 >= count();
    view! {
        <section class="lesson" data-testid="lesson" aria-label="Lesson" hidden=move || player.lesson.with(Option::is_none)>
            <header>
                <h2>{move || player.lesson.with(|l| l.as_ref().map(|l| l.title.clone()))}</h2>
                <span class="progress" data-testid="lesson-progress">
                    {move || format!("Step {} of {}", at.get() + 1, count())}
                </span>
                <a class="ghost" data-testid="lesson-link" title="A link that opens this lesson" href=share>"link"</a>
                <button class="ghost" aria-label="Close the lesson" on:click=move |_| player.close()>"×"</button>
            </header>
            <div class="lesson-text">{move || step().map(|s| text(&s.text.text()))}</div>
            <p
                class="check"
                data-testid="lesson-check"
                role="status"
                class:pass=move || verdict().is_some_and(|v| v.passed)
                class:fail=move || verdict().is_some_and(|v| !v.passed)
                hidden=move || verdict().is_none()
            >
                {move || verdict().map(|v| v.text)}
            </p>
            <nav>
                <button data-testid="lesson-back" disabled=move || at.get() == 0 on:click=move |_| player.go(at.get().saturating_sub(1))>
                    "← Back"
                </button>
                <button class="primary" data-testid="lesson-next" disabled=last on:click=move |_| player.go(at.get() + 1)>
                    "Next →"
                </button>
            </nav>
        </section>
    }
}
