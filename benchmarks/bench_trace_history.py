"""What trace_logger() costs per trace, against history: trace 1 vs trace 5,000.

One tf.function retraces on every call (a new input length each time: a retrace storm).
The logger's own work per trace (its subscriber: classify the trace, compare it with the
function's earlier traces, keep it) is timed around each trace, in one run. It must not
grow with the number of earlier traces. Printed side by side: the median and the 10-90 %
spread of the logger's time over the first traces and over the last ones, their ratio, and
the whole trace time (TensorFlow's own work included) at both ends. A control line: a fresh
function retraced a few more times than the logger's comparison window (RECENT_SIGNATURES)
plus one window, right after the storm, in the same process (the same heap, the same machine
load, a short history): if the logger's work depended on history, the storm's last traces
would cost more than the control's last ones.

    python benchmarks/bench_trace_history.py [--traces 5000] [--window 100]
"""
import argparse
import os
import statistics
import time
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402
from tfdebug import trace_log  # noqa: E402


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


def _spread(values) -> str:
    deciles = statistics.quantiles(values, n=10)
    return (f"{statistics.median(values) * 1000:7.3f} ms "
            f"[{deciles[0] * 1000:.3f}-{deciles[-1] * 1000:.3f}]")


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
    print(f"{args.traces} traces of one function; median [p10-p90] over {w} traces")
    print(f"{'':28}{'traces 2-' + str(w + 1):>28}{f'traces {args.traces - w + 1}-{args.traces}':>30}")
    print(f"{'logger work per trace':28}{_spread(own[first]):>28}{_spread(own[last]):>30}")
    print(f"{'whole trace (TF + logger)':28}{_spread(whole[first]):>28}{_spread(whole[last]):>30}")
    print(f"control, after the storm: traces {control - w + 1}-{control} of a fresh function: logger "
          f"{_spread(own[fresh]).strip()}, whole trace {_spread(whole[fresh]).strip()}")
    print(f"trace 1: logger {own[0] * 1000:.3f} ms; trace {args.traces}: logger "
          f"{own[args.traces - 1] * 1000:.3f} ms")
    ratio = statistics.median(own[last]) / statistics.median(own[fresh])
    print(f"logger work, storm's last traces / control's (same heap, short history): "
          f"{ratio:.2f}x (independent of history: ~1.0)")
    ratio = statistics.median(own[last]) / statistics.median(own[first])
    print(f"logger work, storm's last traces / its first: {ratio:.2f}x (includes the process "
          f"growing: TensorFlow keeps every traced graph)")


if __name__ == "__main__":
    main()
