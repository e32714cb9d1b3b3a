//! The view-model, natively (`cargo test`) and in headless Chromium
//! (`cargo test -p loom-app --target wasm32-unknown-unknown`).

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use loom_app::heatmap;
use loom_app::session::{value_text, EngineKind, Lang, Phase, Session, Stop, VarRow, EXAMPLE};
use loom_core::frontend::report::{Value, Vars};
use loom_core::frontend::Config;

const COUNTDOWN: &str = include_str!("../../tests/asm/countdown.s");
const DIVZERO: &str = include_str!("../../tests/c/divzero.c");

fn session(source: &str, config: &str) -> Session {
    Session::new(source.to_owned(), Config::preset(config).unwrap())
}

fn var(s: &Session, name: &str) -> VarRow {
    s.variables().into_iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no variable `{name}`"))
}

#[test]
fn the_c_example_runs_on_the_transformer_in_agreement_with_the_interpreter() {
    let mut s = session(EXAMPLE, "small");
    assert_eq!((s.lang(), s.engine()), (Lang::C, EngineKind::Sparse));
    assert_eq!(s.phase(), Phase::Edited);
    assert_eq!(s.run_to_end(100_000), Stop::Finished);
    assert_eq!(s.phase(), Phase::Halted, "{}", s.rendered_diagnostics());
    assert_eq!(var(&s, "sum").value, "55");
    assert_eq!(var(&s, "xs").value, "[3, -1, 2, 55]");
    assert_eq!(s.agrees(), Some(true));
    assert_eq!(s.pc(), Some(0));
}

#[test]
fn assembly_is_detected_and_runs_on_every_engine() {
    for engine in EngineKind::ALL {
        let mut s = session(COUNTDOWN, "small");
        assert_eq!(s.lang(), Lang::Asm);
        assert!(s.set_engine(engine));
        s.run_to_end(10_000);
        assert_eq!(var(&s, "sum").value, "55", "{engine:?}");
        assert_eq!(s.steps(), 32);
        assert_eq!(s.agrees(), engine.is_transformer().then_some(true));
    }
    let mut s = session(COUNTDOWN, "default");
    assert!(!s.set_engine(EngineKind::Dense), "dense is only offered on small configurations");
    assert_eq!(s.engine(), EngineKind::Sparse);
}

#[test]
fn layer_stepping_walks_l1_to_l8_and_ends_at_the_stepped_state() {
    let mut s = session(EXAMPLE, "small");
    s.step_layer();
    assert_eq!(s.steps(), 1, "the instruction is traced once");
    let mut names = Vec::new();
    for _ in 0..8 {
        let (i, name) = s.layer().expect("walking layers");
        assert_eq!(i, names.len());
        names.push(name);
        assert!(!s.attention().is_empty() || !name.starts_with("L1"), "L1 fetch reads the instruction");
        s.step_layer();
    }
    assert!(names[0].starts_with("L1") && names[7].starts_with("L8"), "{names:?}");
    assert_eq!((s.steps(), s.layer().map(|l| l.0)), (2, Some(0)), "after L8 the next instruction starts at L1");

    // The last layer's tensor is the machine's after the step.
    let mut walked = session(EXAMPLE, "small");
    walked.step_layer();
    for _ in 0..7 {
        walked.step_layer();
    }
    let after_l8 = walked.tensor().unwrap().clone();
    let mut stepped = session(EXAMPLE, "small");
    stepped.step();
    assert!(stepped.tensor() == Some(&after_l8));
    assert_eq!(stepped.layer(), None);
}

#[test]
fn step_mid_walk_finishes_the_instruction() {
    let mut s = session(EXAMPLE, "small");
    s.step_layer();
    s.step_layer();
    s.step();
    assert_eq!((s.steps(), s.layer()), (1, None));
}

#[test]
fn step_back_equals_stepping_forward() {
    // 9,000 steps cross the first checkpoint interval, so the replay starts from a snapshot.
    let long = "int i; int j; int n; int main() { for (i = 0; i < 100; i++) { for (j = 0; j < 100; j++) { n++; } } return 0; }";
    let mut s = session(long, "small");
    let mut reference = session(long, "small");
    s.run_to_end(8_999);
    s.step();
    reference.run_to_end(8_999);
    assert_eq!(s.steps(), 9_000, "still running");
    s.step_back();
    assert_eq!(s.steps(), 8_999);
    // (Tensors compared with `assert!`: their Debug output is megabytes.)
    assert!(s.tensor() == reference.tensor());
    let values = |s: &Session| s.variables().into_iter().map(|r| (r.name, r.value)).collect::<Vec<_>>();
    assert_eq!(values(&s), values(&reference));
    assert_eq!(s.pc(), reference.pc());
    assert_eq!(s.agrees(), Some(true));
    // And forward again reaches the same state as never having gone back.
    s.step();
    reference.step();
    assert!(s.tensor() == reference.tensor());
}

#[test]
fn step_back_replays_the_inputs_the_host_wrote_at_frames() {
    // The host writes `key` at every frame; x adds them up, so a replay that
    // forgot one ends with another x.
    let src = "int key; int x; int t; void main() { while (1) { t++; frame(); x = x + key; key = 0; } }";
    for engine in [EngineKind::Sparse, EngineKind::Interp] {
        let mut s = session(src, "small");
        s.set_engine(engine);
        let mut frames = 0;
        while s.steps() < 10_000 {
            if s.run_slice(1_000, true) == Stop::Frame {
                frames += 1;
                s.host(|e| loom_core::frontend::host::write_scalar(e, "key", frames % 100).unwrap());
            }
        }
        let state = s.engine_ref().unwrap().state();
        assert!(frames > 20 && var(&s, "x").value != "0", "{frames} frames");
        // Past the checkpoint before the last frames: the replay crosses them.
        s.step();
        s.step_back();
        assert_eq!(s.engine_ref().unwrap().state(), state, "{engine:?}: the state after stepping back");
        assert_ne!(s.agrees(), Some(false), "{engine:?}: the shadow interpreter got the writes too");
        // Back a few dozen steps and forward again to the same state.
        for _ in 0..40 {
            s.step_back();
        }
        for _ in 0..40 {
            s.step();
        }
        assert_eq!(s.engine_ref().unwrap().state(), state, "{engine:?}: 40 back and 40 forward");
    }
}

#[test]
fn step_back_on_the_interpreter_and_to_the_start() {
    let mut s = session(COUNTDOWN, "small");
    s.set_engine(EngineKind::Interp);
    s.step();
    s.step();
    s.step_back();
    s.step_back();
    assert_eq!((s.steps(), var(&s, "sum").value.as_str(), var(&s, "n").value.as_str()), (0, "0", "10"));
    s.step_back();
    assert_eq!(s.steps(), 0, "nothing before the start");
}

#[test]
fn the_diff_marks_exactly_the_cells_a_step_changed() {
    let mut s = session(EXAMPLE, "small");
    s.step();
    let (prev, now) = (s.previous_tensor().unwrap(), s.tensor().unwrap());
    let changed = heatmap::changed(prev, now);
    let lay = *s.layout().unwrap();
    let count = changed.iter().filter(|&&c| c).count();
    assert!(count > 0 && count < changed.len() / 4, "{count} of {}", changed.len());
    // The PC moved, and the PC lives in column 0.
    assert!(lay.pc.rows().any(|r| changed[r]), "the PC rows changed");
    for (i, c) in changed.iter().enumerate() {
        assert_eq!(*c, prev.data[i] != now.data[i]);
    }
}

#[test]
fn variables_changed_by_a_step_are_marked_and_narrated() {
    let mut s = session(COUNTDOWN, "small");
    s.step();
    let sum = var(&s, "sum");
    assert_eq!((sum.value.as_str(), sum.changed), ("10", true));
    assert!(!var(&s, "n").changed);
    let pc0 = Config::preset("small").unwrap().instr_col(0);
    assert_eq!(s.narration(), format!("PC {pc0} → {}, sum: 0 → 10", pc0 + 1));
}

#[test]
fn breakpoints_stop_the_run_on_their_line() {
    let mut s = session(EXAMPLE, "small");
    let line = 1 + EXAMPLE.lines().position(|l| l.contains("xs[3] = sum")).unwrap() as u32;
    s.set_breakpoints(vec![line]);
    assert_eq!(s.run_to_end(100_000), Stop::Breakpoint);
    assert_eq!(s.pc_line(), Some(line));
    assert_eq!(var(&s, "n").value, "0");
    assert_eq!(var(&s, "xs").value, "[3, -1, 2, 0]", "stopped before the line runs");
    assert_eq!(s.run_to_end(100_000), Stop::Finished);
    s.reset();
    assert_eq!(s.run_to_end(100_000), Stop::Breakpoint, "Reset keeps the breakpoints");
    assert_eq!(s.pc_line(), Some(line));
}

#[test]
fn step_line_runs_to_another_line() {
    let mut s = session(EXAMPLE, "small");
    s.compile();
    let start = s.pc_line();
    s.step_line();
    assert!(s.steps() >= 1);
    assert_ne!(s.pc_line(), start);
}

#[test]
fn compile_errors_are_listed_and_keep_the_text() {
    let broken = EXAMPLE.replace("sum = sum + n;", "sum = sum + ;");
    let mut s = session(&broken, "small");
    assert!(!s.compile());
    assert_eq!(s.phase(), Phase::Error);
    assert_eq!(s.source(), broken);
    let line = 1 + broken.lines().position(|l| l.contains("sum + ;")).unwrap() as u32;
    assert!(s.diagnostics().iter().any(|d| d.span.line == line), "{}", s.rendered_diagnostics());
    assert!(s.rendered_diagnostics().contains("program.c:"));
    s.step();
    assert_eq!(s.steps(), 0, "nothing runs while the source is broken");
}

#[test]
fn run_time_faults_name_the_c_line() {
    let mut s = session(DIVZERO, "small");
    s.run_to_end(10_000);
    let line = 1 + DIVZERO.lines().position(|l| l.contains("x = x / d;")).unwrap() as u32;
    match s.phase() {
        Phase::Fault { message, line: at } => {
            assert_eq!(at, Some(line));
            assert!(message.contains("division by zero"), "{message}");
        }
        other => panic!("expected a fault, got {other:?}"),
    }
    assert!(s.status_text().starts_with(&format!("fault at line {line}")));
    // `x = x / d` faulted, so `x` keeps 10: the view names it as not written.
    let v = s.view(false, 0.0);
    assert_eq!(v.unwritten.as_deref(), Some("x"));
    assert_eq!(v.vars.get("x"), Some(&Value::Scalar(10)));
    s.step_back();
    assert_eq!(s.view(false, 0.0).unwritten, None, "a step back leaves the fault behind");
}

#[test]
fn changing_the_configuration_rebuilds_for_it() {
    let mut s = session(EXAMPLE, "tiny");
    s.set_engine(EngineKind::Dense);
    s.run_to_end(100_000);
    s.set_config(Config::preset("default").unwrap());
    assert_eq!((s.config().name, s.steps(), s.engine()), ("default", 0, EngineKind::Sparse));
    assert_eq!(s.phase(), Phase::Ready);
}

#[test]
fn a_counter_in_two_words_shows_its_whole_value_beside_the_raw_word() {
    let cfg = Config::preset("compact").unwrap();
    assert_eq!(cfg.word_bits, 8);
    let vars = Vars(vec![
        ("placements".into(), Value::Scalar(-56)),
        ("placements_hi".into(), Value::Scalar(0)),
        ("backtracks".into(), Value::Scalar(3)),
        ("backtracks_hi".into(), Value::Scalar(2)),
        ("score".into(), Value::Scalar(-56)),
        ("grid".into(), Value::Array(vec![1, 2])),
    ]);
    let text = |name: &str| value_text(&vars, name, vars.get(name).unwrap(), &cfg);
    assert_eq!(text("placements"), "-56 (= 200 with placements_hi)");
    assert_eq!(text("backtracks"), "3 (= 515 with backtracks_hi)");
    assert_eq!(text("score"), "-56", "a word without a high word is as it is");
    assert_eq!(text("placements_hi"), "0");
    assert_eq!(text("grid"), "[1, 2]");
}

/// A structure in the variables table reads by member, as the call stack shows it (a
/// union by every member, a pointer inside as its target), and a pointer variable as
/// its target; their raw words stay in `vars`.
#[test]
fn the_variables_table_shows_structures_by_member_and_pointers_by_target() {
    let src = "struct point { int x; int y; };\nunion word { int i; unsigned u; };\nstruct point p;\n\
               struct point *at;\nint *none;\nstruct tag { int n; struct point *to; } t;\nunion word w;\n\
               int main() { p.x = 3; p.y = 4; t.n = 2; t.to = &p; at = &p; w.i = -1; return 0; }\n";
    let mut s = session(src, "small");
    assert_eq!(s.run_to_end(10_000), Stop::Finished, "{}", s.rendered_diagnostics());
    assert_eq!(var(&s, "p").value, "{x = 3, y = 4}");
    assert_eq!(var(&s, "t").value, "{n = 2, to = → p}");
    assert_eq!(var(&s, "w").value, "{i = -1, u = 255}");
    assert_eq!(var(&s, "at").value, "→ p", "a pointer variable reads as the call stack shows it");
    assert_eq!(var(&s, "none").value, "NULL");
    let v = s.view(false, 0.0);
    assert_eq!(v.vars.get("p"), Some(&Value::Array(vec![3, 4])), "the report's words");
    assert!(matches!(v.vars.get("at"), Some(Value::Scalar(n)) if *n > 0), "the pointer's slot, as a word");
    let formatted: Vec<&str> = v.formatted.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(formatted, ["p", "at", "none", "t", "w"]);
}
