//! The session protocol's driver, natively and in headless Chromium: commands
//! in, events out, runs paced by a simulated clock (so "five seconds at 10
//! steps/s" takes milliseconds and the figures are exact).

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use loom_app::session::protocol::Status;
use loom_app::session::{Command, Driver, Event, Next, Session, StepBy, EXAMPLE};
use loom_core::frontend::Config;

/// A page's run loop over simulated time: ticks of at most 8 ms of "work"
/// every 16 ms frame (or after the pause a demo asks for), for `seconds`.
struct Sim {
    driver: Driver,
    t: f64,
    /// Simulated milliseconds one clock reading costs (the work between readings).
    reading: f64,
    events: Vec<Event>,
}

impl Sim {
    fn new(source: &str, config: &str) -> Sim {
        let session = Session::new(source.to_owned(), Config::preset(config).unwrap());
        Sim { driver: Driver::new(session), t: 0.0, reading: 0.05, events: Vec::new() }
    }

    fn send(&mut self, cmd: Command) -> Vec<Event> {
        let events = self.driver.handle(cmd, self.t).expect("the command is accepted");
        self.events.extend(events.iter().cloned());
        events
    }

    fn run_for(&mut self, seconds: f64) {
        let end = self.t + seconds * 1000.0;
        while self.t < end {
            let (mut t, reading) = (self.t, self.reading);
            let mut clock = || {
                t += reading;
                t
            };
            let (events, next) = self.driver.tick(&mut clock, 8.0);
            self.events.extend(events);
            self.t = match next {
                Next::After(ms) => t + ms.max(16.0),
                _ => (self.t + 16.0).max(t),
            };
        }
    }

    fn steps(&self) -> u64 {
        self.driver.view().steps
    }
}

const FOREVER: &str = "int n; int main() { while (1) { n++; } return 0; }";

#[test]
fn every_limited_speed_keeps_its_rate() {
    for speed in [1u32, 10, 100, 1_000, 10_000] {
        let mut sim = Sim::new(FOREVER, "small");
        sim.send(Command::Speed { steps_per_second: speed });
        sim.send(Command::Run);
        sim.run_for(5.0);
        let want = 5.0 * f64::from(speed);
        let got = sim.steps() as f64;
        assert!((got - want).abs() <= want * 0.05 + 2.0, "{speed}/s for 5 s ran {got} steps");
        // And it keeps going: the next second adds about one second's worth.
        sim.run_for(1.0);
        let more = sim.steps() as f64 - got;
        assert!((more - f64::from(speed)).abs() <= f64::from(speed) * 0.1 + 2.0, "{speed}/s: {more} in the 6th second");
        assert!(sim.driver.running());
    }
}

#[test]
fn full_speed_runs_and_refreshes_at_most_ten_times_a_second() {
    let mut sim = Sim::new(FOREVER, "small");
    // A slow machine: 3 ms between clock readings, so one step per chunk.
    sim.reading = 3.0;
    sim.send(Command::Run);
    sim.run_for(2.0);
    assert!(sim.steps() > 100, "{}", sim.steps());
    let views = sim.events.iter().filter(|e| matches!(e, Event::Step(_))).count();
    assert!((15..=21).contains(&views), "{views} step events in 2 s");
}

#[test]
fn demos_advance_past_their_first_frame_at_every_speed() {
    for speed in [1u32, 10, 100, 1_000, 10_000, 0] {
        for id in ["sort", "snake"] {
            let mut sim = Sim::new("", "compact");
            sim.send(Command::Demo { id: Some(id.into()) });
            sim.send(Command::Speed { steps_per_second: speed });
            sim.send(Command::Run);
            // Two frames past the first (slow speeds need simulated minutes: sort's second frame is
            // about 700 steps in; the snake's first is where it waits for the key).
            let frames = |sim: &Sim| sim.events.iter().filter(|e| matches!(e, Event::Frame(_))).count();
            let mut start = frames(&sim);
            if id == "snake" {
                while sim.driver.view().note.is_none() && sim.t < 600_000.0 {
                    sim.run_for(1.0);
                }
                let waiting = sim.steps();
                sim.run_for(1.0);
                assert_eq!(sim.steps(), waiting, "{id} at {speed}/s waits for the first key");
                assert!(sim.driver.view().note.is_some_and(|n| n.contains("key")));
                sim.send(Command::Key { key: "ArrowDown".into() });
                start = frames(&sim);
                // The wait banked no steps: the game goes on at its speed, not in a burst.
                let before = sim.steps();
                sim.run_for(1.0);
                let moved = sim.steps() - before;
                assert!(
                    speed == 0 || moved as f64 <= f64::from(speed) * 1.05 + 2.0,
                    "{id} at {speed}/s: {moved} steps in the first second"
                );
            }
            while frames(&sim) < start + 2 && sim.t < 1_200_000.0 && sim.driver.running() {
                sim.run_for(1.0);
            }
            assert!(frames(&sim) >= start + 2, "{id} at {speed}/s: {} steps, {} frames", sim.steps(), frames(&sim));
        }
    }
}

#[test]
fn a_layer_walk_shows_one_moment_at_every_layer() {
    let mut sim = Sim::new(EXAMPLE, "small");
    sim.send(Command::Compile);
    let first = Config::preset("small").unwrap().instr_col(0);
    let mut executing = sim.driver.view().instr;
    for step in 0..5 {
        for layer in 0..8 {
            sim.send(Command::Step { by: StepBy::Layer });
            let v = sim.driver.view();
            assert_eq!(v.layer.as_ref().map(|l| l.index), Some(layer));
            // The instruction counts as done once its last layer is shown.
            assert_eq!(v.steps, step + u64::from(layer == 7), "L{}: steps", layer + 1);
            let pc = v.registers.iter().find(|r| r.name == "pc").expect("a pc register").value;
            assert_eq!(pc, v.pc as i64, "L{}: the status bar's PC is the tensor's", layer + 1);
            assert_eq!(v.instr, executing, "L{}: the instruction shown is the one executing", layer + 1);
        }
        // After L8 the PC in the tensor is the next instruction's.
        executing = sim.driver.view().pc.checked_sub(first);
    }
}

#[test]
fn load_compiles_and_answers_with_the_build_and_the_view() {
    let mut sim = Sim::new("", "small");
    let events = sim.send(Command::Load {
        source: "int x = 2; int main() { x = x * 21; return 0; }".into(),
        lang: None,
        config: Some("tiny".into()),
        engine: None,
    });
    match &events[..] {
        [Event::Compiled(b), Event::Step(v)] => {
            assert!(b.ok && b.config == "tiny", "{:?}", b.diagnostics);
            assert_eq!(v.status, Status::Loaded);
        }
        other => panic!("unexpected events {other:?}"),
    }
    sim.send(Command::Run);
    sim.run_for(1.0);
    let last = sim.events.last().unwrap();
    assert_eq!(last.name(), "halted");
    assert_eq!(last.view().unwrap().vars.get("x").map(ToString::to_string).as_deref(), Some("42"));
}

#[test]
fn editing_keeps_the_machine_and_shows_fresh_diagnostics() {
    let mut sim = Sim::new(EXAMPLE, "small");
    sim.send(Command::Compile);
    sim.send(Command::Step { by: StepBy::Instruction });
    let events = sim.send(Command::Edit { source: EXAMPLE.replace("sum = sum + n;", "sum = sum + ;") });
    let Some(Event::Compiled(b)) = events.first() else { panic!("{events:?}") };
    assert!(b.diagnostics.iter().any(|d| d.is_error()), "the error shows while typing");
    let v = sim.driver.view();
    assert_eq!((v.steps, v.edited), (1, true), "the machine stays until the next build");
    let fixed = sim.send(Command::Edit { source: EXAMPLE.to_owned() });
    let Some(Event::Compiled(b)) = fixed.first() else { panic!() };
    assert!(b.diagnostics.is_empty(), "fixing the error clears it at once");
}

#[test]
fn typing_while_running_keeps_the_run_going_and_says_the_source_was_edited() {
    let mut sim = Sim::new(FOREVER, "small");
    sim.send(Command::Speed { steps_per_second: 1_000 });
    sim.send(Command::Run);
    sim.run_for(1.0);
    let before = sim.steps();
    let events = sim.send(Command::Edit { source: FOREVER.replace("n++", "n += 2") });
    assert!(matches!(events.first(), Some(Event::Compiled(_))), "{events:?}");
    sim.run_for(1.0);
    let v = sim.driver.view();
    assert!(v.running && v.edited, "still running the last build, and saying the source changed");
    assert!(sim.steps() >= before + 900, "the run went on from step {before}, not from 0: {}", sim.steps());
    // The next Run after a pause builds the edited source.
    sim.send(Command::Pause);
    sim.send(Command::Run);
    assert_eq!((sim.steps(), sim.driver.view().edited), (0, false));
}

#[test]
fn a_line_step_that_gives_up_says_why() {
    let mut sim = Sim::new("int n; int main() { while (1) n++; return 0; }", "small");
    sim.send(Command::Compile);
    for _ in 0..3 {
        sim.send(Command::Step { by: StepBy::Line });
    }
    let note = sim.driver.view().note.unwrap_or_default();
    assert!(note.contains("without leaving line"), "{note}");
}

#[test]
fn bad_commands_are_refused_and_change_nothing() {
    let mut sim = Sim::new(EXAMPLE, "small");
    sim.send(Command::Compile);
    assert!(sim.driver.handle(Command::Config { name: "huge".into() }, 0.0).is_err());
    assert!(sim.driver.handle(Command::Example { index: 3 }, 0.0).is_err());
    assert!(sim.driver.handle(Command::Demo { id: Some("tetris".into()) }, 0.0).is_err());
    assert_eq!(sim.driver.build().config, "small");
}

#[test]
fn seek_opens_at_a_step_and_stops_at_the_end() {
    let mut sim = Sim::new(FOREVER, "default");
    sim.send(Command::Compile);
    sim.send(Command::Step { by: StepBy::Instruction });
    let events = sim.send(Command::Seek { step: 40 });
    let v = events.last().and_then(Event::view).expect("a view");
    assert_eq!((v.steps, v.status), (40, Status::Paused));
    // Seeking again starts from the beginning, not from where it stands.
    sim.send(Command::Seek { step: 3 });
    assert_eq!(sim.steps(), 3);
    let mut sim = Sim::new("int x; int main() { x = 7; return 0; }", "default");
    sim.send(Command::Compile);
    let events = sim.send(Command::Seek { step: 1_000_000 });
    let v = events.last().and_then(Event::view).expect("a view");
    assert_eq!(v.status, Status::Halted);
    assert_eq!(v.vars.get("x").map(ToString::to_string).as_deref(), Some("7"));
}

#[test]
fn a_run_knows_its_total_from_the_interpreter_then_from_the_last_run() {
    let long = "int i; int j; int main() { for (i = 0; i < 100; i++) { for (j = 0; j < 30; j++) { } } return 0; }";
    let mut sim = Sim::new(long, "small");
    sim.send(Command::Compile);
    assert_eq!(sim.driver.view().total, None, "nothing is known before a run");
    // At a limited speed, so there are views while it runs.
    sim.send(Command::Speed { steps_per_second: 10_000 });
    sim.send(Command::Run);
    while sim.driver.running() {
        sim.run_for(0.5);
    }
    let end = sim.driver.view();
    assert_eq!(end.status, Status::Halted);
    let running: Vec<Option<u64>> =
        sim.events.iter().filter_map(|e| e.view()).filter(|v| v.running).map(|v| v.total).collect();
    assert!(running.len() > 1, "{} views while running", running.len());
    assert_eq!(running.last(), Some(&Some(end.steps)), "the interpreter's total is the run's");
    // The same program from the same start: known at once.
    sim.send(Command::Reset);
    assert_eq!(sim.driver.view().total, Some(end.steps));
    // Another program: unknown again.
    sim.send(Command::Load { source: EXAMPLE.into(), lang: None, config: None, engine: None });
    assert_eq!(sim.driver.view().total, None);
}

/// The Input box's text is what `scanf` reads: the program that sums numbers prints their
/// sum on the transformer, the text stays over a reset, and what was read is counted.
#[test]
fn the_program_reads_the_input_the_page_gives_it() {
    let sum = "#include <stdio.h>\nint main(void) {\n    int x, sum = 0;\n    \
               while (scanf(\"%d\", &x) == 1)\n        sum += x;\n    printf(\"sum %d\\n\", sum);\n    return 0;\n}\n";
    let mut sim = Sim::new(sum, "compact16");
    sim.send(Command::Compile);
    sim.send(Command::Stdin { text: "1 2 39\n".into() });
    sim.send(Command::Speed { steps_per_second: 0 });
    sim.send(Command::Run);
    sim.run_for(30.0);
    let v = sim.driver.view();
    assert_eq!((v.status, v.output.as_str(), v.input_read), (Status::Halted, "sum 42\n", 7), "{:?}", v.note);
    sim.send(Command::Reset);
    assert_eq!(sim.driver.view().input_read, 0);
    sim.send(Command::Stdin { text: "5 -3".into() });
    sim.send(Command::Run);
    sim.run_for(30.0);
    assert_eq!(sim.driver.view().output, "sum 2\n");
}

const FACT: &str = "\
int fact(int n) {
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

int main() {
    int r = fact(5);
    int s = r + 1;
    printf(\"%d\\n\", s);
    return 0;
}
";

/// The innermost frame's label, line and variables, and how deep the stack is.
fn top(v: &loom_app::session::View) -> (String, Option<u32>, Vec<String>, usize) {
    let f = &v.frames[0];
    (f.label(), f.line, f.vars.iter().map(|b| format!("{} = {}", b.name, b.value)).collect(), v.frames.len())
}

/// The protocol's debugger on a transformer: the view carries the call stack and who owns
/// each memory word; step out, run to a line and step over each move, and Back undoes each.
#[test]
fn the_view_carries_the_call_stack_and_back_undoes_each_move() {
    let mut sim = Sim::new(FACT, "default");
    sim.send(Command::Compile);
    sim.send(Command::Breakpoints { lines: vec![3] });
    sim.send(Command::Run);
    while sim.driver.running() {
        sim.run_for(0.5);
    }
    let v = sim.driver.view();
    assert_eq!((v.status, v.line), (Status::Paused, Some(3)));
    assert_eq!(top(&v), ("fact#5".into(), Some(3), vec!["n = 1".into()], 6));
    let labels: Vec<String> = v.frames.iter().map(|f| f.label()).collect();
    assert_eq!(labels, ["fact#5", "fact#4", "fact#3", "fact#2", "fact#1", "main"]);
    // The heatmap's words for the column of fact#3's n.
    let n3 = &v.frames[2].vars[0];
    let slot = n3.slot.expect("fact#3's n lives in memory");
    let owner = loom_core::frontend::owner_of(&v.owners, slot).map(|o| o.name.clone());
    assert_eq!(owner.as_deref(), Some("fact#3: n"));
    let at_break = v.steps;

    sim.send(Command::Step { by: StepBy::Out });
    let v = sim.driver.view();
    assert_eq!(top(&v), ("fact#4".into(), Some(4), vec!["n = 2".into()], 5));
    assert_eq!(v.note.as_deref(), Some("fact returned 1."));
    sim.send(Command::Back);
    assert_eq!((sim.steps(), top(&sim.driver.view()).3), (at_break, 6));

    sim.send(Command::RunTo { line: 10 });
    let v = sim.driver.view();
    assert_eq!(top(&v), ("main".into(), Some(10), vec!["r = 120".into(), "s = 121".into()], 1));
    sim.send(Command::Back);
    assert_eq!(sim.steps(), at_break);

    sim.send(Command::Breakpoints { lines: vec![] });
    sim.send(Command::Reset);
    sim.send(Command::Step { by: StepBy::Over });
    let v = sim.driver.view();
    assert_eq!((top(&v).0, top(&v).1, top(&v).3), ("main".into(), Some(9), 1));
    assert!(top(&v).2.contains(&"r = 120".to_string()), "{:?}", top(&v).2);
    sim.send(Command::Back);
    assert_eq!(sim.steps(), 0);
}
