"""Per-call cost of an already-traced tf.function inside graph()/eager(False) vs outside.

The scopes only flip TensorFlow's flag on entry and exit, so a call inside them must cost
what it costs outside (target ratio <= 1.02). Outside and inside are measured interleaved,
in one run, and the ratio of medians is printed.

    python benchmarks/bench_eager.py
"""
import contextlib
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402

CALLS, ROUNDS = 200, 41


@tf.function
def step(x):
    return tf.reduce_sum(tf.tanh(x @ tf.transpose(x)))


def per_call(x) -> float:
    start = time.perf_counter()
    for _ in range(CALLS):
        step(x)
    return (time.perf_counter() - start) / CALLS


def main() -> None:
    x = tf.random.normal([16, 16])
    step(x)  # trace once, outside any scope
    samples = {"outside": [], "graph()": [], "eager(False)": []}
    scopes = {"outside": contextlib.nullcontext, "graph()": tfdebug.graph,
              "eager(False)": lambda: tfdebug.eager(False)}
    for round_ in range(ROUNDS):
        # Alternate the order each round: on a busy machine the position in a round matters.
        names = list(scopes) if round_ % 2 == 0 else list(scopes)[::-1]
        for name in names:
            with scopes[name]():
                samples[name].append(per_call(x))
    base = statistics.median(samples["outside"])
    print(f"per-call time of a traced tf.function, median of {ROUNDS} rounds x {CALLS} calls")
    print(f"  outside any scope : {base * 1e6:8.1f} us")
    for name in ("graph()", "eager(False)"):
        median = statistics.median(samples[name])
        print(f"  inside {name:<11}: {median * 1e6:8.1f} us   ratio {median / base:.3f} (target <= 1.02)")


if __name__ == "__main__":
    main()
