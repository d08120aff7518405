"""Per-call cost of an already-traced tf.function inside graph()/eager(False) vs outside.

The scopes only flip TensorFlow's flag on entry and exit, so a call inside them must cost
what it costs outside (target ratio <= 1.02). All sides interleaved, in one run: the median
ratio with its 95 % interval, and the A/A line (outside against itself) for the noise.

    python benchmarks/bench_eager.py [--calls 200] [--rounds 21]
"""
import argparse
import os
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402
from _harness import ROUNDS, compare, show  # noqa: E402


@tf.function
def step(x):
    return tf.reduce_sum(tf.tanh(x @ tf.transpose(x)))


def per_call(x, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        step(x)
    return (time.perf_counter() - start) / calls


def inside(scope, x, calls: int):
    def measure():
        with scope():
            return per_call(x, calls)
    return measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    x = tf.random.normal([16, 16])
    step(x)  # trace once, outside any scope
    result = compare({"outside": lambda: per_call(x, args.calls),
                      "graph()": inside(tfdebug.graph, x, args.calls),
                      "eager(False)": inside(lambda: tfdebug.eager(False), x, args.calls)},
                     rounds=args.rounds)
    show(f"per call of a traced tf.function ({args.calls} calls a sample)", result, target=1.02)


if __name__ == "__main__":
    main()
