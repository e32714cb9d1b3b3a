//! The view-model, natively (`cargo test`) and in headless Chromium
//! (`cargo test -p loom-app --target wasm32-unknown-unknown`).

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use loom_app::session::{Phase, Session, VarRow, EXAMPLE, RUN_BUDGET};
use loom_core::Config;

fn session(source: &str) -> Session {
    Session::new(source.to_owned(), Config::preset("default").unwrap())
}

fn var(s: &Session, name: &str) -> VarRow {
    s.variables().into_iter().find(|r| r.name == name).unwrap_or_else(|| panic!("no variable `{name}`"))
}

#[test]
fn the_example_runs_to_its_product() {
    let mut s = session(EXAMPLE);
    assert_eq!(s.phase(), Phase::Edited);
    s.run();
    assert_eq!(s.phase(), Phase::Halted);
    assert_eq!(var(&s, "product").value, "42");
    assert_eq!(s.pc(), Some(0));
    assert_eq!(s.status_text(), "halted");
}

#[test]
fn step_then_reset() {
    let mut s = session(EXAMPLE);
    s.step();
    assert_eq!(s.steps(), 1);
    assert_eq!(s.phase(), Phase::Ready);
    let product = var(&s, "product");
    assert_eq!((product.value.as_str(), product.changed), ("6", true));
    assert!(!var(&s, "a").changed);
    assert_eq!(s.pc_line(), Some(6), "the PC moved to DEC b");
    s.step();
    assert_eq!(var(&s, "b").value, "6");
    assert_eq!(s.history().len(), 2);
    s.reset();
    assert_eq!(s.steps(), 0);
    assert_eq!(var(&s, "product").value, "0");
    assert!(s.history().is_empty());
    assert_eq!(s.status_text(), "loaded");
}

#[test]
fn run_after_halt_starts_over() {
    let mut s = session(EXAMPLE);
    s.run();
    let steps = s.steps();
    s.run();
    assert_eq!(s.steps(), steps);
    assert_eq!(var(&s, "product").value, "42");
}

#[test]
fn an_edit_rebuilds_on_the_next_step() {
    let mut s = session(EXAMPLE);
    s.run();
    s.set_source(EXAMPLE.replace("a = 6", "a = 5"));
    assert!(s.is_stale());
    assert_eq!(var(&s, "product").value, "42", "the old machine stays visible until the rebuild");
    s.run();
    assert!(!s.is_stale());
    assert_eq!(var(&s, "product").value, "35");
}

#[test]
fn assembly_errors_are_located() {
    let mut s = session(".data x = 1\nINC x\n  FROB x\n");
    assert!(!s.compile());
    assert_eq!(s.phase(), Phase::Error);
    let text = s.rendered_diagnostics();
    assert!(text.contains("program.s:3:3"), "{text}");
    assert!(text.contains("  ^^^^"), "{text}");
    assert!(s.variables().is_empty());
    s.step();
    assert_eq!(s.steps(), 0, "nothing runs while the source is broken");
}

#[test]
fn faults_name_the_line() {
    let mut s = session(".data p = 100\n.data x = 0\nLOAD x, p\nHALT\n");
    s.run();
    match s.phase() {
        Phase::Fault { message, line } => {
            assert_eq!(line, Some(3));
            assert!(message.contains("outside memory"), "{message}");
        }
        other => panic!("expected a fault, got {other:?}"),
    }
}

#[test]
fn an_endless_loop_stops_at_the_budget_and_resumes() {
    let mut s = session(".data x = 0\nloop: INC x\nJMP loop\n");
    s.run();
    assert_eq!(s.steps(), RUN_BUDGET);
    assert!(s.status_text().starts_with("budget"), "{}", s.status_text());
    s.run();
    assert_eq!(s.steps(), 2 * RUN_BUDGET);
}

#[test]
fn changing_the_configuration_rebuilds_for_it() {
    let mut s = session(EXAMPLE);
    s.run();
    s.set_config(Config::preset("tiny").unwrap());
    assert_eq!(s.config().name, "tiny");
    assert_eq!(s.steps(), 0);
    assert_eq!(s.phase(), Phase::Ready);
}
