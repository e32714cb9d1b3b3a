//! The manual (`docs/`, built by mdBook) holds together: every page is listed
//! in `SUMMARY.md` and every listed page exists, every `{{#include}}` finds its
//! file, every link inside the book, from the README and from the playground
//! (`app/src/ui/manual.rs`) reaches a page and, with `#id`, a heading of it.
//! mdBook itself checks none of this: a broken link is only a 404 in the browser.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

fn src() -> PathBuf {
    root().join("docs/src")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text with fenced code blocks and inline code spans blanked, so the
/// link and heading scans see only prose (a `[i](x)` in C is no link).
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if !fenced {
            // Backtick spans are dropped (their text is not a link); an odd one out stays text.
            let parts: Vec<&str> = line.split('`').collect();
            if parts.len() % 2 == 1 {
                out.extend(parts.iter().step_by(2).copied());
            } else {
                out.push_str(line);
            }
        }
        out.push('\n');
    }
    out
}

/// Every `{{#include PATH}}` (relative to `dir`) replaced by the file's text; `PATH:NAME`
/// by the lines between its `ANCHOR: NAME` and `ANCHOR_END: NAME` markers, as mdBook
/// includes them (`PATH:lines` includes the whole file: a superset).
fn expand(text: &str, dir: &Path, page: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{#include ") {
        let end = rest[start..].find("}}").unwrap_or_else(|| panic!("{page}: an unclosed {{{{#include")) + start;
        let target = rest[start + "{{#include ".len()..end].trim();
        let (file, anchor) = target.split_once(':').unwrap_or((target, ""));
        let path = dir.join(file);
        assert!(path.is_file(), "{page}: {{{{#include {target}}}}} names no file ({})", path.display());
        out.push_str(&rest[..start]);
        let included = read(&path);
        if anchor.is_empty() || anchor.starts_with(|c: char| c.is_ascii_digit()) {
            out.push_str(&included);
        } else {
            out.push_str(&anchored(&included, anchor).unwrap_or_else(|| {
                panic!("{page}: {{{{#include {target}}}}}: {} has no ANCHOR: {anchor}", path.display())
            }));
        }
        rest = &rest[end + 2..];
    }
    out.push_str(rest);
    out
}

/// The lines between `ANCHOR: name` and `ANCHOR_END: name`, without marker lines.
fn anchored(text: &str, name: &str) -> Option<String> {
    // mdBook's name: the word characters and dashes after the marker.
    let word =
        |r: &str| r.trim_start().split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).next() == Some(name);
    let is = |line: &str, marker: &str| line.split(marker).nth(1).is_some_and(word);
    let mut lines = text.lines().skip_while(|l| !is(l, "ANCHOR:"));
    lines.next()?;
    let mut out = String::new();
    for line in lines.take_while(|l| !is(l, "ANCHOR_END:")) {
        if !line.contains("ANCHOR:") && !line.contains("ANCHOR_END:") {
            out.push_str(line);
            out.push('\n');
        }
    }
    Some(out)
}

/// The id mdBook gives a heading's text: alphanumerics lowercased, `-` and
/// `_` kept, whitespace turned into `-`, everything else dropped.
fn heading_id(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The ids of a page's headings (`{#id}` when given, else mdBook's; a repeated
/// one also as `id-1`, `id-2`, …, as mdBook numbers them).
fn heading_ids(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        let Some(h) = line.strip_prefix('#').filter(|_| !fenced) else { continue };
        let h = h.trim_start_matches('#');
        if !h.starts_with(' ') {
            continue;
        }
        let h = h.trim();
        let id = match h.rfind("{#") {
            Some(i) if h.ends_with('}') => h[i + 2..h.len() - 1].to_owned(),
            _ => heading_id(&strip_links(&h.replace(['`', '*'], ""))),
        };
        let n = seen.entry(id.clone()).or_default();
        ids.insert(if *n == 0 { id } else { format!("{id}-{n}") });
        *n += 1;
    }
    ids
}

/// `[text](target)` → `text`, for a heading's id.
fn strip_links(text: &str) -> String {
    links(text).iter().fold(text.to_owned(), |t, (label, target)| t.replace(&format!("[{label}]({target})"), label))
}

/// Every inline link and image `[label](target)` in the prose, as (label, target).
fn links(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("](") {
        let close = i + at;
        let open = text[..close].rfind('[');
        let end = text[close + 2..].find(')').map(|e| close + 2 + e);
        if let (Some(open), Some(end)) = (open, end) {
            let target = text[close + 2..end].split_whitespace().next().unwrap_or("").to_owned();
            let label = text[open + 1..close].to_owned();
            if !label.contains('\n') && !target.is_empty() && bytes[close + 2] != b' ' {
                out.push((label, target));
            }
        }
        i = close + 2;
    }
    out
}

/// The pages `SUMMARY.md` lists, in order.
fn summary() -> Vec<String> {
    links(&prose(&read(&src().join("SUMMARY.md")))).into_iter().map(|(_, target)| target).collect()
}

/// Every page of the book (file name → its text with includes expanded).
fn pages() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(src()).expect("docs/src") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).expect("a file name").to_owned();
        if name.ends_with(".md") && name != "SUMMARY.md" {
            let text = expand(&read(&path), &src(), &name);
            out.insert(name, text);
        }
    }
    out
}

/// Checks one link `target` written in `from` (a page under `base`): a page
/// that exists and, with `#id`, a heading of it; a file that exists. `html`:
/// the target names built pages (`x.html`) rather than sources (`x.md`).
fn check_link(
    from: &str,
    base: &Path,
    target: &str,
    pages: &BTreeMap<String, String>,
    html: bool,
) -> Result<(), String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return Ok(());
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let page = if path.is_empty() {
        Some(from.to_owned())
    } else if html {
        let name = path.strip_suffix(".html").ok_or_else(|| format!("{from}: {target} is not a page of the book"))?;
        // mdBook writes the first chapter as index.html too.
        Some(if name == "index" { summary()[0].clone() } else { format!("{name}.md") })
    } else if path.ends_with(".md") && base == src() {
        Some(path.to_owned())
    } else {
        None
    };
    match page {
        Some(page) => {
            let text = pages.get(&page).ok_or_else(|| format!("{from}: {target} names no page (docs/src/{page})"))?;
            if !anchor.is_empty() && !heading_ids(text).contains(anchor) {
                return Err(format!(
                    "{from}: {target}: {page} has no heading #{anchor} (it has {:?})",
                    heading_ids(text)
                ));
            }
            Ok(())
        }
        None if base.join(path).exists() => Ok(()),
        None => Err(format!("{from}: {target} names no file ({})", base.join(path).display())),
    }
}

#[test]
fn every_page_is_listed_and_every_listed_page_exists() {
    let listed = summary();
    let pages = pages();
    for page in &listed {
        assert!(pages.contains_key(page), "SUMMARY.md lists {page}, which is not in docs/src");
    }
    for page in pages.keys() {
        assert!(listed.contains(page), "docs/src/{page} is in no chapter: list it in SUMMARY.md");
    }
    let unique: BTreeSet<_> = listed.iter().collect();
    assert_eq!(unique.len(), listed.len(), "SUMMARY.md lists a page twice");
}

#[test]
fn every_link_in_the_book_leads_somewhere() {
    let pages = pages();
    let mut broken = Vec::new();
    let mut count = 0;
    for (name, text) in &pages {
        for (_, target) in links(&prose(text)) {
            count += 1;
            if let Err(e) = check_link(name, &src(), &target, &pages, false) {
                broken.push(e);
            }
        }
    }
    assert!(broken.is_empty(), "broken links in the manual:\n{}", broken.join("\n"));
    assert!(count > 50, "only {count} links found: the scan is broken");
}

#[test]
fn the_readme_links_into_the_manual() {
    let pages = pages();
    let readme = read(&root().join("README.md"));
    let found = links(&prose(&readme));
    let mut broken = Vec::new();
    for (_, target) in &found {
        let result = match target.strip_prefix("docs/src/").filter(|p| *p != "SUMMARY.md") {
            Some(page) => check_link("README.md", &src(), page, &pages, false),
            None => check_link("README.md", &root(), target, &pages, false),
        };
        if let Err(e) = result {
            broken.push(e);
        }
    }
    assert!(broken.is_empty(), "broken links in README.md:\n{}", broken.join("\n"));
    assert!(found.iter().any(|(_, t)| t == "docs/src/SUMMARY.md"), "the README links to the manual's contents");
    assert!(readme.lines().count() < 200, "the README stays under 200 lines: measurements go in the manual");
}

#[test]
fn the_playground_links_to_pages_that_exist() {
    let pages = pages();
    let code = read(&root().join("app/src/ui/manual.rs"));
    let mut found = 0;
    for piece in code.split('"').skip(1).step_by(2) {
        if let Some(target) = piece.strip_prefix("book/") {
            found += 1;
            if let Err(e) = check_link("app/src/ui/manual.rs", &src(), target, &pages, true) {
                panic!("{e}");
            }
        }
    }
    assert!(found >= 8, "app/src/ui/manual.rs names {found} pages: the scan is broken");
    // Explain's layer names link to `machine.html#lK`, K = 1..=8.
    assert!(code.contains(r#"format!("{MACHINE}#l{}", index + 1)"#), "the layer links' form changed: update this test");
    let ids = heading_ids(&pages["machine.md"]);
    for k in 1..=8 {
        assert!(ids.contains(&format!("l{k}")), "machine.md has no heading {{#l{k}}} for Explain's link");
    }
}

#[test]
fn the_id_rule_is_mdbooks() {
    assert_eq!(heading_id("The JS API: mount()"), "the-js-api-mount");
    assert_eq!(heading_id("An iframe: index.html?embed"), "an-iframe-indexhtmlembed");
    let ids = heading_ids("# A\n## What errors mean\n### L1 fetch {#l1}\n```\n# not a heading\n```\n## A\n");
    assert_eq!(ids, ["a", "a-1", "l1", "what-errors-mean"].map(String::from).into());
}

#[test]
fn an_anchored_include_takes_its_block_only() {
    let text =
        "[out](x.md)\n<!-- ANCHOR: a -->\nin\n<!-- ANCHOR: b -->\nb\n<!-- ANCHOR_END: b -->\n<!-- ANCHOR_END: a -->\n";
    assert_eq!(anchored(text, "a").as_deref(), Some("in\nb\n"));
    assert_eq!(anchored(text, "b").as_deref(), Some("b\n"));
    assert_eq!(anchored(text, "c"), None);
    assert_eq!(anchored("<!-- ANCHOR: ab -->\nx\n<!-- ANCHOR_END: ab -->\n", "a"), None);
}
