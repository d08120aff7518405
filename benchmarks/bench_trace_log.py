"""What trace_logger() costs: nothing per call, little per trace.

(a) Per-call time of an already-traced tf.function inside ``trace_logger()`` vs outside:
    the logger hooks tracing only, so the ratio must be ~1 (target <= 1.02).
(b) Tracing time of a 20-layer Keras training step with vs without the logger: the logger
    describes the signature, finds the call site and snapshots captured values once per
    trace (target <= 1.10).

Both sides are measured interleaved, in one run: the median ratio with its 95 % interval,
and the A/A line (the baseline against itself) for the noise.

    python benchmarks/bench_trace_log.py [--calls 300] [--rounds 21] [--traces 21]
"""
import argparse
import os
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
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


def bench_calls(calls: int, rounds: int):
    x = tf.random.normal([16, 16])
    step(x)  # traced once, before any logger

    def inside():
        with tfdebug.trace_logger():
            return per_call(x, calls)

    return compare({"outside trace_logger()": lambda: per_call(x, calls),
                    "inside trace_logger()": inside}, rounds=rounds)


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


def bench_tracing(traces: int):
    train_step = build_training_step()
    specs = (tf.TensorSpec([32, 64], tf.float32), tf.TensorSpec([32], tf.int32))
    trace_time(train_step, specs)  # warm up Keras and TF's own caches

    def logged():
        with tfdebug.trace_logger(warn_after=None):
            return trace_time(train_step, specs)

    return compare({"without the logger": lambda: trace_time(train_step, specs),
                    "with the logger": logged}, rounds=traces)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--traces", type=int, default=ROUNDS)
    args = parser.parse_args()
    show(f"(a) per call of a traced tf.function ({args.calls} calls a sample)",
         bench_calls(args.calls, args.rounds), target=1.02)
    show("(b) tracing a 20-layer Keras training step (one trace a sample)",
         bench_tracing(args.traces), target=1.10, unit="ms")


if __name__ == "__main__":
    main()
