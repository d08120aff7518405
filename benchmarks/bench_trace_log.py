"""What trace_logger() costs: nothing per call, little per trace.

(a) Per-call time of an already-traced tf.function inside ``trace_logger()`` vs outside:
    the logger hooks tracing only, so the ratio must be ~1 (target <= 1.02).
(b) Tracing time of a 20-layer Keras training step with vs without the logger: the logger
    describes the signature, finds the call site and snapshots captured values once per
    trace (target <= 1.10).

Both sides are measured interleaved, in one run; the ratios of medians are printed.

    python benchmarks/bench_trace_log.py [--calls 300] [--rounds 15] [--traces 7]
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402


@tf.function
def step(x):
    return tf.reduce_sum(tf.tanh(x @ tf.transpose(x)))


def per_call(x, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        step(x)
    return (time.perf_counter() - start) / calls


def bench_calls(calls: int, rounds: int) -> tuple[float, float]:
    x = tf.random.normal([16, 16])
    step(x)  # traced once, before any logger
    outside, inside = [], []
    for i in range(rounds):
        # ABBA order: a machine that speeds up or slows down during the run favours neither
        for inside_first in ((False, True) if i % 2 else (True, False)):
            if inside_first:
                with tfdebug.trace_logger():
                    inside.append(per_call(x, calls))
            else:
                outside.append(per_call(x, calls))
    return statistics.median(outside), statistics.median(inside)


def build_training_step():
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((64,))]
                             + [keras.layers.Dense(64, activation="relu") for _ in range(19)]
                             + [keras.layers.Dense(10)])
    optimizer = keras.optimizers.SGD(0.01)
    optimizer.build(model.trainable_variables)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return train_step


def trace_time(train_step, specs) -> float:
    fn = tf.function(train_step)  # a fresh tf.function: get_concrete_function traces it
    start = time.perf_counter()
    fn.get_concrete_function(*specs)
    return time.perf_counter() - start


def bench_tracing(traces: int) -> tuple[float, float]:
    train_step = build_training_step()
    specs = (tf.TensorSpec([32, 64], tf.float32), tf.TensorSpec([32], tf.int32))
    trace_time(train_step, specs)  # warm up Keras and TF's own caches
    without, with_logger = [], []
    for i in range(traces):
        for logged in ((False, True) if i % 2 else (True, False)):
            if logged:
                with tfdebug.trace_logger(warn_after=None):
                    with_logger.append(trace_time(train_step, specs))
            else:
                without.append(trace_time(train_step, specs))
    return statistics.median(without), statistics.median(with_logger)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--traces", type=int, default=7)
    args = parser.parse_args()

    outside, inside = bench_calls(args.calls, args.rounds)
    print(f"(a) per-call time of a traced tf.function, median of {args.rounds} rounds x "
          f"{args.calls} calls")
    print(f"    outside trace_logger(): {outside * 1e6:8.1f} us")
    print(f"    inside trace_logger():  {inside * 1e6:8.1f} us   ratio {inside / outside:.3f} "
          f"(target <= 1.02)")
    without, with_logger = bench_tracing(args.traces)
    print(f"(b) tracing a 20-layer Keras training step, median of {args.traces} traces")
    print(f"    without the logger: {without * 1e3:8.1f} ms")
    print(f"    with the logger:    {with_logger * 1e3:8.1f} ms   ratio {with_logger / without:.3f} "
          f"(target <= 1.10)")


if __name__ == "__main__":
    main()
