//! Share links: the playground's state in a URL fragment, and back.
//!
//! A v2 link is `#v2=PAYLOAD`: PAYLOAD is base64url (no padding) of the raw
//! DEFLATE of a small JSON object, [`Shared`], whose short keys are part of
//! the format (`s` source, `l` language, `c` configuration, `e` engine, `d`
//! demo, `b` breakpoints, `n` the step on display). Version 1 links, the
//! percent-encoded `#src=…&config=…`, still open.
//!
//! Everything in a link comes from outside: [`decode`] bounds what it reads
//! (the fragment's length, the unpacked size), checks every name against what
//! the playground has, and answers a [`LinkError`] that says what is wrong in
//! words. It never interprets the source: a program is text, whatever it holds.

use loom_core::frontend::demos::DEMOS;
use loom_core::frontend::report::grouped;
use loom_core::frontend::Config;
use loom_core::frontend::{EngineKind, Lang};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The longest fragment read at all (characters).
pub const MAX_LINK: usize = 1 << 20;
/// The most a v2 payload may unpack to (bytes).
pub const MAX_UNPACKED: usize = 1 << 20;
/// Links longer than this are shown with their length (some mail and chat
/// programs cut links of about 2,000 characters).
pub const LONG_LINK: usize = 2_000;
/// The most steps a link may ask to open at.
pub const MAX_STEP: u64 = 1_000_000;

/// A program and how to show it: what a link carries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shared {
    #[serde(rename = "s", default)]
    pub source: String,
    #[serde(rename = "l", default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// A configuration preset's name.
    #[serde(rename = "c", default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
    #[serde(rename = "e", default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// A demo's id: the demo is loaded (its source comes with it).
    #[serde(rename = "d", default, skip_serializing_if = "Option::is_none")]
    pub demo: Option<String>,
    #[serde(rename = "b", default, skip_serializing_if = "Vec::is_empty")]
    pub breakpoints: Vec<u32>,
    /// The step on display: the link opens stopped after this many steps.
    #[serde(rename = "n", default, skip_serializing_if = "is_zero")]
    pub step: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Shared {
    /// The language, checked.
    pub fn lang(&self) -> Result<Option<Lang>, LinkError> {
        self.lang
            .as_deref()
            .map(Lang::by_name)
            .transpose()
            .map_err(|_| LinkError::Unknown("language", self.lang.clone().unwrap_or_default()))
    }

    /// The engine, checked.
    pub fn engine(&self) -> Result<Option<EngineKind>, LinkError> {
        self.engine
            .as_deref()
            .map(EngineKind::by_name)
            .transpose()
            .map_err(|_| LinkError::Unknown("engine", self.engine.clone().unwrap_or_default()))
    }

    /// Every name in the state is one the playground has, and the numbers are in range.
    pub fn check(&self) -> Result<(), LinkError> {
        self.lang()?;
        self.engine()?;
        if let Some(c) = &self.config {
            Config::preset(c).map_err(|_| LinkError::Unknown("configuration", c.clone()))?;
        }
        if let Some(d) = &self.demo {
            if !DEMOS.iter().any(|x| x.id == d) {
                return Err(LinkError::Unknown("demo", d.clone()));
            }
        }
        if self.step > MAX_STEP {
            return Err(LinkError::Damaged(format!("it asks for step {}, beyond {MAX_STEP}", self.step)));
        }
        Ok(())
    }
}

/// Why a link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Longer than [`MAX_LINK`] (its length).
    TooLong(usize),
    /// Not base64url, cut off, not a state, bad percent-encoding: what is wrong.
    Damaged(String),
    /// A name the playground does not have: (what, the name).
    Unknown(&'static str, String),
    /// A fragment of a format this playground does not know (`v3=…`).
    Version(String),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            LinkError::TooLong(n) => {
                write!(
                    f,
                    "the link is too long ({} characters; at most {})",
                    grouped(*n as u64),
                    grouped(MAX_LINK as u64)
                )
            }
            LinkError::Damaged(why) => write!(f, "the link is damaged: {why}"),
            LinkError::Unknown(what, name) => {
                write!(
                    f,
                    "the link asks for the {what} \u{201c}{}\u{201d}, which this playground does not have",
                    shorten(name)
                )
            }
            LinkError::Version(v) => {
                write!(f, "the link is of a newer format ({}) than this playground reads", shorten(v))
            }
        }
    }
}

/// A name from a link, short enough to quote in a message.
fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(MAX).collect::<String>())
    }
}

/// The fragment (without `#`) of a v2 link to `state`.
pub fn encode(state: &Shared) -> String {
    let json = serde_json::to_vec(state).expect("invariant: a Shared always serializes");
    format!("v2={}", pack(&json))
}

/// base64url (no padding) of the raw DEFLATE of `bytes`: a v2 link's
/// payload, and a lesson's (`#lesson=…`).
pub fn pack(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(bytes, 9))
}

/// The bytes of a [`pack`]ed payload, unpacking at most [`MAX_UNPACKED`] bytes.
pub fn unpack(payload: &str) -> Result<Vec<u8>, LinkError> {
    use base64::Engine;
    let packed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|_| LinkError::Damaged("its data is not base64url text (was it cut or changed?)".into()))?;
    miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_UNPACKED).map_err(|e| {
        LinkError::Damaged(match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                format!("it unpacks to more than {} bytes", grouped(MAX_UNPACKED as u64))
            }
            _ => "its data is cut off or corrupt".into(),
        })
    })
}

/// Reads a URL fragment (with or without its `#`). `None`: it carries no
/// program (empty, or only keys this playground does not use).
pub fn decode(fragment: &str) -> Option<Result<Shared, LinkError>> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    if fragment.len() > MAX_LINK {
        return Some(Err(LinkError::TooLong(fragment.len())));
    }
    let mut v1 = Shared::default();
    let mut has_v1 = false;
    for part in fragment.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        match key {
            "v2" => return Some(decode_v2(value).and_then(|s| s.check().map(|()| s))),
            "src" => {
                has_v1 = true;
                v1.source = match percent_decode(value) {
                    Ok(s) => s,
                    Err(e) => return Some(Err(e)),
                };
            }
            "config" => match percent_decode(value) {
                Ok(c) => v1.config = Some(c),
                Err(e) => return Some(Err(e)),
            },
            k if k.len() > 1 && k.starts_with('v') && k[1..].bytes().all(|b| b.is_ascii_digit()) => {
                return Some(Err(LinkError::Version(k.to_owned())));
            }
            _ => {}
        }
    }
    has_v1.then(|| v1.check().map(|()| v1))
}

fn decode_v2(payload: &str) -> Result<Shared, LinkError> {
    let json = unpack(payload)?;
    serde_json::from_slice(&json).map_err(|_| LinkError::Damaged("its data is not a playground state".into()))
}

/// `%XX` escapes to bytes, then UTF-8 (what `encodeURIComponent` wrote).
pub fn percent_decode(s: &str) -> Result<String, LinkError> {
    let bad = || LinkError::Damaged("its text is not valid percent-encoding (was it cut or changed?)".into());
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).filter(|h| h.iter().all(u8::is_ascii_hexdigit)).ok_or_else(bad)?;
            let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// What to say about a link's length: `None` when it is short.
pub fn length_note(link_len: usize) -> Option<String> {
    (link_len > LONG_LINK)
        .then(|| format!("{} characters: some mail and chat programs cut links this long", grouped(link_len as u64)))
}
