"""What trace_logger() costs per trace, against history: retrace 5,000 vs retrace 1.

One tf.function retraces on every call (a new input length each time: a retrace storm) while
the logger keeps every trace. The logger's own work per trace (its subscriber: classify the
trace, compare it with the function's earlier traces, keep it) is timed around each trace in
the tracing thread's CPU time. It must not grow with the number of earlier traces.

The storm's function is retraced ``--traces`` minus ``--rounds`` times first (not timed).
Then, in ``--rounds`` interleaved rounds (the harness's rotating order), the storm's last
retraces (up to ``--traces``) are measured beside a control, a function retraced just past
the logger's comparison window (``RECENT_SIGNATURES``, measured twice a round for the A/A
line), and beside the first retraces of a fresh function; each round's ratio is a side's
trace over the control's. History independence: the storm's ratio is the A/A's.

TensorFlow keeps each traced graph in the function's cache and looks a call up through all
of them, so a real 5,000-trace storm spends most of its time in TensorFlow's own growing
look-up; here each trace is dropped from TensorFlow's cache once traced (the logger's history
is untouched), so TensorFlow's trace costs about the same at both ends and the storm takes
about a minute of CPU (15 minutes of wall time on two cores shared by a load of 19).

    python benchmarks/bench_trace_history.py [--traces 5000] [--rounds 21]
"""
import argparse
import os
import time
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402
from tfdebug import _tf, trace_log, tracing  # noqa: E402
from _harness import ROUNDS, compare, fmt_time, median_interval, show  # noqa: E402


def _timed(fn, sink):
    def wrapper(*args, **kwargs):
        start = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            sink[-1] += time.thread_time() - start
    return wrapper


def _function():
    @tf.function
    def encode(tokens):
        return tf.reduce_sum(tokens * 2)
    return encode


class Storm:
    """Retraces of tf.functions inside one trace_logger(): ``retrace(fn)`` traces ``fn`` at
    a new input length and returns the logger's CPU seconds for that trace."""

    def __init__(self, log):
        self.own = []
        log._on_trace = _timed(log._on_trace, self.own)  # the subscriber TensorFlow's hook calls
        log._finish = _timed(log._finish, self.own)      # and its work after the trace
        self.lengths = {}
        self.traced = []
        self.whole = {}  # fn -> whole trace CPU seconds (TensorFlow + logger), in order

    def keep(self, trace):
        """A subscriber (entered before the logger, so it exits after it): the trace made."""
        traced = self.traced

        class _Kept:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                traced.append(trace)
                return False
        return _Kept()

    def retrace(self, fn) -> float:
        n = self.lengths[fn] = self.lengths.get(fn, 0) + 1
        x = tf.zeros([n])
        self.own.append(0.0)
        start = time.thread_time()
        fn(x)
        self.whole.setdefault(fn, []).append(time.thread_time() - start)
        for trace in self.traced:  # TensorFlow has cached it now: drop it there
            _tf.evict_concrete(getattr(trace.tracing_options, "function_cache", None),
                               trace.concrete)
        self.traced.clear()
        return self.own[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    log = tfdebug.trace_logger(warn_after=None)
    storm = Storm(log)
    storm_fn, fresh_fn, control_fn = _function(), _function(), _function()
    started = time.perf_counter()
    with warnings.catch_warnings(), tracing.subscribed(storm.keep), log:
        warnings.simplefilter("ignore")
        tf.get_logger().setLevel("ERROR")
        first = storm.retrace(storm_fn)
        early = [storm.retrace(storm_fn) for _ in range(args.rounds)]  # retraces 1..rounds
        for _ in range(args.traces - 2 * args.rounds - 1):
            storm.retrace(storm_fn)
        built = time.perf_counter() - started
        storm.retrace(fresh_fn)  # the fresh function's first trace: from here on, retraces
        for _ in range(trace_log.RECENT_SIGNATURES + 1):  # the control: past the window
            storm.retrace(control_fn)
        result = compare({"control: retraces 65- of a function": lambda: storm.retrace(control_fn),
                          "the storm's last traces": lambda: storm.retrace(storm_fn),
                          "a fresh function's retraces 1-": lambda: storm.retrace(fresh_fn)},
                         rounds=args.rounds, warmup=0)
    assert log.count(storm_fn) == args.traces, log.count(storm_fn)
    print(f"{args.traces} traces of one function ({built:.0f} s before the last {args.rounds}); "
          f"the logger's CPU time per trace")
    show(f"the storm's traces {args.traces - args.rounds + 1}-{args.traces} against a function "
         f"whose history just passed the logger's window ({trace_log.RECENT_SIGNATURES} "
         "signatures), and a fresh function's first retraces", result, target=1.0, unit="ms")
    print(f"  the storm's own retraces 1-{args.rounds}, built before: {fmt_time(median_interval(early))}; "
          f"its first trace: {first * 1e3:.3f} ms")
    whole = storm.whole[storm_fn]
    print(f"  whole trace (TensorFlow + logger), CPU: the storm's retraces 1-{args.rounds} "
          f"{fmt_time(median_interval(whole[1:1 + args.rounds]))}, its last {args.rounds} "
          f"{fmt_time(median_interval(whole[-args.rounds:]))}")


if __name__ == "__main__":
    main()
