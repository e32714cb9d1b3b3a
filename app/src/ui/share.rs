//! Links in and out of the page: the banner that says what a link did (or
//! why it could not be opened, with the draft one click away), and the
//! "Share / Embed" dialog: the v2 link, an iframe snippet and a custom-element
//! snippet with the embed options as checkboxes, and a live preview.
//! Everything here is text: a link's contents never become markup.

use super::manual::{self, ManualLink};
use super::{current_state, editor::EditorHandle, open, Client};
use crate::link::{self, Shared};
use crate::options::Panel;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What the page says about the link it was opened with.
#[derive(Clone, Debug, PartialEq)]
pub enum Banner {
    None,
    /// The link's program is on screen (the saved draft is kept).
    Opened,
    /// The link could not be opened: why. The draft is on screen.
    Broken(String),
}

/// Takes the link out of the address (a reload then opens the draft).
fn forget_link() {
    if let Ok(h) = window().history() {
        let l = window().location();
        let url = format!("{}{}", l.pathname().unwrap_or_default(), l.search().unwrap_or_default());
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

#[component]
pub fn LinkBanner(banner: RwSignal<Banner>, client: Client, draft: Shared) -> impl IntoView {
    let shown = banner;
    let has_draft = !draft.source.is_empty();
    let differs = {
        let d = draft.source.clone();
        move || has_draft && client.build.with_untracked(|b| b.source != d)
    };
    let restore = move |_| {
        open(client, &draft, |_| {});
        forget_link();
        shown.set(Banner::None);
    };
    move || match shown.get() {
        Banner::None => ().into_any(),
        Banner::Opened if !differs() => ().into_any(),
        Banner::Opened => view! {
            <div class="banner" data-testid="link-banner" role="status">
                "You opened a shared program. Your own draft is kept: "
                <button data-testid="restore-draft" on:click=restore.clone()>"Back to my draft"</button>
                <button class="ghost" aria-label="Dismiss" on:click=move |_| shown.set(Banner::None)>"×"</button>
            </div>
        }
        .into_any(),
        Banner::Broken(why) => view! {
            <div class="banner bad" data-testid="link-problem" role="alert">
                <b>"This link could not be opened: "</b>
                {why}
                ". Your own draft is shown instead."
                <button class="ghost" aria-label="Dismiss" on:click=move |_| {
                    forget_link();
                    shown.set(Banner::None)
                }>"×"</button>
            </div>
        }
        .into_any(),
    }
}

/// Sizes offered for the embed: label, width, height (CSS pixels; 0 = 100 %).
const SIZES: [(&str, u32, u32); 4] =
    [("480 × 320", 480, 320), ("640 × 400", 640, 400), ("800 × 500", 800, 500), ("full width × 600", 0, 600)];

/// `&`, `<`, `>` and `"` as entities: for text put inside a snippet's attribute.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The site's root (where `index.html` and `loom-playground.js` live) and the page's address.
fn here() -> (String, String) {
    let l = window().location();
    let page = format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default());
    let root = page.rsplit_once('/').map_or_else(|| page.clone(), |(dir, _)| format!("{dir}/"));
    (root, page)
}

/// Copies `text`; says "Copied ✓" (or how to copy by hand) in `said`. The
/// old `execCommand("copy")` first, while the click's user activation holds
/// (it works where the asynchronous clipboard is denied, as in some embeds),
/// then the clipboard API.
fn copy(text: String, said: RwSignal<Option<&'static str>>) {
    let done = move |ok: bool| {
        said.set(Some(if ok { "Copied ✓" } else { "Select the text and press Ctrl+C (⌘C) to copy" }));
        set_timeout(move || said.set(None), std::time::Duration::from_secs(3));
    };
    if copy_by_selection(&text) {
        return done(true);
    }
    let promise = window().navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        done(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
    });
}

/// Copies through a hidden textarea's selection; whether the browser did.
fn copy_by_selection(text: &str) -> bool {
    let doc = document();
    let (Some(body), Ok(area)) = (doc.body(), doc.create_element("textarea")) else { return false };
    let Ok(area) = area.dyn_into::<web_sys::HtmlTextAreaElement>() else { return false };
    area.set_value(text);
    let _ = area.set_attribute("style", "position:fixed;top:0;left:0;opacity:0");
    let _ = body.append_child(&area);
    area.select();
    let ok = doc.dyn_ref::<web_sys::HtmlDocument>().and_then(|d| d.exec_command("copy").ok()).unwrap_or(false);
    area.remove();
    ok
}

#[component]
pub fn ShareDialog(open: RwSignal<bool>, client: Client, handle: EditorHandle) -> impl IntoView {
    // The state when the dialog opened (the program does not change while it is open).
    let state = RwSignal::new(String::new());
    Effect::new(move |_| {
        if open.get() {
            let fragment = link::encode(&current_state(client, handle.text()));
            // The address becomes the link too, as sharing always did.
            if let Ok(h) = window().history() {
                let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("#{fragment}")));
            }
            state.set(fragment);
        }
    });
    let link = move || format!("{}#{}", here().1, state.get());
    let panels = RwSignal::new(vec![Panel::Editor, Panel::Machine, Panel::Heatmap]);
    let readonly = RwSignal::new(false);
    let autoplay = RwSignal::new(false);
    let size = RwSignal::new(0usize);
    let query = move || {
        let mut q = String::from("embed");
        let ids: Vec<_> = panels.get().iter().map(|p| p.id()).collect();
        if !ids.is_empty() {
            q.push_str(&format!("&panels={}", ids.join(",")));
        }
        for (on, name) in [(readonly.get(), "readonly"), (autoplay.get(), "autoplay")] {
            if on {
                q.push('&');
                q.push_str(name);
            }
        }
        q
    };
    let embed_url = move || format!("{}?{}#{}", here().1, query(), state.get());
    let (w, h) = (move || SIZES[size.get()].1, move || SIZES[size.get()].2);
    let css_w = move || if w() == 0 { "100%".to_owned() } else { format!("{}px", w()) };
    let iframe = move || {
        format!(
            "<iframe src=\"{}\" width=\"{}\" height=\"{}\" style=\"border:0\" title=\"Loom playground\" loading=\"lazy\"></iframe>",
            attr(&embed_url()),
            if w() == 0 { "100%".to_owned() } else { w().to_string() },
            h()
        )
    };
    let element = move || {
        let ids: Vec<_> = panels.get().iter().map(|p| p.id()).collect();
        let mut attrs = format!(" panels=\"{}\"", ids.join(","));
        for (on, name) in [(readonly.get(), " readonly"), (autoplay.get(), " autoplay")] {
            if on {
                attrs.push_str(name);
            }
        }
        let payload = state.get().strip_prefix("v2=").unwrap_or_default().to_owned();
        format!(
            "<script type=\"module\" src=\"{}loom-playground.js\"></script>\n<loom-playground{attrs} state=\"{}\" style=\"display:block;width:{};height:{}px\"></loom-playground>",
            attr(&here().0),
            attr(&payload),
            css_w(),
            h()
        )
    };
    let said_link = RwSignal::new(None);
    let said_iframe = RwSignal::new(None);
    let said_element = RwSignal::new(None);
    let checkboxes = Panel::ALL
        .into_iter()
        .map(|p| {
            let on = move || panels.with(|ps| ps.contains(&p));
            let toggle = move |_| {
                panels.update(|ps| {
                    if let Some(i) = ps.iter().position(|x| *x == p) {
                        ps.remove(i);
                    } else {
                        ps.push(p);
                    }
                })
            };
            view! {
                <label>
                    <input type="checkbox" data-testid=format!("embed-panel-{}", p.id()) prop:checked=on on:change=toggle />
                    {p.id()}
                </label>
            }
        })
        .collect_view();
    let sizes = SIZES
        .iter()
        .enumerate()
        .map(|(i, (label, ..))| view! { <option value=i.to_string() prop:selected=move || size.get() == i>{*label}</option> })
        .collect_view();
    let close = move || {
        open.set(false);
    };
    let on_key = move |e: web_sys::KeyboardEvent| {
        if e.key() == "Escape" {
            e.stop_propagation();
            close();
        }
    };
    let select_all = |e: leptos::ev::FocusEvent| {
        if let Some(t) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
            t.select();
        }
    };
    view! {
        <div class="share" role="dialog" aria-modal="true" aria-label="Share or embed" hidden=move || !open.get() on:keydown=on_key>
            <div class="share-box">
                <h2>"Share a link"</h2>
                <div class="row">
                    <input class="mono" readonly data-testid="share-link" aria-label="Link" prop:value=link on:focus=select_all />
                    <button class="primary" data-testid="copy-link" on:click=move |_| copy(link(), said_link)>"Copy link"</button>
                </div>
                <p class="said" role="status" data-testid="copied">{move || said_link.get()}</p>
                <p class="hint" data-testid="link-length">
                    {move || link::length_note(link().len()).unwrap_or_default()}
                </p>
                <h2>"Embed"</h2>
                <p class="hint" data-testid="embed-manual">
                    "Every option, and how to drive the widget from a script: "
                    <ManualLink page=manual::EMBEDDING title="Share links, the iframe's options and the custom element">"embedding"</ManualLink>
                    ", "
                    <ManualLink page=manual::PROTOCOL title="The postMessage protocol and the JS API">"the protocol and the JS API"</ManualLink>
                    "."
                </p>
                <div class="row options">
                    <span class="hint">"views:"</span>
                    {checkboxes}
                </div>
                <div class="row options">
                    <label>
                        <input type="checkbox" data-testid="embed-readonly" prop:checked=move || readonly.get() on:change=move |_| readonly.update(|r| *r = !*r) />
                        "read-only"
                    </label>
                    <label>
                        <input type="checkbox" data-testid="embed-autoplay" prop:checked=move || autoplay.get() on:change=move |_| autoplay.update(|a| *a = !*a) />
                        "run on load"
                    </label>
                    <label class="picker">
                        "size "
                        <select data-testid="embed-size" on:change=move |ev| size.set(event_target_value(&ev).parse().unwrap_or(0))>
                            {sizes}
                        </select>
                    </label>
                </div>
                <div class="row">
                    <textarea class="mono snippet" readonly data-testid="iframe-snippet" aria-label="iframe snippet" prop:value=iframe></textarea>
                    <button data-testid="copy-iframe" on:click=move |_| copy(iframe(), said_iframe)>"Copy iframe"</button>
                </div>
                <p class="said" role="status">{move || said_iframe.get()}</p>
                <div class="row">
                    <textarea class="mono snippet" readonly data-testid="element-snippet" aria-label="Custom element snippet" prop:value=element></textarea>
                    <button data-testid="copy-element" on:click=move |_| copy(element(), said_element)>"Copy element"</button>
                </div>
                <p class="said" role="status">{move || said_element.get()}</p>
                <h2>"Preview"</h2>
                <div class="preview">
                    {move || {
                        open.get().then(|| {
                            view! {
                                <iframe
                                    data-testid="embed-preview"
                                    title="Preview of the embedded widget"
                                    src=embed_url()
                                    style=format!("border:1px solid var(--line);width:{};height:{}px", css_w(), h())
                                ></iframe>
                            }
                        })
                    }}
                </div>
                <button data-testid="share-close" on:click=move |_| close()>"Close"</button>
            </div>
        </div>
    }
}
