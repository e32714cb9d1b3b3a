//! Share links: v2 round trips, v1 links still open, and hostile links are
//! refused with a reason (never a panic, never a silent default).

use loom_app::link::{decode, encode, length_note, LinkError, Shared, MAX_LINK, MAX_UNPACKED};

fn state() -> Shared {
    Shared {
        source: "int x;\nint main() { x = 3 * 4; return 0; }\n".into(),
        lang: Some("c".into()),
        config: Some("small".into()),
        engine: Some("interp".into()),
        demo: None,
        breakpoints: vec![2, 5],
        step: 17,
    }
}

#[test]
fn v2_round_trips_every_field() {
    let s = state();
    let link = encode(&s);
    assert!(link.starts_with("v2="), "{link}");
    assert!(link[3..].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{link}");
    assert_eq!(decode(&link), Some(Ok(s.clone())));
    assert_eq!(decode(&format!("#{link}")), Some(Ok(s)), "with its #");
}

#[test]
fn v2_compresses_a_long_program() {
    let source: String = (0..200).map(|i| format!("int v{i};\n")).collect();
    let link = encode(&Shared { source: source.clone(), ..Shared::default() });
    assert!(link.len() * 2 < source.len(), "{} characters for {} of source", link.len(), source.len());
}

#[test]
fn a_demo_link_opens_the_demo() {
    let s = Shared { demo: Some("sort".into()), ..Shared::default() };
    assert_eq!(decode(&encode(&s)), Some(Ok(s)));
}

#[test]
fn v1_links_keep_opening() {
    let got = decode("src=int%20x%3B%0Ax%20%3D%201%3B&config=small").unwrap().unwrap();
    assert_eq!(got.source, "int x;\nx = 1;");
    assert_eq!(got.config.as_deref(), Some("small"));
    let plain = decode("#src=%3B%20%C3%A9t%C3%A9").unwrap().unwrap();
    assert_eq!(plain.source, "; été");
    assert_eq!(plain.config, None);
}

#[test]
fn no_program_is_no_link() {
    for f in ["", "#", "#top", "foo=bar&baz", "config=small"] {
        assert_eq!(decode(f), None, "{f:?}");
    }
}

fn broken(fragment: &str) -> LinkError {
    match decode(fragment) {
        Some(Err(e)) => e,
        other => panic!("{:.60?} should be refused, got {other:?}", fragment),
    }
}

#[test]
fn bad_percent_encoding_is_refused() {
    for f in ["src=%E0%A4%A", "src=%E0%A4", "src=%ZZ", "src=%+1", "src=%FF%FE", "src=ok&config=%"] {
        let e = broken(f);
        assert!(matches!(e, LinkError::Damaged(_)), "{f}: {e:?}");
        assert!(e.to_string().contains("percent-encoding"), "{e}");
    }
}

#[test]
fn unknown_names_are_named() {
    let e = broken("src=int%20x%3B&config=huge");
    assert_eq!(e, LinkError::Unknown("configuration", "huge".into()));
    assert!(e.to_string().contains("configuration \u{201c}huge\u{201d}"), "{e}");
    for (field, s) in [
        ("configuration", Shared { config: Some("nope".into()), ..state() }),
        ("engine", Shared { engine: Some("quantum".into()), ..state() }),
        ("language", Shared { lang: Some("cobol".into()), ..state() }),
        ("demo", Shared { demo: Some("tetris".into()), ..state() }),
    ] {
        assert!(matches!(broken(&encode(&s)), LinkError::Unknown(f, _) if f == field), "{field}");
    }
    let long = "x".repeat(10_000);
    let msg = broken(&encode(&Shared { config: Some(long), ..state() })).to_string();
    assert!(msg.len() < 200, "a hostile name is quoted short: {msg}");
}

#[test]
fn bad_base64_and_truncation_are_refused() {
    let link = encode(&state());
    for f in
        ["v2=", "v2=!!!!", "v2=<script>alert(1)</script>", "v2=AAAA", &link[..link.len() / 2], &link[..link.len() - 3]]
    {
        let e = broken(f);
        assert!(matches!(e, LinkError::Damaged(_)), "{f}: {e:?}");
    }
}

#[test]
fn not_a_state_is_refused() {
    use base64::Engine;
    let packed = miniz_oxide::deflate::compress_to_vec(br#"{"s": 5}"#, 6);
    let f = format!("v2={}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed));
    assert!(broken(&f).to_string().contains("not a playground state"));
}

#[test]
fn megabytes_are_refused_without_reading_them() {
    let huge = format!("src={}", "a".repeat(MAX_LINK + 1));
    assert_eq!(broken(&huge), LinkError::TooLong(MAX_LINK + 5));
    // A small payload that unpacks to more than the limit (a "zip bomb").
    let bomb = Shared { source: "a".repeat(MAX_UNPACKED + 10), ..Shared::default() };
    let link = encode(&bomb);
    assert!(link.len() < 10_000, "{}", link.len());
    assert!(broken(&link).to_string().contains("unpacks to more than"));
}

#[test]
fn newer_formats_say_so() {
    assert_eq!(broken("v3=abc"), LinkError::Version("v3".into()));
}

#[test]
fn markup_in_the_source_is_text() {
    let s =
        Shared { source: "/* <img src=x onerror=alert(1)> */ <script>alert(2)</script>".into(), ..Shared::default() };
    assert_eq!(decode(&encode(&s)).unwrap().unwrap().source, s.source);
    let v1 = decode("src=%3Cscript%3Ealert(1)%3C%2Fscript%3E").unwrap().unwrap();
    assert_eq!(v1.source, "<script>alert(1)</script>");
}

#[test]
fn steps_beyond_the_limit_are_refused() {
    assert!(matches!(broken(&encode(&Shared { step: u64::MAX, ..state() })), LinkError::Damaged(_)));
}

#[test]
fn long_links_say_their_length() {
    assert_eq!(length_note(300), None);
    assert_eq!(length_note(12_345).unwrap(), "12,345 characters: some mail and chat programs cut links this long");
}
