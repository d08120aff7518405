"""Per-call cost, after a shape_probe() scope exited, of a function first traced inside it.

Two identical tf.functions: `probed` is first traced inside a shape_probe() scope (with a
probe() point and Keras layers recorded), `plain` never sees tfdebug. After the scope exits,
both are called, interleaved; printed: the median ratio with its 95 % interval and the A/A
line (target <= 1.02: the probe ops must not outlive the scope).

    python benchmarks/bench_shapes.py [--calls N] [--rounds R]
"""
import argparse
import os
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402
from _harness import ROUNDS, compare, show  # noqa: E402


def make(model):
    @tf.function
    def step(x):
        h = tfdebug.probe(x * 2.0, "scaled")
        return model(h)
    return step


def per_call(fn, x, calls):
    start = time.perf_counter()
    for _ in range(calls):
        fn(x)
    return (time.perf_counter() - start) / calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()

    model = keras.Sequential([keras.Input((16,)), keras.layers.Dense(16), keras.layers.Dense(4)])
    probed, plain = make(model), make(model)
    x = tf.ones((8, 16))
    with tfdebug.shape_probe() as shapes:
        probed(x)
    assert shapes.records, "the scope recorded nothing"
    plain(x)
    for fn in (probed, plain):   # warm up: the first call after the scope retraces `probed`
        per_call(fn, x, 20)
    result = compare({"never probed": lambda: per_call(plain, x, args.calls),
                      "probed, scope exited": lambda: per_call(probed, x, args.calls)},
                     rounds=args.rounds)
    show(f"per call after shape_probe() exited ({args.calls} calls a sample)", result,
         target=1.02)


if __name__ == "__main__":
    main()
