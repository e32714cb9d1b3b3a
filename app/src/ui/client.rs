//! The page's end of the session protocol: components send [`Command`]s
//! through a [`Client`] and draw the [`Build`] and [`View`] its events carry.
//! This client runs the [`Driver`] in the page's own thread, one time slice
//! per animation frame (at most [`SLICE_MS`] of execution, so the page never
//! blocks); anything else that listens to the session (an embedding page, a
//! script) subscribes to the same events with [`Client::subscribe`].

use crate::session::{Build, Command, Driver, Event, Next, Session, View};
use leptos::prelude::*;
use loom_core::frontend::explain::Target;
use std::rc::Rc;

/// Milliseconds of execution per animation frame.
pub const SLICE_MS: f64 = 8.0;

type Listener = Rc<dyn Fn(&Event)>;

#[derive(Clone, Copy)]
pub struct Client {
    driver: StoredValue<Driver, LocalStorage>,
    /// What the last build produced; views of the build alone read this.
    pub build: RwSignal<Build>,
    /// The machine as the views show it now.
    pub view: RwSignal<View>,
    /// The last refused command's reason, for the status line.
    pub problem: RwSignal<Option<String>>,
    /// What the Explain view's links or a lesson point at: the heatmap and
    /// attention views mark it. Page-side only, no session state.
    pub highlight: RwSignal<Option<Target>>,
    listeners: StoredValue<Vec<Listener>, LocalStorage>,
    /// Whether a tick is already scheduled (so commands never start a second loop).
    ticking: StoredValue<bool>,
}

fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

impl Client {
    pub fn new(session: Session) -> Client {
        let driver = Driver::new(session);
        let (build, view) = (driver.build(), driver.view());
        Client {
            driver: StoredValue::new_local(driver),
            build: RwSignal::new(build),
            view: RwSignal::new(view),
            problem: RwSignal::new(None),
            highlight: RwSignal::new(None),
            listeners: StoredValue::new_local(Vec::new()),
            ticking: StoredValue::new(false),
        }
    }

    /// Calls `f` with every event from now on.
    pub fn subscribe(&self, f: impl Fn(&Event) + 'static) {
        self.listeners.update_value(|l| l.push(Rc::new(f)));
    }

    /// Reads the driver (for what no event carries, e.g. the speed).
    pub fn with_driver<T>(&self, f: impl FnOnce(&Driver) -> T) -> T {
        self.driver.with_value(f)
    }

    /// Sends a command; its events reach the views and the listeners. A
    /// refused command leaves everything as it was and says why.
    pub fn send(&self, cmd: Command) -> Result<(), String> {
        let result =
            self.driver.try_update_value(|d| d.handle(cmd, now())).expect("invariant: the driver lives with the page");
        match result {
            Ok(events) => {
                self.problem.set(None);
                self.apply(events);
                self.schedule(Next::Soon);
                Ok(())
            }
            Err(e) => {
                self.problem.set(Some(e.clone()));
                Err(e)
            }
        }
    }

    fn apply(&self, events: Vec<Event>) {
        let listeners = self.listeners.get_value();
        for e in events {
            for l in &listeners {
                l(&e);
            }
            match e {
                Event::Compiled(b) => self.build.set(*b),
                Event::Step(v) | Event::Paused(v) | Event::Halted(v) | Event::Fault(v) | Event::Frame(v) => {
                    self.view.set(*v)
                }
                // Whoever asked for it listens (the download menu saves it, a transport posts it).
                Event::File(_) => {}
            }
        }
    }

    fn schedule(self, next: Next) {
        if self.ticking.get_value() || !self.driver.with_value(Driver::running) {
            return;
        }
        self.ticking.set_value(true);
        match next {
            Next::Idle => self.ticking.set_value(false),
            Next::Soon => request_animation_frame(move || self.tick()),
            Next::After(ms) => set_timeout(
                move || request_animation_frame(move || self.tick()),
                std::time::Duration::from_secs_f64(ms / 1000.0),
            ),
        }
    }

    fn tick(self) {
        self.ticking.set_value(false);
        let (events, next) = self
            .driver
            .try_update_value(|d| d.tick(&mut now, SLICE_MS))
            .expect("invariant: the driver lives with the page");
        self.apply(events);
        self.schedule(next);
    }
}
