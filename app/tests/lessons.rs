//! The built-in lessons played through the session, as the page plays them:
//! each step's commands go to a [`Driver`] (runs ticked over simulated time),
//! then the step's check is verified on the view. Every check passes when
//! its lesson is played as written, and fails when the step's action is not
//! played (only its program loaded). Lesson links round-trip, and bad ones
//! are refused in words.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use loom_app::lesson::{self, Lesson, LessonError};
use loom_app::session::{Command, Driver, Next, Session};
use loom_core::frontend::Config;

/// A page's session with its run loop over simulated time.
struct Page {
    driver: Driver,
    t: f64,
}

impl Page {
    fn new() -> Page {
        Page { driver: Driver::new(Session::new(String::new(), Config::preset("default").unwrap())), t: 0.0 }
    }

    /// Sends the commands, then ticks until the run (if any) stops.
    fn play(&mut self, cmds: Vec<Command>) {
        for cmd in cmds {
            let what = format!("{cmd:?}");
            self.driver.handle(cmd, self.t).unwrap_or_else(|e| panic!("{what} refused: {e}"));
        }
        for _ in 0..100_000 {
            if !self.driver.running() {
                return;
            }
            let mut t = self.t;
            let (_, next) = self.driver.tick(
                &mut || {
                    t += 0.05;
                    t
                },
                8.0,
            );
            self.t = match next {
                Next::After(ms) => t + ms.max(16.0),
                _ => (self.t + 16.0).max(t),
            };
        }
        panic!("the run did not stop");
    }
}

#[test]
fn five_lessons_are_built_in_and_each_opens_by_id() {
    let ids: Vec<String> = lesson::builtin().into_iter().map(|l| l.id).collect();
    assert_eq!(ids, ["tensor", "fetch", "memory", "alu", "branch"]);
    for id in &ids {
        let l = lesson::from_address(&format!("?lesson={id}"), "").expect("asks for a lesson").unwrap();
        assert_eq!(&l.id, id);
    }
}

#[test]
fn every_check_passes_when_played_as_written() {
    for l in lesson::builtin() {
        let mut page = Page::new();
        let mut loaded = None;
        for i in 0..l.steps.len() {
            page.play(l.enter(i, loaded));
            loaded = Some(l.load_of(i));
            let view = page.driver.view();
            assert!(
                page.driver.build().ok,
                "{} step {}: the program builds: {}",
                l.id,
                i + 1,
                page.driver.build().rendered
            );
            if let Some(check) = &l.steps[i].check {
                let v = check.verify(&view);
                assert!(v.passed, "{} step {}: {} (narration: {})", l.id, i + 1, v.text, view.narration);
                assert!(v.text.starts_with('✓'), "{}", v.text);
            }
        }
    }
}

#[test]
fn every_check_fails_when_its_action_is_not_played() {
    for l in lesson::builtin() {
        for (i, step) in l.steps.iter().enumerate() {
            let Some(check) = &step.check else { continue };
            assert!(step.action.is_some(), "{} step {}: a check the page cannot reach by itself", l.id, i + 1);
            let mut page = Page::new();
            page.play(l.program(i));
            let v = check.verify(&page.driver.view());
            assert!(!v.passed, "{} step {}: the check holds without its action: {}", l.id, i + 1, v.text);
            assert!(v.text.starts_with('✗'), "{}", v.text);
        }
    }
}

#[test]
fn back_and_next_show_the_same_step() {
    let l = lesson::by_id("memory").unwrap();
    let mut page = Page::new();
    page.play(l.enter(0, None));
    page.play(l.enter(2, Some(0)));
    let first = page.driver.view();
    page.play(l.enter(4, Some(0)));
    page.play(l.enter(2, Some(0)));
    let again = page.driver.view();
    assert_eq!((first.layer, first.narration, first.pc), (again.layer, again.narration, again.pc));
}

#[test]
fn a_lesson_travels_in_the_url() {
    let l = lesson::by_id("branch").unwrap();
    let fragment = format!("#{}", lesson::encode(&l));
    assert!(fragment.starts_with("#lesson="));
    assert_eq!(lesson::from_address("", &fragment), Some(Ok(l)));
    // A fragment wins over a query; neither asks for nothing.
    assert_eq!(lesson::from_address("?embed", "#v2=abc"), None);
}

#[test]
fn bad_lessons_are_refused_in_words() {
    let says = |r: Option<Result<Lesson, LessonError>>| r.expect("asks for a lesson").unwrap_err().to_string();
    assert!(says(lesson::from_address("?lesson=nope", "")).contains("there is no lesson “nope” (lessons: tensor,"));
    assert!(says(lesson::from_address("", "#lesson=%%%")).contains("not base64url"));
    assert!(says(lesson::from_address("", "#lesson=AAAA")).contains("cut off or corrupt"));
    let packed = |json: &str| format!("#lesson={}", loom_app::link::pack(json.as_bytes()));
    assert!(says(lesson::from_address("", &packed("{\"id\": 3}"))).contains("not valid"));
    let step = r#"{"text": "x", "load": {"source": "HALT"}, "action": {"layer": 9}}"#;
    let bad = format!(r#"{{"id": "x", "title": "X", "steps": [{step}]}}"#);
    assert!(says(lesson::from_address("", &packed(&bad))).contains("step 1: layer is 1 to 8"));
    let no_load = r#"{"id": "x", "title": "X", "steps": [{"text": "x"}]}"#;
    assert!(says(lesson::from_address("", &packed(no_load))).contains("first step must load"));
    let demo = r#"{"id": "x", "title": "X", "steps": [{"text": "x", "load": {"demo": "<script>"}}]}"#;
    assert!(says(lesson::from_address("", &packed(demo))).contains("no demo “<script>”"));
    let bomb = format!("#lesson={}", loom_app::link::pack(&vec![b' '; loom_app::link::MAX_UNPACKED + 1]));
    assert!(says(lesson::from_address("", &bomb)).contains("unpacks to more than"));
}
