//! The session's web worker (Trunk builds it beside the page: `www/index.html`).
fn main() {
    loom_app::worker::start();
}
