//! What survives a reload: the editor draft, the chosen configuration, demo
//! and theme, in `localStorage`. Storage can be missing or full (private windows, quotas);
//! the page then simply starts from the example.

const DRAFT: &str = "loom.draft";
const CONFIG: &str = "loom.config";
const DEMO: &str = "loom.demo";
const THEME: &str = "loom.theme";

fn store() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn get(key: &str) -> Option<String> {
    store()?.get_item(key).ok()?
}

fn set(key: &str, value: &str) {
    if let Some(s) = store() {
        // A failed write only loses the draft on reload; nothing to tell the user mid-typing.
        let _ = s.set_item(key, value);
    }
}

pub fn load_draft() -> Option<String> {
    get(DRAFT)
}

pub fn save_draft(text: &str) {
    set(DRAFT, text);
}

/// The saved configuration's preset name.
pub fn load_config() -> Option<String> {
    get(CONFIG)
}

pub fn save_config(name: &str) {
    set(CONFIG, name);
}

/// The demo on display (its id), or none: the draft is then the user's own program.
pub fn load_demo() -> Option<String> {
    get(DEMO).filter(|d| !d.is_empty())
}

pub fn save_demo(id: Option<&str>) {
    set(DEMO, id.unwrap_or(""));
}

/// The theme chosen with the toggle: `"system"`, `"dark"` or `"light"`.
pub fn load_theme() -> Option<String> {
    get(THEME)
}

pub fn save_theme(name: &str) {
    set(THEME, name);
}
