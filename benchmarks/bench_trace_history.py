"""What trace_logger() costs per trace, against history: trace 1 vs trace 5,000.

One tf.function retraces on every call (a new input length each time: a retrace storm).
The logger's own work per trace (its subscriber: classify the trace, compare it with the
function's earlier traces, keep it) is timed around each trace, in one run. It must not
grow with the number of earlier traces. Printed side by side: the median and its 95 %
interval of the logger's time over the first traces and over the last ones, their ratios
(trace by trace, with an interval), an A/A line (the next window of early traces against the
first) for the noise, and the whole trace time (TensorFlow's own work included). A control line: a fresh
function retraced a few more times than the logger's comparison window (RECENT_SIGNATURES)
plus one window, right after the storm, in the same process (the same heap, the same machine
load, a short history): if the logger's work depended on history, the storm's last traces
would cost more than the control's last ones.

    python benchmarks/bench_trace_history.py [--traces 5000] [--window 100]
"""
import argparse
import os
import time
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402
from tfdebug import trace_log  # noqa: E402
from _harness import fmt_ratio, fmt_time, median_interval  # noqa: E402


def _timed(fn, sink):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            sink[-1] += time.perf_counter() - start
    return wrapper


def _function():
    @tf.function
    def encode(tokens):
        return tf.reduce_sum(tokens * 2)
    return encode


def storm(traces: int, control: int):
    """(logger seconds per trace, whole trace seconds per trace) of the storm, in trace
    order, then the same for ``control`` traces of a fresh function."""
    own, whole = [], []
    log = tfdebug.trace_logger()
    log._on_trace = _timed(log._on_trace, own)   # the subscriber TensorFlow's hook calls
    log._finish = _timed(log._finish, own)        # and its work after the trace
    storm_fn, fresh_fn = _function(), _function()
    inputs = [tf.zeros([n + 1]) for n in range(traces)]
    with warnings.catch_warnings(), log:
        warnings.simplefilter("ignore")
        tf.get_logger().setLevel("ERROR")
        for fn, count in ((storm_fn, traces), (fresh_fn, control)):
            for x in inputs[:count]:
                own.append(0.0)
                start = time.perf_counter()
                fn(x)
                whole.append(time.perf_counter() - start)
    assert log.count(storm_fn) == traces, log.count(storm_fn)
    return own, whole


def _ratio(values, base) -> str:
    return fmt_ratio(median_interval([v / b for v, b in zip(values, base)]))


def _median(values) -> str:
    return fmt_time(median_interval(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=5000)
    parser.add_argument("--window", type=int, default=100)
    args = parser.parse_args()
    w = args.window
    control = trace_log.RECENT_SIGNATURES + w + 1
    own, whole = storm(args.traces, control)
    first, last = slice(1, 1 + w), slice(args.traces - w, args.traces)  # retraces at both ends
    fresh = slice(args.traces + control - w, args.traces + control)
    early = slice(1 + w, 1 + 2 * w)  # A/A: early traces against early traces
    print(f"{args.traces} traces of one function; median [95 % interval] over {w} traces")
    print(f"{'':28}{'traces 2-' + str(w + 1):>30}{f'traces {args.traces - w + 1}-{args.traces}':>30}")
    print(f"{'logger work per trace':28}{_median(own[first]):>30}{_median(own[last]):>30}")
    print(f"{'whole trace (TF + logger)':28}{_median(whole[first]):>30}{_median(whole[last]):>30}")
    print(f"control, after the storm: traces {control - w + 1}-{control} of a fresh function: "
          f"logger {_median(own[fresh]).strip()}, whole trace {_median(whole[fresh]).strip()}")
    print(f"trace 1: logger {own[0] * 1000:.3f} ms; trace {args.traces}: logger "
          f"{own[args.traces - 1] * 1000:.3f} ms")
    print(f"logger work, storm's last traces / control's (same heap, short history): "
          f"{_ratio(own[last], own[fresh])} (independent of history: ~1.0)")
    print(f"logger work, storm's last traces / its first: {_ratio(own[last], own[first])} "
          f"(includes the process growing: TensorFlow keeps every traced graph)")
    print(f"A/A, traces {w + 2}-{2 * w + 1} / first: {_ratio(own[early], own[first])} (noise)")

if __name__ == "__main__":
    main()
