"""How fast is error diagnosis, first in a process and warm, and what does ``import tfdebug``
cost after TensorFlow?

Printed, each as a median with its 95 % interval:
  - the first diagnosis in a fresh process (``import tensorflow, tfdebug``, tfdebug's
    diagnosis loaded as ``tfdebug run``, ``install()`` and ``explain()`` have it, a real
    error raised, then ``tfdebug.diagnose(exc)`` timed: recipes, lazy imports on the error
    path and all; target <= 10 ms), for an error a recipe knows and one no recipe knows
    (generic diagnosis), with the second diagnosis in that process for comparison;
  - warm ``diagnose(exc)`` over several real errors in this process (target <= 10 ms);
  - ``import tfdebug`` after ``import tensorflow`` in fresh interpreters (target <= 30 ms);
  - the per-call cost of recording AutoGraph's declines: a traced function calling a helper
    AutoGraph declined, called with the recorder off and on, interleaved (target: ratio 1).

The first diagnosis is timed in wall time and in CPU time (``time.process_time``: on a
loaded machine the wall time includes waiting for a core). ``--against FOLDER`` (another
checkout of tfdebug, e.g. the main branch) runs its first diagnosis in the same rounds,
the two checkouts alternating, for a before/after figure.

Usage: python benchmarks/bench_diagnose.py [--repeat N] [--processes N] [--against FOLDER]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from _harness import (PYTHON, ROUNDS, compare, fmt_time, median_interval, quiet_env,  # noqa: E402
                      reported_seconds, show)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_IMPORT_PROBE = (
    "import time, tensorflow\n"
    "t = time.perf_counter()\n"
    "{what}\n"
    "print(time.perf_counter() - t)\n"
)

# A fresh process: the error raised first (TensorFlow's own work is not tfdebug's), then the
# first and the second diagnosis timed.
_FIRST_PROBE = """\
import time, warnings
import tensorflow as tf
import tfdebug
tfdebug.diagnose  # loaded, as tfdebug run, install() and explain() have it; nothing run yet
warnings.simplefilter("ignore")

@tf.function
def truthy(x):
    if x:
        return x
    return -x

@tf.function
def tensor_array():  # no recipe: a generic diagnosis
    ta = tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0])
    return ta.write(1, [1.0, 2.0, 3.0]).stack()

errors = []
for fn, args in ((truthy, (tf.constant(1),)), (tensor_array, ())):
    try:
        fn(*args)
    except Exception as exc:
        errors.append(exc)
exc = errors[{index}]
c, t = time.process_time(), time.perf_counter()
found = tfdebug.diagnose(exc)
first, first_cpu = time.perf_counter() - t, time.process_time() - c
assert found is not None
t = time.perf_counter()
tfdebug.diagnose(exc)
print(first_cpu)
print(time.perf_counter() - t)  # warm: the second diagnosis of the same error
print(first)
"""


def _errors():
    """Real errors from tf.function code, each raised once and kept."""
    import tensorflow as tf

    @tf.function
    def truthy(x):
        if x:
            return x
        return -x

    @tf.function
    def append_in_loop(n):
        out = []
        for i in tf.range(n):
            out.append(i)
        return tf.add_n(out)

    @tf.function
    def in_list(x):
        return x in [1, 2, 3]

    @tf.function
    def grow():
        v = tf.constant([0])
        for i in tf.range(3):
            v = tf.concat([v, [i]], 0)
        return v

    @tf.function
    def numpy_call(x):
        return x.numpy()

    @tf.function
    def tensor_array():  # no recipe: the construct layer asks the linter, then a generic diagnosis
        ta = tf.TensorArray(tf.float32, size=2).write(0, [1.0, 2.0])
        return ta.write(1, [1.0, 2.0, 3.0]).stack()

    errors = []
    for fn, args in ((truthy, (tf.constant(1),)), (append_in_loop, (tf.constant(3),)),
                     (in_list, (tf.constant(1),)), (grow, ()), (numpy_call, (tf.constant(1.0),)),
                     (tensor_array, ())):
        try:
            fn(*args)
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
    return errors


def bench_warm(repeat: int):
    """Per-diagnosis seconds, warm (recipes loaded, sources parsed once), and the kinds."""
    from tfdebug import recipebook
    from tfdebug.diagnosis import diagnose

    recipebook.load()
    errors = _errors()
    for exc in errors:  # warm: source files parsed once, as in a long session
        assert diagnose(exc) is not None, exc
    times = []
    for _ in range(repeat):
        for exc in errors:
            start = time.perf_counter()
            diagnose(exc)
            times.append(time.perf_counter() - start)
    return times, len(errors)


KINDS = ((0, "recipe"), (1, "generic (no recipe)"))


def bench_first(processes: int, checkouts: dict[str, str]) -> dict[tuple[str, str], dict[str, list[float]]]:
    """{(checkout, kind): {"first", "cpu", "warm": seconds per fresh process}}, for a
    recipe's error and a generic one; kinds and checkouts alternate process by process,
    the order rotating from round to round."""
    env = quiet_env()
    turns = [(checkout, index, kind) for checkout in checkouts for index, kind in KINDS]
    samples = {(checkout, kind): {"first": [], "cpu": [], "warm": []} for checkout, _, kind in turns}
    for checkout, index, _ in turns:  # warm-up: bytecode written, files in the page cache
        _run_probe(_FIRST_PROBE.format(index=index), env, checkouts[checkout])
    for run in range(processes):
        shift = run % len(turns)
        turn = turns[shift:] + turns[:shift]
        for checkout, index, kind in (turn if run % 2 == 0 else turn[::-1]):
            cpu, warm, first = _run_probe(_FIRST_PROBE.format(index=index), env, checkouts[checkout])
            for key, value in (("first", first), ("cpu", cpu), ("warm", warm)):
                samples[checkout, kind][key].append(value)
    return samples


def _run_probe(code: str, env: dict, root: str = ROOT) -> list[float]:
    """(first CPU, warm, first) seconds of the probe run with ``root``'s tfdebug."""
    import subprocess

    env = {**env, "PYTHONPATH": os.pathsep.join(filter(None, (root, env.get("PYTHONPATH"))))}
    proc = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, env=env,
                          cwd=root)
    if proc.returncode != 0:
        raise SystemExit(f"the probe failed:\n{proc.stderr[-2000:]}")
    return [float(line) for line in proc.stdout.split()[-3:]]


def bench_import(runs: int) -> list[float]:
    env = quiet_env()
    return [reported_seconds([PYTHON, "-c", _IMPORT_PROBE.format(what="import tfdebug")],
                             env=env, cwd=ROOT) for _ in range(runs)]


def _declined_helper(x):
    for _ in range(2):
        x = x + 1.0
    else:  # AutoGraph refuses for/else: it runs this helper as plain Python
        x = x - 1.0
    return x


def bench_decline_capture(calls: int):
    """Per-call seconds of a traced function whose helper AutoGraph declined, with tfdebug's
    recorder of declines off and on (it hooks AutoGraph's fallback, which runs at trace time)."""
    import tensorflow as tf

    from tfdebug import _tf

    fn = tf.function(lambda x: _declined_helper(x))
    x = tf.constant(1.0)
    fn(x)  # traced once, outside the measurement: calls only from here on

    def timed():
        start = time.perf_counter()
        for _ in range(calls):
            fn(x)
        return (time.perf_counter() - start) / calls

    def recording():
        _tf.record_declines()
        try:
            return timed()
        finally:
            _tf.stop_recording_declines()
    return compare({"recorder off": timed, "recorder on": recording})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="diagnoses per error (default 20)")
    parser.add_argument("--processes", type=int, default=ROUNDS,
                        help=f"fresh processes per kind of error (default {ROUNDS})")
    parser.add_argument("--import-runs", type=int, default=ROUNDS)
    parser.add_argument("--against", metavar="FOLDER",
                        help="another checkout of tfdebug, measured in the same rounds")
    args = parser.parse_args(argv)
    checkouts = {"this": ROOT, **({"against": os.path.abspath(args.against)} if args.against else {})}
    print(f"first diagnosis in a fresh process, {args.processes} processes per kind "
          "(median [95 % interval]; target <= 10 ms)")
    for (checkout, name), got in bench_first(args.processes, checkouts).items():
        label = f"{checkout}: {name}" if args.against else name
        print(f"  {label:28} first {fmt_time(median_interval(got['first'])):>24}   "
              f"CPU {fmt_time(median_interval(got['cpu'])):>24}   "
              f"then warm {fmt_time(median_interval(got['warm']))}")
    if args.against:
        return 0
    times, kinds = bench_warm(args.repeat)
    print(f"warm diagnose(), {kinds} kinds of error x {args.repeat}: "
          f"{fmt_time(median_interval(times))} (target <= 10 ms)")
    cost = bench_import(args.import_runs)
    print(f"import tfdebug after tensorflow, {args.import_runs} fresh processes: "
          f"{fmt_time(median_interval(cost))} (target <= 30 ms)")
    show("per call of a function with a declined helper, recording AutoGraph's declines",
         bench_decline_capture(200), target=1.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
