//! The page's end of the session protocol: components send [`Command`]s
//! through a [`Client`] and draw the [`Build`] and [`View`] its events carry.
//!
//! The session runs in a web worker ([`crate::worker`], through
//! [`Remote`]) when one can be started: commands are posted to it, and its
//! events come back as messages, so a long run or a long replay never holds
//! the page. Where no worker can run (the `worker=0` option, a host page or
//! browser that forbids it, a worker that failed to load), the client runs
//! the [`Driver`] in the page's own thread instead, one time slice per
//! animation frame (at most [`SLICE_MS`] of execution, so the page never
//! blocks), and [`Client::thread`] says why for the status bar. Anything
//! else that listens to the session (an embedding page, a script) subscribes
//! to the same events with [`Client::subscribe`].

use super::remote::Remote;
use crate::relay::{FromWorker, ToWorker};
use crate::session::{Build, Command, Driver, Event, Next, Session, View};
use leptos::prelude::*;
use loom_core::frontend::explain::Target;
use loom_core::frontend::Config;
use std::rc::Rc;
use std::time::Duration;

/// Milliseconds of execution per animation frame (in-page runs).
pub const SLICE_MS: f64 = 8.0;

/// How long a worker may take to say it is ready before the page runs the session itself.
const START_MS: u64 = 20_000;

/// Where the session runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Thread {
    /// A worker is starting; commands wait for it.
    Starting,
    /// In a web worker.
    Worker,
    /// In the page's thread, and why.
    Page(String),
}

type Listener = Rc<dyn Fn(&Event)>;

/// Called with a request's outcome once its commands were carried out (or one was refused).
pub type Done = Box<dyn FnOnce(Result<(), String>)>;

struct Request {
    id: u32,
    commands: Vec<Command>,
    done: Option<Done>,
}

enum Backend {
    /// The session in a worker: requests wait in `waiting` until it is
    /// ready, then in `posted` until answered (answers come in order).
    Remote { remote: Remote, ready: bool, waiting: Vec<Request>, posted: Vec<Request>, config: String },
    /// The session in the page's thread.
    Local { driver: Box<Driver>, ticking: bool },
}

#[derive(Clone, Copy)]
pub struct Client {
    backend: StoredValue<Backend, LocalStorage>,
    /// What the last build produced; views of the build alone read this.
    pub build: RwSignal<Build>,
    /// The machine as the views show it now.
    pub view: RwSignal<View>,
    /// The last refused command's reason, for the status line.
    pub problem: RwSignal<Option<String>>,
    /// What the Explain view's links or a lesson point at: the heatmap and
    /// attention views mark it. Page-side only, no session state.
    pub highlight: RwSignal<Option<Target>>,
    /// The memory slots of the variable the pointer is over (the call stack, the
    /// variables): the heatmap outlines their columns. Page-side only.
    pub hovered: RwSignal<Vec<usize>>,
    /// The call stack's chosen frame (0: the innermost); its line is marked in the editor.
    pub frame: RwSignal<usize>,
    /// Where the session runs (the status bar says it when not in a worker).
    pub thread: RwSignal<Thread>,
    listeners: StoredValue<Vec<Listener>, LocalStorage>,
    next_id: StoredValue<u32>,
    /// The run speed last asked for (steps per second, 0 = as fast as possible).
    speed: StoredValue<u32>,
    /// The Input box's text (the session has it too: `Command::Stdin`).
    pub input: RwSignal<String>,
}

fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

fn local(config: Config) -> Box<Driver> {
    Box::new(Driver::new(Session::new(String::new(), config)))
}

impl Client {
    /// A client whose session starts empty in `config`: in a worker loaded
    /// from the playground's folder `worker` (`Ok`), or in the page (`Err`: why).
    pub fn new(config: Config, worker: Result<String, String>) -> Client {
        let driver = local(config);
        let (build, view) = (driver.build(), driver.view());
        let client = Client {
            backend: StoredValue::new_local(Backend::Local { driver, ticking: false }),
            build: RwSignal::new(build),
            view: RwSignal::new(view),
            problem: RwSignal::new(None),
            highlight: RwSignal::new(None),
            hovered: RwSignal::new(Vec::new()),
            frame: RwSignal::new(0),
            thread: RwSignal::new(Thread::Starting),
            listeners: StoredValue::new_local(Vec::new()),
            next_id: StoredValue::new(0),
            speed: StoredValue::new(0),
            input: RwSignal::new(String::new()),
        };
        let spawned = worker
            .and_then(|base| Remote::spawn(&base, move |m| client.heard(m), move |why| client.fall_back(why, config)));
        match spawned {
            Ok(remote) => {
                let name = config.name.to_owned();
                let (waiting, posted) = (Vec::new(), Vec::new());
                client.backend.set_value(Backend::Remote { remote, ready: false, waiting, posted, config: name });
                set_timeout(
                    move || {
                        if client.thread.get_untracked() == Thread::Starting {
                            client.fall_back("the worker did not start in time".into(), config);
                        }
                    },
                    Duration::from_millis(START_MS),
                );
            }
            Err(why) => client.thread.set(Thread::Page(why)),
        }
        client
    }

    /// Calls `f` with every event from now on.
    pub fn subscribe(&self, f: impl Fn(&Event) + 'static) {
        self.listeners.update_value(|l| l.push(Rc::new(f)));
    }

    /// The run speed last asked for (steps per second; 0 = as fast as possible).
    pub fn speed(&self) -> u32 {
        self.speed.get_value()
    }

    /// Whether the machine runs as fast as it can (tracked, through the view):
    /// the views that follow the PC (the editor's current line, the listing's
    /// highlight and scroll) then stand still until it stops. Their 20 moves a
    /// second cannot be read, and each costs the page a layout, taken from the
    /// core the worker runs on.
    pub fn racing(&self) -> bool {
        self.view.with(|v| v.running) && self.speed() == 0
    }

    /// Sends a command; its events reach the views and the listeners. A
    /// refused command leaves everything as it was and says why in [`Client::problem`].
    pub fn send(&self, cmd: Command) {
        self.request(vec![cmd], None);
    }

    /// Calls `done` once every request sent before is answered (an answer
    /// of the page's own, kept in the order of the session's).
    pub fn after(&self, done: Done) {
        self.request(Vec::new(), Some(done));
    }

    /// Sends commands to be carried out in order (stopping at the first one
    /// refused); `done` hears the outcome once their events were applied.
    pub fn request(&self, commands: Vec<Command>, done: Option<Done>) {
        if let Some(s) = commands.iter().rev().find_map(|c| match c {
            Command::Speed { steps_per_second } => Some(*steps_per_second),
            _ => None,
        }) {
            self.speed.set_value(s);
        }
        let id = self.next_id.get_value();
        self.next_id.set_value(id.wrapping_add(1));
        let request = Request { id, commands, done };
        let local = self.backend.try_update_value(|b| match b {
            Backend::Remote { remote, ready: true, posted, .. } => {
                let message = ToWorker::Commands { id, commands: request.commands.clone() };
                match remote.post(&message) {
                    Ok(()) => {
                        posted.push(request);
                        None
                    }
                    Err(why) => Some((request, Some(why))),
                }
            }
            Backend::Remote { waiting, .. } => {
                waiting.push(request);
                None
            }
            Backend::Local { .. } => Some((request, None)),
        });
        match local.flatten() {
            Some((request, None)) => self.handle_here(request),
            Some((request, Some(why))) => {
                self.fall_back(why, self.config());
                self.handle_here(request);
            }
            None => {}
        }
    }

    /// The configuration the session started in (for a fallback's fresh session).
    fn config(&self) -> Config {
        self.backend.with_value(|b| match b {
            Backend::Remote { config, .. } => config_of(config),
            Backend::Local { driver, .. } => driver.session().config(),
        })
    }

    /// Carries out a request in the page's thread.
    fn handle_here(&self, request: Request) {
        let outcome = self.backend.try_update_value(|b| match b {
            Backend::Local { driver, .. } => Some(driver.handle_all(request.commands, now())),
            Backend::Remote { .. } => None,
        });
        let Some(Some((events, result))) = outcome else { return };
        self.answered(events, result, request.done);
        self.schedule(Next::Soon);
    }

    /// Applies a request's events and says how it went.
    fn answered(&self, events: Vec<Event>, result: Result<(), String>, done: Option<Done>) {
        self.apply(events);
        self.problem.set(result.as_ref().err().cloned());
        if let Some(done) = done {
            done(result);
        }
    }

    /// A message from the worker.
    fn heard(&self, message: FromWorker) {
        match message {
            FromWorker::Ready => {
                let failed = self.backend.try_update_value(|b| {
                    let Backend::Remote { remote, ready, waiting, posted, config } = b else { return None };
                    *ready = true;
                    if let Err(why) = remote.post(&ToWorker::Start { config: config.clone() }) {
                        return Some(why);
                    }
                    for r in waiting.drain(..) {
                        let message = ToWorker::Commands { id: r.id, commands: r.commands.clone() };
                        if let Err(why) = remote.post(&message) {
                            return Some(why);
                        }
                        posted.push(r);
                    }
                    None
                });
                match failed.flatten() {
                    Some(why) => self.fall_back(why, self.config()),
                    None => self.thread.set(Thread::Worker),
                }
            }
            FromWorker::Answer { id, events, error } => {
                let request = self.backend.try_update_value(|b| match b {
                    Backend::Remote { posted, .. } => posted.iter().position(|r| r.id == id).map(|i| posted.remove(i)),
                    Backend::Local { .. } => None,
                });
                let done = request.flatten().and_then(|r| r.done);
                self.answered(events, error.map_or(Ok(()), Err), done);
            }
            FromWorker::Events { events } => self.apply(events),
            FromWorker::Failed { why } => self.fall_back(why, self.config()),
        }
    }

    /// The worker failed: the session runs in the page from now on. Requests
    /// not yet answered are carried out here, in order.
    fn fall_back(&self, why: String, config: Config) {
        let old = self.backend.try_update_value(|b| match b {
            Backend::Remote { .. } => {
                Some(std::mem::replace(b, Backend::Local { driver: local(config), ticking: false }))
            }
            Backend::Local { .. } => None,
        });
        let Some(Some(Backend::Remote { remote, ready: was_ready, waiting, posted, .. })) = old else { return };
        // Dropped later: this may run inside one of the worker's own handlers.
        set_timeout(move || drop(remote), Duration::ZERO);
        let requests: Vec<Request> = posted.into_iter().chain(waiting).collect();
        self.thread.set(Thread::Page(format!("the worker failed: {why}")));
        if was_ready {
            // What the worker's session held is gone; the page starts afresh.
            self.problem.set(Some(format!("the worker stopped ({why}); the program runs in the page now")));
        }
        for r in requests {
            self.handle_here(r);
        }
    }

    fn apply(&self, events: Vec<Event>) {
        let listeners = self.listeners.get_value();
        for e in events {
            for l in &listeners {
                l(&e);
            }
            match e {
                Event::Compiled(b) => {
                    let first = self.build.with_untracked(|b| b.builds == 0);
                    self.build.set(*b);
                    if first {
                        crate::mark_interactive();
                    }
                }
                Event::Step(v) | Event::Paused(v) | Event::Halted(v) | Event::Fault(v) | Event::Frame(v) => {
                    self.view.set(*v)
                }
                // Whoever asked for it listens (the download menu saves it, a transport posts it).
                Event::File(_) => {}
            }
        }
    }

    /// Schedules the in-page run loop's next tick (nothing to do for a worker, which runs its own).
    fn schedule(self, next: Next) {
        let go = self.backend.try_update_value(|b| match b {
            Backend::Local { driver, ticking } if !*ticking && driver.running() && next != Next::Idle => {
                *ticking = true;
                true
            }
            _ => false,
        });
        if go != Some(true) {
            return;
        }
        match next {
            Next::Idle => {}
            Next::Soon => request_animation_frame(move || self.tick()),
            Next::After(ms) => {
                set_timeout(move || request_animation_frame(move || self.tick()), Duration::from_secs_f64(ms / 1000.0))
            }
        }
    }

    fn tick(self) {
        let ticked = self.backend.try_update_value(|b| match b {
            Backend::Local { driver, ticking } => {
                *ticking = false;
                Some(driver.tick(&mut now, SLICE_MS))
            }
            Backend::Remote { .. } => None,
        });
        let Some(Some((events, next))) = ticked else { return };
        self.apply(events);
        self.schedule(next);
    }
}

/// A configuration by its preset name (the default one if unknown).
fn config_of(name: &str) -> Config {
    Config::preset(name).unwrap_or_else(|_| Config::preset("default").expect("the default preset exists"))
}
