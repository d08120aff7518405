"""What trace_logger() costs per trace, against history: trace 1 vs trace 5,000.

One tf.function retraces on every call (a new input length each time: a retrace storm).
The logger's own work per trace (its subscriber: classify the trace, compare it with the
function's earlier traces, keep it) is timed around each trace, in one run. It must not
grow with the number of earlier traces. Printed side by side: the median and its 95 %
interval of the logger's time over the first traces and over the last ones, their ratio
(trace by trace, with its interval), the A/A line (the next window of early traces against
the first) for the noise, and the whole trace time (TensorFlow's own work included).

    python benchmarks/bench_trace_history.py [--traces 5000] [--window 100]
"""
import argparse
import os
import time
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402
from _harness import fmt_ratio, fmt_time, median_interval  # noqa: E402


def _timed(fn, sink):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            sink[-1] += time.perf_counter() - start
    return wrapper


def storm(traces: int):
    """(logger seconds per trace, whole trace seconds per trace), in trace order."""
    @tf.function
    def encode(tokens):
        return tf.reduce_sum(tokens * 2)

    own, whole = [], []
    log = tfdebug.trace_logger()
    log._on_trace = _timed(log._on_trace, own)   # the subscriber TensorFlow's hook calls
    log._finish = _timed(log._finish, own)        # and its work after the trace
    inputs = [tf.zeros([n + 1]) for n in range(traces)]
    with warnings.catch_warnings(), log:
        warnings.simplefilter("ignore")
        tf.get_logger().setLevel("ERROR")
        for x in inputs:
            own.append(0.0)
            start = time.perf_counter()
            encode(x)
            whole.append(time.perf_counter() - start)
    assert log.count(encode) == traces, log.count(encode)
    return own, whole


def _ratio(values, base) -> str:
    return fmt_ratio(median_interval([v / b for v, b in zip(values, base)]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=5000)
    parser.add_argument("--window", type=int, default=100)
    args = parser.parse_args()
    own, whole = storm(args.traces)
    w = args.window
    first, last = slice(1, 1 + w), slice(args.traces - w, args.traces)  # retraces at both ends
    early = slice(1 + w, 1 + 2 * w)  # A/A: early traces against early traces
    print(f"{args.traces} traces of one function; median [95 % interval] over {w} traces")
    print(f"{'':28}{'traces 2-' + str(w + 1):>30}{f'traces {args.traces - w + 1}-{args.traces}':>30}")
    print(f"{'logger work per trace':28}{fmt_time(median_interval(own[first])):>30}"
          f"{fmt_time(median_interval(own[last])):>30}")
    print(f"{'whole trace (TF + logger)':28}{fmt_time(median_interval(whole[first])):>30}"
          f"{fmt_time(median_interval(whole[last])):>30}")
    print(f"trace 1: logger {own[0] * 1000:.3f} ms; trace {args.traces}: logger "
          f"{own[-1] * 1000:.3f} ms")
    print(f"logger work, last / first: {_ratio(own[last], own[first])} (constant per trace: ~1.0)")
    print(f"A/A, traces {w + 2}-{2 * w + 1} / first: {_ratio(own[early], own[first])} (noise)")


if __name__ == "__main__":
    main()
