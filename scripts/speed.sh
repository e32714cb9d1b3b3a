#!/usr/bin/env bash
# Regenerates the tables of docs/speed.md, each between its `<!-- ANCHOR: NAME -->` and
# `<!-- ANCHOR_END: NAME -->` markers (the manual's Speed chapter includes them by those names):
#
#   bash scripts/speed.sh [--steps] [--native] [--callgrind] [--browser] [--full]
#
#   --steps      steps per C operation per word size: `core/tests/speed_doc.rs` rewrites its block
#                (UPDATE_EXPECT=1); the same on every machine, so CI checks it
#   --native     `loom bench --json` from a release build: steps/s per case and per preset
#   --callgrind  instructions per step of the sparse engine on tests/c/sudoku.c, per preset (valgrind)
#   --browser    `wasm_bench` in headless Chromium (wasm + simd128; scripts/setup.sh installs the
#                runner and chromedriver)
#   --full       with --native or --browser: also the classic Sudoku solved on the transformer
#
# No block option: --steps --native --callgrind. The machine-dependent blocks are stamped with the
# commit, the date and the load average; measure on an idle machine, one run at a time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
doc=docs/speed.md
target="${CARGO_TARGET_DIR:-$root/target}"

blocks=()
full=
for arg in "$@"; do
  case "$arg" in
    --steps | --native | --callgrind | --browser) blocks+=("${arg#--}") ;;
    --full) full=1 ;;
    *) echo "speed.sh: unknown option $arg (see the head of scripts/speed.sh)" >&2; exit 2 ;;
  esac
done
[ ${#blocks[@]} -gt 0 ] || blocks=(steps native callgrind)

# The commit (and whether the tree differs from it), the date, the load: the first line of a block.
stamp() {
  local commit dirty=""
  commit="$(git rev-parse --short HEAD)"
  git diff --quiet HEAD -- core app Cargo.toml Cargo.lock || dirty=" with uncommitted changes"
  echo "Measured at \`$commit\`$dirty on $(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) cores, load average" \
    "$(uptime | sed 's/.*load average: //') before the run."
}

# write_block NAME FILE: replaces docs/speed.md's block NAME by FILE's text.
write_block() {
  python3 - "$doc" "$1" "$2" <<'EOF'
import sys
doc, name, text = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
page = open(doc).read()
begin, end = f"<!-- ANCHOR: {name} -->\n", f"<!-- ANCHOR_END: {name} -->"
if begin not in page or end not in page:
    sys.exit(f"speed.sh: {doc} has no block {name}")
start = page.index(begin) + len(begin)
stop = page.index(end, start)
open(doc, "w").write(page[:start] + text + page[stop:])
EOF
}

loom_release() {
  nice -n 10 cargo build --release -p loom-core --bin loom >&2
  echo "$target/release/loom"
}

steps() {
  UPDATE_EXPECT=1 cargo test -p loom-core --test speed_doc
}

native() {
  local loom out
  loom="$(loom_release)"
  out="$(mktemp)"
  stamp >"$out.md"
  "$loom" bench --json ${full:+--full} >"$out"
  python3 - "$out" >>"$out.md" <<'EOF'
import json, sys
bench = json.load(open(sys.argv[1]))
n = lambda x: f"{x:,.0f}"
print("\n| case | preset | engine | steps | seconds | steps/s |\n|---|---|---|---|---|---|")
for r in bench["results"]:
    print(f"| {r['program']} | `{r['config']}` | {r['engine']} | {n(r['steps'])} | {r['seconds']:.3f} | {n(r['steps_per_sec'])} |")
print("\nEvery preset: the memory walk (`tests/asm/memloop.s`), "
      f"{n(bench['presets'][0]['steps'])} steps on the sparse engine, and the memory that engine holds.\n")
print("| preset | d × n | N | steps/s | MiB |\n|---|---|---|---|---|")
for p in bench["presets"]:
    print(f"| `{p['config']}` | {p['d']} × {n(p['n'])} | {p['word_bits']} | {n(p['steps_per_sec'])} | {p['total_bytes'] / 2**20:.1f} |")
sudoku = [r for r in bench["results"] if r["engine"] == "sparse" and r["program"].startswith("sudoku classic 1M")]
for r in sudoku:
    met = "met" if r["steps_per_sec"] >= 1e6 else "not yet"
    print(f"\nIssue 33's target: the sparse engine ≥ 1,000,000 steps/s on the compact Sudoku ({n(r['steps_per_sec'])}: {met}).")
EOF
  write_block native "$out.md"
  rm -f "$out" "$out.md"
}

# The instructions callgrind counts for `loom run tests/c/sudoku.c` on the sparse engine.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" run tests/c/sudoku.c --engine sparse \
    --config "$2" --max-steps "$3" 2>&1 >/dev/null | sed -n 's/.*Collected : *//p'
}

callgrind() {
  command -v valgrind >/dev/null || { echo "speed.sh: --callgrind needs valgrind (apt-get install valgrind)" >&2; exit 1; }
  local loom out preset short long
  loom="$(loom_release)"
  out="$(mktemp)"
  stamp >"$out"
  printf '\n| preset | instructions, 10,000 steps | 40,000 steps | per step |\n|---|---|---|---|\n' >>"$out"
  for preset in compact compact16 compact32; do
    short="$(instructions "$loom" "$preset" 10000)"
    long="$(instructions "$loom" "$preset" 40000)"
    python3 -c 'import sys; s, l = int(sys.argv[2]), int(sys.argv[3]); print(f"| `{sys.argv[1]}` | {s:,} | {l:,} | {round((l - s) / 30000):,} |")' \
      "$preset" "$short" "$long" >>"$out"
  done
  printf '\nIssue 33'"'"'s target: ≤ 5,000 instructions per step.\n' >>"$out"
  write_block callgrind "$out"
  rm -f "$out"
}

browser() {
  local out
  out="$(mktemp)"
  stamp >"$out.md"
  env WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}" ${full:+LOOM_BENCH_FULL=1} \
    cargo test -p loom-core --release --target wasm32-unknown-unknown --test wasm_bench -- --nocapture | tee "$out"
  python3 - "$out" >>"$out.md" <<'EOF'
import re, sys
rows = re.findall(r"wasm (.+?)\s+(sparse|dense|interp)\s+(\S+)\s+(\d+) steps\s+([\d.]+) s\s+(\d+) steps/s", open(sys.argv[1]).read())
if not rows:
    sys.exit("speed.sh: wasm_bench printed no figures")
print("\n| case | preset | engine | steps | seconds | steps/s |\n|---|---|---|---|---|---|")
for program, engine, config, steps, seconds, rate in rows:
    print(f"| {program} | `{config}` | {engine} | {int(steps):,} | {seconds} | {int(rate):,} |")
sudoku = [r for r in rows if r[0].startswith("sudoku classic 1M")]
for r in sudoku:
    met = "met" if int(r[5]) >= 500_000 else "not yet"
    print(f"\nIssue 33's target: ≥ 500,000 steps/s in Chromium ({int(r[5]):,} on the Sudoku: {met}).")
EOF
  write_block browser "$out.md"
  rm -f "$out" "$out.md"
}

for block in "${blocks[@]}"; do
  echo "==> $block" >&2
  "$block"
done
