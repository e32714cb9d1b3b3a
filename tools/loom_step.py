"""One step of the Loom transformer in NumPy: the mathematics, executable.

Reads the weights from a `loom export --format safetensors` file (parsed here
with the standard library and NumPy only) and applies the eight layers to a
state from `loom state ... --format npy`. Independent of the Rust code: this is
the definition written out once more, and CI checks it against our dense
reference bit for bit after every step.

    python tools/loom_step.py MODEL.safetensors STATE.npy OUT.npy [--steps K]

Each layer is  A = X + sum over heads of attention(X),  Y = A + W2 ReLU(W1 A + b1) + b2.
Attention is hard argmax (not softmax), Q = K: every source column i whose key
k_i is not all zero scores every target column j by k_i . q_j and sends its
value to the best target, or half to each of the best two when their scores
are less than 1.0 apart; ties between equal scores go to the lower column.
Every weight is a small dyadic rational, so float32 arithmetic is exact and the
order of summation cannot change a bit.
"""

import argparse
import json

import numpy as np

F32 = np.float32


def load(path):
    """The arrays (name -> float32 array) and the metadata (key -> str) of a safetensors file."""
    with open(path, "rb") as f:
        raw = f.read()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    meta = header.pop("__metadata__", {})
    data = raw[8 + size :]
    arrays = {}
    for name, t in header.items():
        assert t["dtype"] == "F32", f"{name}: expected F32, got {t['dtype']}"
        begin, end = t["data_offsets"]
        arrays[name] = np.frombuffer(data[begin:end], dtype="<f4").reshape(t["shape"])
    return arrays, meta


class Model:
    def __init__(self, path):
        self.arrays, self.meta = load(path)
        self.layers = json.loads(self.meta["layers"])
        self.rows = json.loads(self.meta["rows"])

    def step(self, x):
        """One forward pass: one instruction."""
        x = np.asarray(x, dtype=F32)
        for layer in self.layers:
            x = self.layer(layer, x)
        return x

    def layer(self, layer, x):
        w = lambda name: self.arrays[f"{layer['key']}.{name}"]
        a = x.copy()
        for h in layer["heads"]:
            a += attention(x, *(w(f"{h['name']}.{role}") for role in ("query", "key", "value", "output")))
        hidden = np.maximum(w("ffn.in.weight") @ a + w("ffn.in.bias")[:, None], F32(0))
        # Adding b2 last also turns any -0.0 into +0.0, as the reference does.
        return (a + w("ffn.out.weight") @ hidden) + w("ffn.out.bias")[:, None]

    def pc(self, x):
        """The program counter: the `pc[...]` rows of column 0, bipolar, most significant bit first."""
        bits = [x[r, 0] > 0 for r, name in enumerate(self.rows) if name.startswith("pc[")]
        return int("".join("1" if b else "0" for b in bits), 2)


def attention(x, query, key, value, output):
    """One argmax head: returns its d x n contribution."""
    n = x.shape[1]
    k, q = key @ x, query @ x
    scores = k.T @ q  # scores[i, j]: source i, target j
    sources = np.arange(n)
    first = np.argmax(scores, axis=1)  # numpy returns the first (lowest) index among equal maxima
    first_score = scores[sources, first]
    rest = scores.copy()
    rest[sources, first] = -np.inf
    second = np.argmax(rest, axis=1)
    second_score = rest[sources, second]
    tie = first_score - second_score < F32(1)
    live = np.any(k != 0, axis=0)  # a source whose key is all zero moves nothing
    pattern = np.zeros((n, n), dtype=F32)  # pattern[i, j]: share of source i's value that goes to j
    pattern[sources, first] += np.where(live, np.where(tie, F32(0.5), F32(1)), F32(0))
    pattern[sources, second] += np.where(live & tie, F32(0.5), F32(0))
    return output @ ((value @ x) @ pattern)


def main():
    p = argparse.ArgumentParser(description="Apply the Loom transformer to a state, in NumPy.")
    p.add_argument("model", help="a `loom export --format safetensors` file")
    p.add_argument("state", help="a d x n state from `loom state ... --format npy`")
    p.add_argument("out", help="where to save the state after the steps (.npy)")
    p.add_argument("--steps", type=int, default=1, help="forward passes (instructions) to apply; default 1")
    args = p.parse_args()
    model = Model(args.model)
    x = np.load(args.state)
    for _ in range(args.steps):
        x = model.step(x)
    np.save(args.out, x)
    print(f"{args.out}: {args.steps} step(s), pc = {model.pc(x)}")


if __name__ == "__main__":
    main()
