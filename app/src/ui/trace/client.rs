//! The trace page's end of its protocol: components send [`TraceCommand`]s
//! and draw the [`TraceBuild`] and [`TraceView`] the events carry. Like the
//! Loom page's client, it runs the session in the page's thread, one time
//! slice per animation frame while running, so the page never blocks.

use crate::trace::{TraceBuild, TraceCommand, TraceEvent, TraceSession, TraceView};
use crate::ui::client::SLICE_MS;
use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct TraceClient {
    session: StoredValue<TraceSession, LocalStorage>,
    pub build: RwSignal<TraceBuild>,
    pub view: RwSignal<TraceView>,
    /// The last refused command's reason.
    pub problem: RwSignal<Option<String>>,
    /// Whether a tick is scheduled (so commands never start a second loop).
    ticking: StoredValue<bool>,
}

fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

impl Default for TraceClient {
    fn default() -> TraceClient {
        TraceClient::new()
    }
}

impl TraceClient {
    pub fn new() -> TraceClient {
        let session = TraceSession::new();
        let (build, view) = (session.build(), session.view());
        TraceClient {
            session: StoredValue::new_local(session),
            build: RwSignal::new(build),
            view: RwSignal::new(view),
            problem: RwSignal::new(None),
            ticking: StoredValue::new(false),
        }
    }

    /// Sends a command; a refused one changes nothing and says why.
    pub fn send(&self, cmd: TraceCommand) {
        let result =
            self.session.try_update_value(|s| s.handle(cmd)).expect("invariant: the session lives with the page");
        match result {
            Ok(events) => {
                self.problem.set(None);
                self.apply(events);
                self.schedule();
            }
            Err(e) => self.problem.set(Some(e)),
        }
    }

    fn apply(&self, events: Vec<TraceEvent>) {
        for e in events {
            match e {
                TraceEvent::Loaded(b) => self.build.set(*b),
                TraceEvent::Moved(v) => self.view.set(*v),
            }
        }
    }

    fn schedule(self) {
        if self.ticking.get_value() || !self.session.with_value(TraceSession::running) {
            return;
        }
        self.ticking.set_value(true);
        request_animation_frame(move || self.tick());
    }

    fn tick(self) {
        self.ticking.set_value(false);
        let events = self
            .session
            .try_update_value(|s| s.tick(&mut now, SLICE_MS))
            .expect("invariant: the session lives with the page");
        self.apply(events);
        self.schedule();
    }
}
