//! The embed options (a contract: README, "Embedding").

use loom_app::link::{encode, Shared};
use loom_app::options::{Options, Panel, ThemeChoice};
use loom_core::frontend::EngineKind;

#[test]
fn every_documented_option_is_read() {
    let o = Options::from_query(
        "?embed&demo=sort&panels=heatmap,attention&readonly&autoplay&speed=100&step=5&theme=dark&config=small&engine=interp",
    );
    assert!(o.embed && o.readonly && o.autoplay);
    assert_eq!(o.demo.as_deref(), Some("sort"));
    assert_eq!(o.panels, vec![Panel::Heatmap, Panel::Attention]);
    assert_eq!((o.speed, o.step, o.theme), (Some(100), Some(5), Some(ThemeChoice::Dark)));
    assert_eq!((o.config.as_deref(), o.engine), (Some("small"), Some(EngineKind::Interp)));
    assert!(o.problems.is_empty(), "{:?}", o.problems);
    // `input=`: the text the program reads, percent-encoded like any value.
    assert_eq!(Options::from_query("input=3+4%0A5").input.as_deref(), Some("3 4\n5"));
}

#[test]
fn flags_take_any_value_but_off() {
    assert!(Options::from_query("embed=1").embed);
    assert!(Options::from_query("embed=yes&readonly=").readonly);
    assert!(!Options::from_query("readonly=false").readonly);
    assert!(!Options::from_query("").embed);
}

#[test]
fn bad_values_are_ignored_and_said() {
    let o = Options::from_query(
        "embed&speed=fast&theme=pink&config=huge&engine=gpu&demo=tetris&panels=editor,bogus&step=-1",
    );
    assert_eq!((o.speed, o.theme, o.config, o.engine, o.demo, o.step), (None, None, None, None, None, None));
    assert_eq!(o.panels, vec![Panel::Editor], "the known panels stay");
    assert_eq!(o.problems.len(), 7, "{:?}", o.problems);
    assert!(o.problems.iter().any(|p| p.starts_with("panels: no panel bogus")), "{:?}", o.problems);
}

#[test]
fn panels_are_ids_in_priority_order() {
    for p in Panel::ALL {
        assert_eq!(Panel::by_id(p.id()), Some(p));
    }
    let ids: Vec<_> = Panel::ALL.iter().map(|p| p.id()).collect();
    assert_eq!(ids, ["editor", "heatmap", "attention", "machine", "demo", "console", "explain", "stack", "memory"]);
    assert_eq!(Options::from_query("panels=machine,editor,machine").panels, vec![Panel::Machine, Panel::Editor]);
    assert_eq!(Options::from_query("demo=snake").panels()[0], Panel::Demo, "a demo is shown first by default");
}

#[test]
fn the_state_attribute_and_the_options_over_it() {
    let s = Shared { source: "int y;".into(), config: Some("default".into()), step: 2, ..Shared::default() };
    let link = encode(&s);
    let o = Options::from_pairs([("state", &link[3..]), ("config", "small")]);
    let start = o.start(None);
    assert_eq!((start.source.as_str(), start.config.as_deref(), start.step), ("int y;", Some("small"), 2));
    assert_eq!(Options::from_pairs([("state", link.as_str())]).state, Some(s.clone()), "a whole fragment too");
    assert_eq!(Options::from_query("step=9").start(Some(s)).step, 9, "step= over the link's");
    let broken = Options::from_pairs([("state", "!!")]);
    assert!(broken.state.is_none() && broken.problems[0].starts_with("state: the link is damaged"));
}

#[test]
fn widgets_show_fewer_panels_when_small() {
    assert_eq!(Options::fit(480.0, 320.0), 1);
    assert_eq!(Options::fit(640.0, 400.0), 2);
    assert_eq!(Options::fit(1280.0, 800.0), 6);
    assert_eq!(Options::fit(100.0, 50.0), 1);
}
