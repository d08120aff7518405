"""Trace time with trace_logger() + side_effect_guard() against the size of the module.

Modules of 1, 100 and 1,000 small functions (5 lines each: a 1,000-function module has
5,000 lines) are written and imported; each sample is the first trace of a function never
traced before (a fresh tf.function, get_concrete_function), without any scope and inside
both scopes, interleaved. Printed per module size: the median ratio with its 95 % interval
and the A/A line. The checks' work must follow the traced function, not its module
(target <= 1.10 at every size). ``--cpu`` times the tracing thread's CPU time instead of
wall time: on a loaded machine wall time mostly measures waiting for a core.

Every function's code is its own (its name and constant differ from every other's).
AutoGraph keeps its conversions by code object, and code objects compare equal across files
when their source and line are the same: functions copied from module to module would be
converted once and found in AutoGraph's cache afterwards, a first trace about 7x cheaper
than a real one (3.4 ms against 23 ms for this body). That cheaper trace is what a retrace
or a second tf.function of the same Python function costs; it is printed as a third figure
per size ("code converted before"), since the checks' share is largest there.

The first figure per size enters the scopes afresh for each sample; the second enters them
once for ``--batch`` first traces and times them (per trace), as a program enters its scopes
once and traces many functions inside.

``--collect`` runs a full garbage collection before each sample, on both sides. Without it,
the collections that TensorFlow's own garbage (a traced graph is freed by the collector,
~0.4-0.7 ms a collection) makes every few samples land mostly in the checked traces: their
scopes, entered afresh for each sample just before the clock starts, add objects to the
collector's count, so its threshold is crossed inside the timed trace rather than in a later
sample. A program enters its scopes once; with ``--collect`` a collection rarely falls in a
timed trace on either side, and the ratio is about the checks' own work (their share of
collections, in proportion to the objects they allocate, is then not counted).

    python benchmarks/bench_trace_module.py [--rounds 21] [--sizes 1,100,1000] [--cpu] [--collect]
"""
import argparse
import contextlib
import gc
import importlib.util
import os
import shutil
import sys
import tempfile
import time
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402
from _harness import ROUNDS, compare, show  # noqa: E402

BATCH = 5  # first traces per entry of the scopes, in the per-batch figure

FUNCTION = '''
def f_{tag}_{i}(x):
    y = x * {i}.0 + tf.ones_like(x)
    y = tf.reduce_sum(tf.tanh(y)) + {i}.0
    return y
'''


def modules(folder: str, size: int, needed: int, distinct: bool = True, suffix: str = ""):
    """Enough functions for ``needed`` first traces, from modules of ``size`` functions;
    ``distinct=False`` repeats the same ``size`` functions in every module (equal code)."""
    functions = []
    tag = f"{size}{'' if distinct else 'c'}"  # no function equals one of another call's
    for m in range(-(-needed // size)):
        name = f"bench_module_{size}_{m}{'' if distinct else '_copy'}{suffix}"
        numbers = range(m * size, (m + 1) * size) if distinct else range(size)
        path = os.path.join(folder, name + ".py")
        with open(path, "w") as fh:
            fh.write("import tensorflow as tf\n" + "".join(FUNCTION.format(tag=tag, i=i) for i in numbers))
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        functions += [getattr(module, f"f_{tag}_{i}") for i in numbers]
    return iter(functions[:needed])


def converted_before(folder: str, size: int, needed: int):
    """Functions whose code AutoGraph has converted already: each has a twin of equal code in
    another module, traced once here (untimed)."""
    spec = tf.TensorSpec([8], tf.float32)
    for twin in modules(folder, size, needed, distinct=False, suffix="_twin"):
        tf.function(twin).get_concrete_function(spec)
    return modules(folder, size, needed, distinct=False)


def first_trace(functions, scopes, clock=time.perf_counter, collect=False) -> float:
    if collect:
        gc.collect()
    fn = tf.function(next(functions))
    spec = tf.TensorSpec([8], tf.float32)
    with contextlib.ExitStack() as stack:
        for scope in scopes():
            stack.enter_context(scope)
        start = clock()
        fn.get_concrete_function(spec)
        return clock() - start


def first_traces(functions, scopes, clock=time.perf_counter, collect=False, batch=BATCH) -> float:
    """Per trace: ``batch`` first traces made in one entry of the scopes, as a program enters
    them once and traces many functions inside (entered before the clock starts)."""
    if collect:
        gc.collect()
    fns = [tf.function(next(functions)) for _ in range(batch)]
    spec = tf.TensorSpec([8], tf.float32)
    with contextlib.ExitStack() as stack:
        for scope in scopes():
            stack.enter_context(scope)
        start = clock()
        for fn in fns:
            fn.get_concrete_function(spec)
        return (clock() - start) / batch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--sizes", default="1,100,1000")
    parser.add_argument("--cpu", action="store_true", help="the tracing thread's CPU time")
    parser.add_argument("--batch", type=int, default=BATCH,
                        help="first traces per entry of the scopes, in the second figure")
    parser.add_argument("--collect", action="store_true",
                        help="a full garbage collection before each sample, both sides")
    args = parser.parse_args()
    clock = time.thread_time if args.cpu else time.perf_counter
    folder = tempfile.mkdtemp(prefix="tfdebug-bench-module-")
    warnings.simplefilter("ignore")
    tf.get_logger().setLevel("ERROR")
    checks = lambda: (tfdebug.trace_logger(warn_after=None),  # noqa: E731
                      tfdebug.side_effect_guard(action="log"))
    try:
        for size in (int(s) for s in args.sizes.split(",")):
            per_sample = 3 * (args.rounds + 1)
            functions = modules(folder, size, per_sample * (1 + args.batch))
            copies = converted_before(folder, size, per_sample)
            title = (f"first trace of a function in a module of {size} function(s)"
                     f"{' (CPU time)' if args.cpu else ''}"
                     f"{', collected before each sample' if args.collect else ''}")
            for label, sample in (
                    (title, lambda scopes: first_trace(functions, scopes, clock, args.collect)),
                    (f"  the same, scopes entered once for {args.batch} first traces (time per trace)",
                     lambda scopes: first_traces(functions, scopes, clock, args.collect, args.batch)),
                    ("  code converted before (equal code in another module: AutoGraph's cache)",
                     lambda scopes: first_trace(copies, scopes, clock, args.collect))):
                result = compare({"no scope": lambda: sample(tuple),
                                  "logger + guard": lambda: sample(checks)}, rounds=args.rounds)
                show(label, result, target=1.10, unit="ms")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
