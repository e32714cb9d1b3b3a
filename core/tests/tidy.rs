//! ARCHITECTURE.md's invariants about the code's shape, as tests ("tidy"
//! tests in rust-analyzer's sense): they read the source tree, not run it.

use loom_core::machine::layout::FIELDS;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

/// Every `.rs` file under `dir`, with its text.
fn rust_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("a readable source file");
                out.push((path, text));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_app_reaches_core_only_through_the_facade() {
    for dir in ["app/src", "app/tests"] {
        for (path, text) in rust_files(&root().join(dir)) {
            for (i, _) in text.match_indices("loom_core::") {
                let rest = &text[i + "loom_core::".len()..];
                assert!(
                    rest.starts_with("frontend"),
                    "{}:{} names loom_core::{}: go through loom_core::frontend, the one door",
                    path.display(),
                    text[..i].matches('\n').count() + 1,
                    rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>()
                );
            }
            // `use loom_core::{frontend, x}` or `use loom_core as core` would slip past.
            assert!(
                !text.contains("use loom_core;") && !text.contains("loom_core as "),
                "{} renames loom_core: name loom_core::frontend",
                path.display()
            );
        }
    }
}

#[test]
fn the_apps_row_labels_come_from_the_layouts_names() {
    for (path, text) in rust_files(&root().join("app/src")) {
        for f in FIELDS.iter().filter(|f| f.name.contains('.')) {
            let quoted = format!("\"{}\"", f.name);
            assert!(
                !text.contains(&quoted),
                "{} spells the row name {quoted}: read it from the layout",
                path.display()
            );
        }
    }
}

/// The top-level module a `crate::…` path names, for every path in a file's
/// code (comments, where doc links live, are not imports).
fn crate_uses(text: &str) -> BTreeSet<String> {
    let code: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
    let text = &code.join("\n");
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
    // `use crate::{a, b::c}` lists.
    for (i, _) in text.match_indices("crate::{") {
        let list = &text[i + "crate::{".len()..];
        let list = &list[..list.find('}').unwrap_or(list.len())];
        for item in list.split(',') {
            let name: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

#[test]
fn core_modules_import_each_other_without_a_circle() {
    let src = root().join("core/src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in rust_files(&src) {
        let rel = path.strip_prefix(&src).expect("under core/src");
        let top = rel.components().next().expect("a path").as_os_str().to_string_lossy();
        let module = top.trim_end_matches(".rs").to_owned();
        if module == "bin" || module == "lib" {
            continue;
        }
        let uses: Vec<String> = crate_uses(&text).into_iter().filter(|m| *m != module).collect();
        graph.entry(module).or_default().extend(uses);
    }
    // Depth-first search for a back edge.
    fn visit(m: &str, g: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, done: &mut BTreeSet<String>) {
        if done.contains(m) {
            return;
        }
        if let Some(i) = path.iter().position(|p| p == m) {
            panic!("import circle: {} → {m}", path[i..].join(" → "));
        }
        path.push(m.to_owned());
        for next in g.get(m).into_iter().flatten() {
            visit(next, g, path, done);
        }
        path.pop();
        done.insert(m.to_owned());
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        visit(m, &graph, &mut Vec::new(), &mut done);
    }
    assert!(
        !graph["engine"].contains("machine") && !graph["engine"].contains("interp"),
        "the Engine trait builds no engine"
    );
}

#[test]
fn the_code_map_names_every_module() {
    let map = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let lib = std::fs::read_to_string(root().join("core/src/lib.rs")).expect("lib.rs");
    for line in lib.lines() {
        let Some(name) = line.trim().strip_prefix("pub mod ").and_then(|l| l.strip_suffix(';')) else { continue };
        let (file, dir) = (format!("`{name}.rs`"), format!("`{name}/`"));
        assert!(map.contains(&file) || map.contains(&dir), "ARCHITECTURE.md's code map does not name {file} or {dir}");
    }
}
