//! The session's web worker: the [`Driver`] (engine, checkpoints, shadow
//! interpreter, breakpoints, a demo's inputs) runs here, off the page's
//! thread, so the page only draws. It hears [`ToWorker`] messages and answers
//! with [`FromWorker`] ones (see [`crate::relay`]). The run loop gives the
//! engine [`SLICE_MS`] at a time and then yields to the worker's event loop,
//! so a `pause` (or any command) is read within one slice; views leave at
//! most 10 times a second while running at full speed (the driver's refresh rate).
//!
//! Started by the worker binary (`src/bin/loom-worker.rs`), which Trunk builds
//! beside the page; the page's [`crate::ui`] client spawns it.

use crate::relay::{self, FromWorker, ToWorker};
use crate::session::{Driver, Next, Session};
use loom_core::frontend::Config;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent};

/// Milliseconds of execution between two looks at the message queue: how
/// long a `pause` may wait (the page's loop gets 8 ms per frame; here only the
/// latency of a command is at stake).
pub const SLICE_MS: f64 = 20.0;

/// At a limited speed the loop ticks once per this many milliseconds (a
/// display frame, as the page's own loop does): each tick reports a view, and
/// ticking at once again would flood the page with them.
const FRAME_MS: f64 = 1000.0 / 60.0;

/// A tick asked for through the wake channel also gets a timer this late, and
/// whichever comes first runs it. WebKit's runs twice stalled for good with the
/// status "running" (CI's stop 38, and a call stack stuck at its first frame):
/// a run's loop only lives while its next wake-up arrives, and a lost one
/// would stop it exactly so. The timer costs one timeout per slice.
const WAKE_BACKSTOP_MS: i32 = 100;

struct Worker {
    scope: DedicatedWorkerGlobalScope,
    driver: Option<Driver>,
    /// The scheduled tick's number, if one is scheduled (so commands never
    /// start a second loop, and a late wake-up of an earlier one does nothing).
    ticking: Option<u32>,
    /// The number the next scheduled tick gets.
    scheduled: u32,
    /// Posting to it schedules a tick as a task of its own, without timers' clamping.
    wake: MessageChannel,
}

type Shared = Rc<RefCell<Worker>>;

fn now(scope: &DedicatedWorkerGlobalScope) -> f64 {
    scope.performance().map_or(0.0, |p| p.now())
}

fn post(scope: &DedicatedWorkerGlobalScope, message: FromWorker) {
    match relay::encode_from_worker(message) {
        Ok((value, transfer)) => {
            if let Err(e) = scope.post_message_with_transfer(&value, &transfer) {
                web_sys::console::error_1(&e);
            }
        }
        Err(e) => web_sys::console::error_1(&e.into()),
    }
}

/// Runs in the worker: listens to the page and says it is ready.
pub fn start() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let Ok(wake) = MessageChannel::new() else { return };
    let worker: Shared =
        Rc::new(RefCell::new(Worker { scope: scope.clone(), driver: None, ticking: None, scheduled: 0, wake }));
    let on_wake = {
        let worker = worker.clone();
        Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| {
            if let Some(number) = e.data().as_f64() {
                tick(&worker, number as u32);
            }
        })
    };
    worker.borrow().wake.port1().set_onmessage(Some(on_wake.as_ref().unchecked_ref()));
    on_wake.forget();
    let on_message = {
        let worker = worker.clone();
        Closure::<dyn Fn(MessageEvent)>::new(move |e: MessageEvent| receive(&worker, e.data()))
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&scope, FromWorker::Ready);
}

fn receive(worker: &Shared, data: JsValue) {
    let message = match relay::decode::<ToWorker>(data) {
        Ok((m, _)) => m,
        Err(e) => {
            web_sys::console::error_1(&format!("the worker got a message it does not read: {e}").into());
            return;
        }
    };
    let mut w = worker.borrow_mut();
    match message {
        ToWorker::Start { config } => {
            let config = Config::preset(&config).unwrap_or_else(|_| Config::preset("default").expect("a preset"));
            w.driver = Some(Driver::new(Session::new(String::new(), config)));
        }
        ToWorker::Commands { id, commands } => {
            let t = now(&w.scope);
            let Some(driver) = w.driver.as_mut() else {
                let error = Some("the worker's session has not started".to_owned());
                post(&w.scope, FromWorker::Answer { id, events: Vec::new(), error });
                return;
            };
            let (events, result) = driver.handle_all(commands, t);
            post(&w.scope, FromWorker::Answer { id, events, error: result.err() });
            drop(w);
            schedule(worker, Next::Soon);
        }
    }
}

fn schedule(worker: &Shared, next: Next) {
    let mut w = worker.borrow_mut();
    let Some(driver) = w.driver.as_ref().filter(|d| d.running()) else { return };
    if w.ticking.is_some() {
        return;
    }
    let next = if next == Next::Soon && driver.speed() != 0 { Next::After(FRAME_MS) } else { next };
    let number = w.scheduled;
    let later = |ms: i32| {
        let worker = worker.clone();
        let later = Closure::once_into_js(move || tick(&worker, number));
        let _ = w.scope.set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), ms);
    };
    match next {
        Next::Idle => return,
        Next::Soon => {
            let _ = w.wake.port2().post_message(&JsValue::from(number));
            later(WAKE_BACKSTOP_MS);
        }
        Next::After(ms) => later(ms as i32),
    }
    w.ticking = Some(number);
    w.scheduled = number.wrapping_add(1);
}

/// Runs tick `number` if it is still the one scheduled.
fn tick(worker: &Shared, number: u32) {
    let next = {
        let mut w = worker.borrow_mut();
        if w.ticking != Some(number) {
            return;
        }
        w.ticking = None;
        let scope = w.scope.clone();
        let Some(driver) = w.driver.as_mut() else { return };
        let (events, next) = driver.tick(&mut || now(&scope), SLICE_MS);
        if !events.is_empty() {
            post(&scope, FromWorker::Events { events });
        }
        next
    };
    schedule(worker, next);
}
