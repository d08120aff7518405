"""Per-call cost left behind by print_to_tfprint() and added by side_effect_guard().

1. A function first traced inside ``print_to_tfprint()`` (its trace there had print ops)
   vs. a twin never traced there, both called after the scope exited (target <= 1.02).
2. An already-traced function called inside ``side_effect_guard()`` vs. outside
   (target <= 1.02): the guard works at trace time only.

Samples are interleaved in one run; the ratio of medians is printed.

    python benchmarks/bench_side_effects.py
"""
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402

CALLS, ROUNDS = 300, 20


def make_step():
    @tf.function
    def step(x):
        print("step", tf.shape(x))  # a Python print: a tf.print only inside print_to_tfprint()
        return tf.reduce_sum(tf.tanh(x @ tf.transpose(x)))
    return step


def per_call(fn, x) -> float:
    start = time.perf_counter()
    for _ in range(CALLS):
        fn(x)
    return (time.perf_counter() - start) / CALLS


def ratio(a, b) -> float:
    return statistics.median(a) / statistics.median(b)


def main() -> None:
    x = tf.random.normal([16, 16])
    traced_in_scope, never_in_scope = make_step(), make_step()
    with tfdebug.print_to_tfprint():
        traced_in_scope(x)               # traced with a PrintV2 op, in the scope's cache
    never_in_scope(x)
    traced_in_scope(x)                   # after the scope: traced again, without prints
    guarded = make_step()
    guarded(x)

    samples = {"after print_to_tfprint": [], "never in scope": [],
               "inside guard": [], "outside guard": []}
    def measure_guarded():
        with tfdebug.side_effect_guard(action="log"):
            samples["inside guard"].append(per_call(guarded, x))

    measures = [lambda: samples["after print_to_tfprint"].append(per_call(traced_in_scope, x)),
                lambda: samples["never in scope"].append(per_call(never_in_scope, x)),
                lambda: samples["outside guard"].append(per_call(guarded, x)),
                measure_guarded]
    for round_ in range(ROUNDS):
        # Alternate the order each round: on a busy machine the position in a round matters.
        for measure in (measures if round_ % 2 == 0 else measures[::-1]):
            measure()

    for name, values in samples.items():
        print(f"{name:>24}: {statistics.median(values) * 1e6:8.1f} us/call")
    print(f"print_to_tfprint() after exit / never traced there: "
          f"{ratio(samples['after print_to_tfprint'], samples['never in scope']):.3f} "
          f"(target <= 1.02)")
    print(f"inside side_effect_guard() / outside:                "
          f"{ratio(samples['inside guard'], samples['outside guard']):.3f} (target <= 1.02)")


if __name__ == "__main__":
    main()
