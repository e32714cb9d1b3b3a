//! Golden files of the C corpus: for every program in `tests/c/` (and
//! `tests/c/regress/`), the `loom build` listing and the full `loom run --json`
//! object on the interpreter, and the compiler's debug information. A change to code generation or to the report's
//! shape shows up here as a reviewed diff (`UPDATE_EXPECT=1` rewrites them).

use expect_test::expect_file;
use loom_core::compiler::annotated_listing;
use loom_core::frontend::{build, Config, EngineKind, Lang, Machine};
use loom_core::report::run_report;
use loom_core::Engine;
use std::path::{Path, PathBuf};

/// Long enough for every corpus program (the Sudoku takes 7.5 M steps).
const MAX_STEPS: u64 = 50_000_000;

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/c");
    let mut paths: Vec<PathBuf> = [root.clone(), root.join("regress")]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    paths.sort();
    paths
}

/// The configuration a corpus file asks for (`// config: NAME`), as `c_corpus.rs` reads it.
fn config_of(path: &Path, source: &str) -> Config {
    let name = source.lines().find_map(|l| l.trim().strip_prefix("//")?.trim().strip_prefix("config:"));
    Config::preset(name.map_or("compact", str::trim)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn name_of(path: &Path) -> String {
    path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

/// `regress/x.c` → `regress_x`: one flat folder of goldens.
fn golden_name(path: &Path) -> String {
    let dir = path.parent().unwrap().file_name().unwrap().to_string_lossy();
    let stem = path.file_stem().unwrap().to_string_lossy();
    if dir == "regress" {
        format!("regress_{stem}")
    } else {
        stem.into_owned()
    }
}

#[test]
fn listings_and_run_reports_of_the_corpus() {
    let paths = corpus();
    assert!(paths.len() >= 20, "the corpus is missing");
    for path in &paths {
        let source = std::fs::read_to_string(path).unwrap();
        let config = config_of(path, &source);
        let built = build(Lang::C, &source, config);
        let prog = built.program.clone().unwrap_or_else(|| {
            let errors: Vec<String> = built.diagnostics.iter().map(|d| d.render(&name_of(path), &source)).collect();
            panic!("{} does not compile:\n{}", path.display(), errors.join("\n"))
        });
        let name = golden_name(path);
        expect_file![format!("golden/listing/{name}.txt")].assert_eq(&annotated_listing(&built, &source));
        // The debug information: scopes, variables' homes and types, return sites.
        expect_file![format!("golden/debug/{name}.txt")].assert_eq(&prog.debug.to_string());

        // As `loom run --json` does: the façade's machine, which also collects the output.
        let mut m = Machine::new(EngineKind::Interp, &prog).unwrap();
        // A program that reads input has it in `NAME.in` (as `c_corpus.rs` reads it).
        m.set_input(std::fs::read(path.with_extension("in")).unwrap_or_default());
        let status = m.run(MAX_STEPS, None);
        let report = run_report(&prog, &status, &m, m.output());
        let json = serde_json::to_string_pretty(&report).unwrap() + "\n";
        expect_file![format!("golden/run/{name}.json")].assert_eq(&json);
    }
}
