"""How fast is error diagnosis, and what does ``import tfdebug`` cost after TensorFlow?

Prints, measured in this one run:
  - the median time of ``diagnose(exc)`` over several real TensorFlow errors, one of them
    known to no recipe (generic diagnosis; recipes loaded, sources linted once; target <= 10 ms);
  - the extra time of ``import tfdebug`` in a fresh interpreter that has already imported
    tensorflow (median of a few fresh processes; target <= 30 ms).

Usage: python benchmarks/bench_diagnose.py [--repeat N]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

_IMPORT_PROBE = (
    "import time, tensorflow\n"
    "t = time.perf_counter()\n"
    "import tfdebug\n"
    "print(time.perf_counter() - t)\n"
)


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


def bench_diagnose(repeat: int) -> tuple[float, int]:
    from tfdebug import recipebook
    from tfdebug.diagnose import diagnose

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
    return statistics.median(times), len(errors)


def bench_import(runs: int) -> tuple[float, list[tuple[int, str]]]:
    """Median seconds of ``import tfdebug`` after tensorflow, and the slowest tfdebug modules.

    Bytecode is cached (in a private pycache folder, after one warm-up run) as it is for an
    installed package; compiling sources on every import is not what users pay.
    """
    import tempfile

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(TF_CPP_MIN_LOG_LEVEL="3", PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="tfdebug-pyc-"))
    samples, slowest = [], {}
    for run in range(runs + 1):
        proc = subprocess.run([sys.executable, "-X", "importtime", "-c", _IMPORT_PROBE],
                              capture_output=True, text=True, env=env, cwd=root, check=True)
        if run == 0:
            continue  # warm-up: writes the bytecode
        samples.append(float(proc.stdout.strip().splitlines()[-1]))
        for line in proc.stderr.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2].startswith("tfdebug"):
                own = int(parts[0].rsplit(" ", 1)[-1])
                slowest[parts[2]] = min(own, slowest.get(parts[2], own))
    top = sorted(((us, name) for name, us in slowest.items()), reverse=True)[:4]
    return statistics.median(samples), top


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="diagnoses per error (default 20)")
    parser.add_argument("--import-runs", type=int, default=3, help="fresh interpreters (default 3)")
    args = parser.parse_args(argv)
    median, kinds = bench_diagnose(args.repeat)
    print(f"diagnose: median {median * 1000:.2f} ms over {kinds} kinds of error x {args.repeat} "
          f"(target <= 10 ms)")
    cost, top = bench_import(args.import_runs)
    print(f"import tfdebug after tensorflow: median {cost * 1000:.1f} ms over {args.import_runs} "
          f"fresh processes (target <= 30 ms)")
    print("  slowest tfdebug modules (own time): "
          + ", ".join(f"{name} {us / 1000:.1f} ms" for us, name in top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
