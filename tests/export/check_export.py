"""The exported model outside the playground agrees with our dense engine.

For each program below, `loom state --every-step` writes the dense reference's
tensor after every step; the exported ONNX graph (run by onnxruntime) and the
NumPy reference (tools/loom_step.py, reading the safetensors file) each start
from the initial state, run on their own output, and must give the same
tensor, bit for bit, after every step. The files are also read by the
formats' own libraries (onnx's checker, safetensors) to prove they are
standard.

    python tests/export/check_export.py [path/to/loom]   (default target/release/loom)
"""

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
]


def loom(binary, *args):
    run = subprocess.run([binary, *args], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"loom {' '.join(args)} failed:\n{run.stderr}")


def bits_equal(a, b):
    return a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))


def check_files(onnx_path, st_path, config):
    """The files are standard: onnx's checker and the safetensors library accept them."""
    onnx.checker.check_model(onnx.load(str(onnx_path)), full_check=True)
    ours, meta = loom_step.load(st_path)
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


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/loom")
    print(f"onnxruntime {onnxruntime.__version__}, onnx {onnx.__version__}, numpy {np.__version__}")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            try:
                run_case(binary, Path(tmp), *case)
                passed += 1
            except Exception as e:  # report every case, then fail
                print(f"FAIL {case[1]} on {case[2]}: {type(e).__name__}: {e}")
                failed += 1
        sizes = ", ".join(f"{p.name} {p.stat().st_size:,} B" for p in sorted(Path(tmp).glob("*.*")) if p.suffix != ".npy")
        print(f"files: {sizes}")
    print(f"export: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
