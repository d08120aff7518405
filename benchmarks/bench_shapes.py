"""Per-call cost, after a shape_probe() scope exited, of a function first traced inside it.

Two identical tf.functions: `probed` is first traced inside a shape_probe() scope (with a
probe() point and Keras layers recorded), `plain` never sees tfdebug. After the scope exits,
both are called alternately; the ratio of their median per-call times is printed
(target <= 1.02: the probe ops must not outlive the scope).

    python benchmarks/bench_shapes.py [--calls N] [--rounds R]
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402


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
    parser.add_argument("--rounds", type=int, default=15)
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

    probed_times, plain_times = [], []
    for round_ in range(args.rounds):
        # ABBA order: the position in a round must favour neither function.
        pairs = ((probed, probed_times), (plain, plain_times))
        for fn, times in (pairs if round_ % 2 == 0 else pairs[::-1]):
            times.append(per_call(fn, x, args.calls))
    a, b = statistics.median(probed_times), statistics.median(plain_times)
    print(f"per call: probed-then-exited {a * 1e6:.1f} us, never probed {b * 1e6:.1f} us")
    print(f"ratio {a / b:.3f} (target <= 1.02)")


if __name__ == "__main__":
    main()
