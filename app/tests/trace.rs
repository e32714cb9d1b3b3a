//! The trace page's session (the second machine), natively and in headless
//! Chromium: loading starters, stepping, stepping back, scrubbing, running,
//! the counters, the located load error, and the plot's data, which must be
//! `trace::explain`'s candidates for the read on display.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use loom_app::trace::plot::{geometry, Role};
use loom_app::trace::view::PLOT_KEYS;
use loom_app::trace::{TraceCommand, TraceEvent, TraceSession, TraceView};
use loom_core::frontend::trace::programs::Program;
use loom_core::frontend::trace::{explain, HeadMode, Machine};

fn send(s: &mut TraceSession, cmd: TraceCommand) -> Vec<TraceEvent> {
    s.handle(cmd.clone()).unwrap_or_else(|e| panic!("{cmd:?} refused: {e}"))
}

fn example(name: &str, heads: &str) -> TraceSession {
    let mut s = TraceSession::new();
    send(&mut s, TraceCommand::Heads { mode: heads.into() });
    send(&mut s, TraceCommand::Example { name: name.into() });
    s
}

/// Runs to the end with a clock that advances 1 ms per reading.
fn run_to_end(s: &mut TraceSession) -> TraceView {
    send(s, TraceCommand::Run);
    let mut t = 0.0;
    let mut clock = move || {
        t += 1.0;
        t
    };
    let mut last = None;
    while s.running() {
        for e in s.tick(&mut clock, 8.0) {
            if let TraceEvent::Moved(v) = e {
                last = Some(*v);
            }
        }
    }
    last.expect("the end of a run is a view")
}

/// What the machine at a step shows, without the parts that depend on how
/// far the furthest run went.
fn state(v: &TraceView) -> TraceView {
    TraceView { known: 0, rows: Vec::new(), ..v.clone() }
}

#[test]
fn the_gcd_starter_steps_and_runs_to_its_results_with_both_heads_agreeing() {
    let mut s = TraceSession::new();
    assert_eq!(s.build().example.as_deref(), Some("gcd"));
    assert_eq!(s.build().heads, "hull");
    assert!(s.build().diagnostics.is_empty());
    assert_eq!(s.view().agree, None, "one head: nothing compared");
    send(&mut s, TraceCommand::Heads { mode: "both".into() });
    assert_eq!(s.view().status, "ready");
    send(&mut s, TraceCommand::Step);
    let v = s.view();
    assert_eq!((v.status, v.step, v.known), ("paused", 1, 1));
    assert_eq!(v.rows.len(), 1);
    assert!(v.rows[0].current);
    assert_eq!(v.rows[0].op, "i32.const");
    assert_eq!(v.stack, vec![1071]);
    let end = run_to_end(&mut s);
    assert_eq!(end.status, "halted");
    assert_eq!(end.result.as_deref(), Some(&[21, 1][..]));
    assert_eq!(end.agree, Some(true));
    let c = end.counters.expect("counters");
    assert_eq!(c.steps, end.step);
    let (brute, hull) = c.dots_per_lookup();
    assert!(brute.is_some_and(|b| b > 0.0) && hull.is_some_and(|h| h > 0.0), "{brute:?} {hull:?}");
}

#[test]
fn every_starter_runs_to_its_expected_result_on_the_hull() {
    for p in loom_core::frontend::trace::programs::PROGRAMS {
        let mut s = example(p.name, "hull");
        let end = run_to_end(&mut s);
        assert_eq!(end.result.as_deref(), Some(p.expected), "{}", p.name);
        assert_eq!(end.agree, None, "one head: nothing compared");
        let (brute, hull) = end.counters.expect("counters").dots_per_lookup();
        assert_eq!(brute, None);
        assert!(hull.is_some());
    }
}

#[test]
fn back_and_scrubbing_show_exactly_what_stepping_showed() {
    let mut s = example("bubble_sort", "both");
    let mut seen = vec![state(&s.view())];
    for _ in 0..40 {
        send(&mut s, TraceCommand::Step);
        seen.push(state(&s.view()));
    }
    for k in (0..40).rev() {
        send(&mut s, TraceCommand::Back);
        let v = s.view();
        assert_eq!(v.known, 40, "stepping back keeps the furthest run");
        assert_eq!(state(&v), seen[k], "back to step {k}");
        assert!(v.rows.iter().all(|r| r.current == (r.step == k as u64)));
    }
    for k in [17u64, 3, 40, 25, 0, 39] {
        send(&mut s, TraceCommand::Seek { step: k });
        assert_eq!(state(&s.view()), seen[k as usize], "seek to {k}");
    }
    // Stepping on from a scrubbed step meets the furthest run again.
    send(&mut s, TraceCommand::Seek { step: 38 });
    send(&mut s, TraceCommand::Step);
    send(&mut s, TraceCommand::Step);
    assert_eq!(state(&s.view()), seen[40]);
    send(&mut s, TraceCommand::Step);
    assert_eq!(s.view().known, 41);
    send(&mut s, TraceCommand::Reset);
    assert_eq!(state(&s.view()), seen[0]);
    assert_eq!(s.view().known, 0);
}

#[test]
fn running_from_a_scrubbed_step_ends_where_running_from_the_start_ends() {
    let mut fresh = example("collatz", "hull");
    let whole = run_to_end(&mut fresh);
    let mut s = example("collatz", "hull");
    send(&mut s, TraceCommand::Seek { step: 300 });
    send(&mut s, TraceCommand::Seek { step: 120 });
    let end = run_to_end(&mut s);
    assert_eq!(state(&end), state(&whole));
    assert_eq!(end.known, whole.step);
}

#[test]
fn the_plot_is_explains_candidates_for_every_read_of_a_step() {
    let src = Program::by_name("bubble_sort").expect("a starter").source;
    let mut reference = Machine::load(src.as_bytes(), HeadMode::Both).expect("loads");
    let mut s = example("bubble_sort", "both");
    let mut plotted = 0;
    for step in 1..=200u64 {
        reference.step();
        send(&mut s, TraceCommand::Step);
        let reads = reference.last_lookups().to_vec();
        assert_eq!(s.view().reads, reads, "step {step}'s reads");
        for (index, l) in reads.iter().enumerate() {
            send(&mut s, TraceCommand::Lookup { index });
            let v = s.view();
            assert_eq!(v.pick, index);
            let want = explain::candidates(reference.writes(), l, PLOT_KEYS);
            assert_eq!(v.plot.as_ref(), Some(&want), "step {step}, read {index}");
            plotted += 1;
        }
    }
    assert!(plotted > 200);
    assert!(s.handle(TraceCommand::Lookup { index: 99 }).is_err(), "a read the step did not make is refused");
}

#[test]
fn the_plot_draws_the_winner_on_its_iso_line_above_every_other_key() {
    let mut s = example("bubble_sort", "both");
    let mut drawn = 0;
    for (step, index) in (100..160).flat_map(|step| (0..4).map(move |index| (step, index))) {
        send(&mut s, TraceCommand::Seek { step });
        if index >= s.view().reads.len() {
            continue;
        }
        send(&mut s, TraceCommand::Lookup { index });
        let c = s.view().plot.expect("a read to plot");
        let g = geometry(&c);
        assert_eq!(g.dots.len(), c.shown.len());
        assert!(g.dots.iter().zip(&c.shown).all(|(d, k)| d.key == *k));
        let winner = g.dots.iter().find(|d| d.role == Role::Winner).expect("a winner");
        assert_eq!(Some(winner.key), c.winner);
        let [(x0, y0), (x1, y1)] = g.iso.expect("an iso line");
        let on_line = |x: f64| y0 + (y1 - y0) * (x - x0) / (x1 - x0);
        assert!((on_line(winner.x) - winner.y).abs() < 1e-6, "the iso line passes through the winner");
        for d in g.dots.iter().filter(|d| d.role != Role::Stale) {
            assert!(d.y >= on_line(d.x) - 1e-6, "{:?} is above the winner's iso line", d.key);
        }
        let stale = g.dots.iter().filter(|d| d.role == Role::Stale).count();
        assert_eq!(stale, c.shown.iter().filter(|k| k.stale && Some(**k) != c.runner_up).count());
        assert_eq!(g.hull.len(), c.shown.iter().filter(|k| !k.stale).count());
        drawn += 1;
    }
    assert!(drawn > 60, "{drawn} reads drawn");
}

#[test]
fn write_records_are_stale_exactly_when_a_later_write_of_their_address_exists() {
    let mut s = example("fnv1a", "hull");
    let src = Program::by_name("fnv1a").expect("a starter").source;
    let mut m = Machine::load(src.as_bytes(), HeadMode::Hull).expect("loads");
    for n in [1u64, 7, 60, 333] {
        send(&mut s, TraceCommand::Seek { step: n });
        m.run(n - m.steps());
        let all = m.writes();
        let v = s.view();
        assert!(!v.writes.is_empty());
        for w in &v.writes {
            let later = all[w.seq as usize + 1..].iter().any(|o| o.space == w.space && o.addr == w.addr);
            assert_eq!(w.stale, later, "seq {} at step {n}", w.seq);
        }
        let step_writes = v.rows.iter().find(|r| r.current).expect("the current row").writes;
        assert_eq!(v.writes.iter().filter(|w| w.this_step).count() as u64, step_writes.min(v.writes.len() as u64));
    }
    let rows = run_to_end(&mut s);
    assert!(rows.memory.iter().any(|l| l.bytes.iter().any(|&b| b != 0)), "fnv1a's bytes are in memory");
}

#[test]
fn the_trace_tables_write_counts_add_up_to_the_trace() {
    let mut s = example("gcd", "hull");
    let mut m =
        Machine::load(Program::by_name("gcd").expect("a starter").source.as_bytes(), HeadMode::Hull).expect("loads");
    let total: u64 = (1..=30)
        .map(|_| {
            send(&mut s, TraceCommand::Step);
            s.view().rows.iter().find(|r| r.current).expect("the current row").writes
        })
        .sum();
    m.run(30);
    assert_eq!(total + m.prologue_writes(), m.writes().len() as u64);
}

#[test]
fn a_wat_error_is_located_and_leaves_no_machine() {
    let mut s = TraceSession::new();
    let broken = "(module\n  (func (export \"main\") (result i32)\n    (i32.cosnt 1)))\n";
    send(&mut s, TraceCommand::Load { source: broken.into() });
    let b = s.build();
    assert_eq!(b.example, None);
    assert_eq!(b.diagnostics.len(), 1);
    let d = &b.diagnostics[0];
    assert_eq!((d.span.line, d.span.col), (3, 6), "{d:?}");
    assert!(d.message.contains("unknown operator"), "{}", d.message);
    assert_eq!(s.view().status, "none");
    assert!(s.handle(TraceCommand::Step).is_err());
    assert!(s.handle(TraceCommand::Run).is_err());
    // An unsupported instruction is located too.
    let float = "(module\n  (func (export \"main\") (result f32)\n    (f32.const 1)))\n";
    send(&mut s, TraceCommand::Load { source: float.into() });
    assert_eq!(s.build().diagnostics[0].span.line, 2, "{:?}", s.build().diagnostics);
    let fixed = "(module\n  (func (export \"main\") (result i32)\n    (i32.const 1)))\n";
    send(&mut s, TraceCommand::Load { source: fixed.into() });
    assert!(s.build().diagnostics.is_empty());
    assert_eq!(run_to_end(&mut s).result.as_deref(), Some(&[1][..]));
}

#[test]
fn unknown_names_are_refused_and_change_nothing() {
    let mut s = TraceSession::new();
    send(&mut s, TraceCommand::Step);
    let before = s.view();
    assert!(s.handle(TraceCommand::Example { name: "quicksort".into() }).unwrap_err().contains("gcd"));
    assert!(s.handle(TraceCommand::Heads { mode: "fast".into() }).is_err());
    assert_eq!(s.view(), before);
}

#[test]
fn changing_heads_keeps_the_step_and_the_state() {
    let mut s = example("primes", "hull");
    send(&mut s, TraceCommand::Seek { step: 500 });
    let hull = s.view();
    send(&mut s, TraceCommand::Heads { mode: "both".into() });
    let both = s.view();
    assert_eq!(both.step, 500);
    assert_eq!((both.stack.clone(), both.memory.clone(), both.writes.clone()), (hull.stack, hull.memory, hull.writes));
    assert_eq!(both.agree, Some(true));
    let (brute, hull) = both.counters.expect("counters").dots_per_lookup();
    assert!(brute.unwrap_or(0.0) > hull.unwrap_or(f64::MAX), "brute {brute:?} vs hull {hull:?}");
}

#[test]
fn commands_and_events_are_json() {
    let cmd: TraceCommand = serde_json::from_str(r#"{"cmd":"seek","step":3}"#).expect("parses");
    assert_eq!(cmd, TraceCommand::Seek { step: 3 });
    let mut s = TraceSession::new();
    let events = send(&mut s, TraceCommand::Step);
    let json = serde_json::to_value(&events[0]).expect("serialises");
    assert_eq!(json["event"], "moved");
    assert_eq!(json["step"], 1);
    assert!(json["plot"].is_null() || json["plot"]["query"].is_u64());
}
