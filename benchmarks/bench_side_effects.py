"""Per-call cost left behind by print_to_tfprint() and added by side_effect_guard().

1. A function first traced inside ``print_to_tfprint()`` (its trace there had print ops)
   vs. a twin never traced there, both called after the scope exited (target <= 1.02).
2. An already-traced function called inside ``side_effect_guard()`` vs. outside
   (target <= 1.02): the guard works at trace time only.
3. An already-traced tiny function that never prints, called inside ``print_to_tfprint()``
   vs. outside (target <= 1.02): it keeps its trace, only functions that print retrace.
   Measured in wall time, then in the calling thread's CPU time (the least of 3 blocks of
   ``4 * --calls`` calls a sample, ``--cpu-rounds`` rounds), which a loaded machine does not
   inflate.
4. The same for a train step of a 10-layer Keras model (forward, gradients, optimizer
   update; already traced, never prints) inside ``print_to_tfprint()`` vs. outside
   (target <= 1.02).
5. The trace of that train step (a new tf.function each sample, so each call traces) inside
   ``side_effect_guard()`` vs. outside: what the guard costs once per trace (its search of
   the source and its record of the user functions the trace runs). No target: a trace
   costs what it costs; compare the figure side by side between versions.

Each comparison interleaved in one run: the median ratio with its 95 % interval, and the
A/A line (the baseline against itself) for the noise.

    python benchmarks/bench_side_effects.py [--calls 300] [--rounds 21] [--cpu-rounds 41] [--trace-only]
"""
import argparse
import os
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402
from _harness import ROUNDS, compare, show  # noqa: E402


def make_step():
    @tf.function
    def step(x):
        print("step", tf.shape(x))  # a Python print: a tf.print only inside print_to_tfprint()
        return tf.reduce_sum(tf.tanh(x @ tf.transpose(x)))
    return step


def per_call(fn, x, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn(x)
    return (time.perf_counter() - start) / calls


def per_call_cpu(fn, x, calls: int, blocks: int) -> float:
    """The calling thread's CPU seconds per call, the least over ``blocks`` blocks."""
    best = float("inf")
    for _ in range(blocks):
        start = time.thread_time()
        for _ in range(calls):
            fn(x)
        best = min(best, time.thread_time() - start)
    return best / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--trace-only", action="store_true", help="only comparison 5")
    parser.add_argument("--cpu-rounds", type=int, default=2 * ROUNDS - 1,
                        help="rounds of the tiny function's CPU-time comparison")
    args = parser.parse_args()
    if args.trace_only:
        return trace_cost(args.rounds)
    x = tf.random.normal([16, 16])
    traced_in_scope, never_in_scope = make_step(), make_step()
    with tfdebug.print_to_tfprint():
        traced_in_scope(x)               # traced with a PrintV2 op, in the scope's cache
    never_in_scope(x)
    traced_in_scope(x)                   # after the scope: traced again, without prints
    guarded = make_step()
    guarded(x)

    def in_guard():
        with tfdebug.side_effect_guard(action="log"):
            return per_call(guarded, x, args.calls)

    result = compare({"never in scope": lambda: per_call(never_in_scope, x, args.calls),
                      "after print_to_tfprint": lambda: per_call(traced_in_scope, x, args.calls)},
                     rounds=args.rounds)
    show(f"1. per call after print_to_tfprint() exited ({args.calls} calls a sample)", result,
         target=1.02)
    result = compare({"outside guard": lambda: per_call(guarded, x, args.calls),
                      "inside guard": in_guard}, rounds=args.rounds)
    show(f"2. per call inside side_effect_guard() ({args.calls} calls a sample)", result,
         target=1.02)

    @tf.function
    def tiny(v):
        return v + 1.0

    scalar = tf.constant(1.0)
    tiny(scalar)

    def in_print_scope():
        with tfdebug.print_to_tfprint():
            return per_call(tiny, scalar, args.calls)

    result = compare({"outside": lambda: per_call(tiny, scalar, args.calls),
                      "inside print_to_tfprint": in_print_scope}, rounds=args.rounds)
    show(f"3. per call of a tiny function without print ({args.calls} calls a sample)", result,
         target=1.02)
    # The same in the calling thread's CPU time, the least of a few blocks a sample: the
    # scope's cost is Python work in that thread, and neither waiting for a core nor a block
    # another process interrupted (caches evicted) counts, so the A/A line can judge 2 %.
    cpu_calls, blocks = 4 * args.calls, 3

    def cpu_in_print_scope():
        with tfdebug.print_to_tfprint():
            return per_call_cpu(tiny, scalar, cpu_calls, blocks)

    result = compare({"outside": lambda: per_call_cpu(tiny, scalar, cpu_calls, blocks),
                      "inside print_to_tfprint": cpu_in_print_scope}, rounds=args.cpu_rounds)
    show(f"3. the same in CPU time ({cpu_calls} calls a block, the least of {blocks} blocks "
         "a sample)", result, target=1.02)

    train_step, batch = make_train_step()
    train_step(*batch)
    steps = max(args.calls // 10, 10)

    def steps_in_print_scope():
        with tfdebug.print_to_tfprint():
            return per_call(lambda b: train_step(*b), batch, steps)

    result = compare({"outside": lambda: per_call(lambda b: train_step(*b), batch, steps),
                      "inside print_to_tfprint": steps_in_print_scope}, rounds=args.rounds)
    show(f"4. per call of a 10-layer train step without print ({steps} calls a sample)", result,
         target=1.02)


def trace_cost(rounds: int) -> None:
    """Comparison 5: one trace of the 10-layer train step, inside the guard vs. outside."""
    make, batch = make_train_step(fresh=True)
    make()(*batch)  # build the model and the optimizer's slots once

    def trace_outside():
        step = make()
        start = time.perf_counter()
        step(*batch)
        return time.perf_counter() - start

    def trace_inside():
        with tfdebug.side_effect_guard(action="log"):
            return trace_outside()

    result = compare({"outside guard": trace_outside, "inside guard": trace_inside},
                     rounds=rounds)
    show("5. one trace of a 10-layer train step inside side_effect_guard()", result)


def make_train_step(fresh=False):
    """A tf.function train step of a 10-layer MLP (Dense 64, relu) and a batch for it."""
    import keras

    hidden = [keras.layers.Dense(64, activation="relu") for _ in range(10)]
    model = keras.Sequential([keras.Input((32,)), *hidden, keras.layers.Dense(1)])
    optimizer = keras.optimizers.SGD(0.01)

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    batch = (tf.random.normal([64, 32]), tf.random.normal([64, 1]))
    if fresh:  # a new tf.function per call of make(): its first call traces
        return (lambda: tf.function(train_step)), batch
    return tf.function(train_step), batch


if __name__ == "__main__":
    main()
