"""The exported model outside the playground agrees with our dense engine.

For each program below, `loom state --every-step` writes the dense reference's
tensor after every step; the exported ONNX graph (run by onnxruntime) and the
NumPy reference (tools/loom_step.py, reading the safetensors file) each start
from the initial state, run on their own output, and must give the same
tensor, bit for bit, after every step. The files are also read by the
formats' own libraries (onnx's checker, safetensors) to prove they are
standard. Last, every head of both is checked against the argmax rule written
out literally, on crafted inputs full of ties (what a program's steps cannot show).

    python tests/export/check_export.py [path/to/loom]   (default target/release/loom)
"""

import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# One thread each: the machine's 2 cores are shared, and BLAS or onnxruntime
# threads spinning against each other cost more than they bring at this size.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnx.utils  # noqa: E402
import onnxruntime  # noqa: E402
import safetensors.numpy  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import loom_step  # noqa: E402

# (what it covers, program, configuration, steps: None = to HALT). The dense
# reference does ~10 steps/s on compact (146 x 512) and ~50 on small (128 x 128).
CASES = [
    ("LOAD/STORE/FIND at slots 120..159", "tests/asm/highmem.s", "compact", None),
    ("a branch-heavy loop", "tests/c/collatz.c", "small", None),
    ("a demo's first steps", "demos/sort.c", "compact", 100),
    ("32-bit words: carries and borrows across the limbs", "tests/export/wide32.s", "compact32", None),
]


def loom(binary, *args):
    run = subprocess.run([binary, *args], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"loom {' '.join(args)} failed:\n{run.stderr}")


def bits_equal(a, b):
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


def check_files(onnx_path, st_path, config):
    """The files are standard (onnx's checker and the safetensors library accept
    them) and carry the same metadata."""
    graph = onnx.load(str(onnx_path))
    onnx.checker.check_model(graph, full_check=True)
    ours, meta = loom_step.load(st_path)
    assert {p.key: p.value for p in graph.metadata_props} == meta, "the two files' metadata differ"
    theirs = safetensors.numpy.load_file(str(st_path))
    assert sorted(ours) == sorted(theirs), "the two readers see different arrays"
    for name, a in ours.items():
        assert bits_equal(a, theirs[name]), f"{name} reads differently"
    cfg = json.loads(meta["config"])
    assert cfg["name"] == config and len(json.loads(meta["rows"])) == cfg["d"], meta["config"]


def run_case(binary, work, what, program, config, steps):
    start = time.monotonic()
    onnx_path, st_path = work / f"{config}.onnx", work / f"{config}.safetensors"
    if not onnx_path.exists():
        loom(binary, "export", "--config", config, "--format", "onnx", str(onnx_path))
        loom(binary, "export", "--config", config, "--format", "safetensors", str(st_path))
        check_files(onnx_path, st_path, config)
    states_path = work / "states.npy"
    limit = ["--steps", str(steps if steps is not None else 100_000)]
    loom(binary, "state", str(ROOT / program), "--config", config, *limit, "--every-step", "--format", "npy", str(states_path))
    reference = np.load(states_path)
    dense_seconds = time.monotonic() - start

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
    model = loom_step.Model(st_path)
    by_onnx = by_numpy = reference[0]
    worst = {"onnxruntime": 0.0, "numpy": 0.0}
    for k in range(1, len(reference)):
        by_onnx = session.run(None, {"state": by_onnx})[0]
        by_numpy = model.step(by_numpy)
        for name, x in (("onnxruntime", by_onnx), ("numpy", by_numpy)):
            diff = float(np.max(np.abs(x - reference[k])))
            worst[name] = max(worst[name], diff)
            if not bits_equal(x, reference[k]):
                rows, cols = np.nonzero(x.view(np.uint32) != reference[k].view(np.uint32))
                where = ", ".join(f"{model.rows[r]} col {c}" for r, c in list(zip(rows, cols))[:5])
                raise AssertionError(f"{name} differs from loom after step {k} (max |diff| {diff}): {where}")
        # A step that changed nothing would make the comparison empty.
        assert not bits_equal(reference[k], reference[k - 1]), f"step {k} changed nothing"
    pc = model.pc(reference[-1])
    if steps is None:
        assert pc == 0, f"{program} did not halt (pc = {pc})"
    d, n = reference.shape[1:]
    print(
        f"ok  {program} on {config} ({d} x {n}), {what}: {len(reference) - 1} steps compared, "
        f"max |diff| onnxruntime {worst['onnxruntime']:g}, numpy {worst['numpy']:g}; "
        f"final pc {pc}; {time.monotonic() - start:.1f} s ({dense_seconds:.1f} s for loom's dense states)"
    )


def literal_head(x, query, key, value, output, seen):
    """Spec section 7 word for word: a scan over targets per source, keeping the best
    two with strict comparisons (so ties stay with the lower column). Counts the
    cases in `seen`, so the crafted states provably contain them."""
    d, n = x.shape
    k, q = key @ x, query @ x
    out = np.zeros((d, n), dtype=np.float32)
    for i in range(n):
        if not np.any(k[:, i] != 0):
            seen["zero key"] += 1
            continue
        (s1, j1), (s2, j2) = (-np.inf, None), (-np.inf, None)
        for j in range(n):
            s = k[:, i] @ q[:, j]
            if s > s1:
                (s2, j2), (s1, j1) = (s1, j1), (s, j)
            elif s > s2:
                (s2, j2) = (s, j)
        scores = k[:, i] @ q
        if np.count_nonzero(scores == s1) >= 3:
            seen["three or more best"] += 1
        seen[f"gap {s1 - s2:g}"] += 1
        v = output @ (value @ x[:, i])
        if s1 - s2 < 1:
            out[:, j1] += np.float32(0.5) * v
            out[:, j2] += np.float32(0.5) * v
        else:
            out[:, j1] += v
    return out


def check_argmax_rule(binary, work):
    """Every head of the ONNX graph and of the NumPy reference against the literal
    rule, on crafted layer inputs full of ties: columns repeat (three or more
    equal best scores), entries of +-0.5 make gaps of exactly 0.5 and 1.0, and
    zero columns have all-zero keys. A step of a real program cannot show which
    two of several equal columns a head picks (the FFN clears what lands in the
    others), so the rule is checked here, head by head."""
    start = time.monotonic()
    work.mkdir()
    config = "tiny"
    onnx_path, st_path = work / f"{config}.onnx", work / f"{config}.safetensors"
    loom(binary, "export", "--config", config, "--format", "onnx", str(onnx_path))
    loom(binary, "export", "--config", config, "--format", "safetensors", str(st_path))
    check_files(onnx_path, st_path, config)
    model = loom_step.Model(st_path)
    cfg = json.loads(model.meta["config"])
    d, n = cfg["d"], cfg["n"]
    rng = np.random.default_rng(18)
    seen = collections.Counter()
    heads = 0
    previous = "state"
    for layer in model.layers:
        if layer["heads"]:
            names = [f"{layer['key']}.{h['name']}" for h in layer["heads"]]
            part = work / f"{layer['key']}.onnx"
            onnx.utils.extract_model(str(onnx_path), str(part), [previous], [f"{p}.out" for p in names])
            session = onnxruntime.InferenceSession(str(part), providers=["CPUExecutionProvider"])
            for trial in range(3):
                # Half the columns repeat six patterns, the others are all different.
                values = np.float32([-1, -0.5, 0, 0.5, 1])
                x = rng.choice(values, size=(d, n), p=[0.3, 0.1, 0.2, 0.1, 0.3])
                repeated = rng.integers(0, n, size=n // 2)
                x[:, repeated] = x[:, rng.integers(0, 6, size=len(repeated))]
                x[:, rng.integers(0, n, size=n // 8)] = 0
                x = np.ascontiguousarray(x, dtype=np.float32)
                by_onnx = session.run(None, {previous: x})
                for p, got in zip(names, by_onnx):
                    arrays = [model.arrays[f"{p}.{r}"] for r in ("query", "key", "value", "output")]
                    want = literal_head(x, *arrays, seen)
                    for name, y in (("onnxruntime", got), ("numpy", loom_step.attention(x, *arrays))):
                        if not bits_equal(y, want):
                            cols = sorted({int(c) for c in np.nonzero(y != want)[1]})[:8]
                            raise AssertionError(f"{name}: {p} breaks the argmax rule (trial {trial}) in columns {cols}")
                    heads += 1
        previous = f"{layer['key']}.out"
    for case in ("zero key", "three or more best", "gap 0.5", "gap 1"):
        assert seen[case] > 0, f"the crafted states never had a source with {case}: {dict(seen)}"
    print(
        f"ok  the argmax rule on crafted {d} x {n} states: {heads} head runs equal the literal rule "
        f"(sources with {seen['three or more best']} three-or-more-way best ties, {seen['gap 0']} gap 0, "
        f"{seen['gap 0.5']} gap 0.5, {seen['gap 1']} gap 1.0, {seen['zero key']} zero keys); "
        f"{time.monotonic() - start:.1f} s"
    )


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/loom")
    print(f"onnxruntime {onnxruntime.__version__}, onnx {onnx.__version__}, numpy {np.__version__}")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        checks = [(f"{c[1]} on {c[2]}", lambda c=c: run_case(binary, Path(tmp), *c)) for c in CASES]
        checks.append(("the argmax rule", lambda: check_argmax_rule(binary, Path(tmp) / "rule")))
        for name, check in checks:
            try:
                check()
                passed += 1
            except Exception as e:  # report every check, then fail
                print(f"FAIL {name}: {type(e).__name__}: {e}")
                failed += 1
        files = sorted(Path(tmp).glob("*.*"))
        sizes = ", ".join(f"{p.name} {p.stat().st_size:,} B" for p in files if p.suffix != ".npy")
        print(f"files: {sizes}")
    print(f"export: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
