//! "Download": the model of the current configuration (safetensors, ONNX)
//! and the state after the steps on display (`.npy`), with one line saying how
//! to run them. The files come from the session as `file` events (the bytes
//! `loom export` and `loom state` write); this menu asks for them and hands
//! each to the browser as a download.

use super::Client;
use crate::session::{Command, Event, File, FileKind};
use leptos::prelude::*;
use loom_core::frontend::{how_to_run, model_file_name, state_file_name, Config, Format};
use wasm_bindgen::{JsCast, JsValue};

/// How long an object URL outlives its click (the browser reads the blob when the download starts).
const REVOKE_AFTER: std::time::Duration = std::time::Duration::from_secs(30);

/// Gives the browser `file` to save, through a Blob and a click on an `<a download>`.
fn save(file: &File) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(&file.bytes[..]));
    let kind = web_sys::BlobPropertyBag::new();
    kind.set_type("application/octet-stream");
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &kind)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let doc = document();
    let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.unchecked_into();
    a.set_href(&url);
    a.set_download(&file.name);
    // Attached while clicked: some engines ignore a click on a detached anchor.
    let body = doc.body().ok_or("no body")?;
    body.append_child(&a)?;
    a.click();
    a.remove();
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        REVOKE_AFTER,
    );
    Ok(())
}

#[component]
pub fn DownloadMenu(client: Client) -> impl IntoView {
    let open = RwSignal::new(false);
    client.subscribe(move |e| {
        if let Event::File(f) = e {
            if let Err(e) = save(f) {
                client.problem.set(Some(format!("the download of {} failed: {e:?}", f.name)));
            }
        }
    });
    let config = move || client.build.with(|b| Config::preset(&b.config).ok());
    let steps = move || client.view.with(|v| v.steps);
    // Why there is no state to download, if there is none.
    let no_state = move || {
        client.build.with(|b| match b.engine {
            _ if !b.ok => Some("The program does not build: there is no state.".to_owned()),
            Some(e) if !e.is_transformer() => {
                Some(format!("The {} has no state tensor: choose a transformer engine.", e.label()))
            }
            _ => None,
        })
    };
    let name = move |kind: FileKind| match (kind, config()) {
        (FileKind::Safetensors, Some(c)) => model_file_name(&c, Format::Safetensors),
        (FileKind::Onnx, Some(c)) => model_file_name(&c, Format::Onnx),
        (FileKind::State, _) => state_file_name(steps()),
        (_, None) => String::new(),
    };
    let item = move |kind: FileKind, what: &'static str| {
        let disabled = move || kind == FileKind::State && no_state().is_some();
        view! {
            <button
                role="menuitem"
                data-testid=format!("download-{}", kind.name())
                disabled=disabled
                title=move || if kind == FileKind::State { no_state().unwrap_or_default() } else { String::new() }
                on:click=move |_| {
                    open.set(false);
                    // A refused download says why in the status line.
                    client.send(Command::Download { file: kind });
                }
            >
                <span>{what}</span>
                <span class="mono">{move || name(kind)}</span>
            </button>
        }
    };
    let on_key = move |e: web_sys::KeyboardEvent| {
        if e.key() == "Escape" {
            e.stop_propagation();
            open.set(false);
        }
    };
    view! {
        <div class="download" on:keydown=on_key>
            <button
                class="ghost"
                data-testid="download"
                aria-haspopup="menu"
                aria-expanded=move || open.get().to_string()
                title="Download the model (safetensors, ONNX) and the state on display (.npy)"
                on:click=move |_| open.update(|o| *o = !*o)
            >
                "download"
            </button>
            <div class="download-menu" role="menu" aria-label="Download" hidden=move || !open.get()>
                {item(FileKind::Safetensors, "Model · safetensors")}
                {item(FileKind::Onnx, "Model · ONNX")}
                {item(FileKind::State, "State after this step")}
                <p class="hint" data-testid="download-how">
                    {move || config().map(|c| how_to_run(&c, steps())).unwrap_or_default()}
                </p>
            </div>
        </div>
    }
}
