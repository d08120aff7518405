"""Lint throughput on the installed Keras source, side by side with `flake8 --select=F`.

Both run as command-line tools on the same files, in the same run, with the same number of
worker processes, so the ratio is fair whatever the machine. Prints lines per second.

    python benchmarks/bench_lint.py            # the installed keras package
    python benchmarks/bench_lint.py PATH --jobs 2
"""
import argparse
import os
import subprocess
import sys
import time


def count_lines(folder):
    total = files = 0
    for root, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            if name.endswith(".py"):
                files += 1
                with open(os.path.join(root, name), "rb") as fh:
                    total += fh.read().count(b"\n")
    return files, total


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    return time.perf_counter() - start, proc


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", help="folder to lint (default: installed keras)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    folder = args.path
    if folder is None:
        import importlib.util
        folder = os.path.dirname(importlib.util.find_spec("keras").origin)
    files, lines = count_lines(folder)
    print(f"{folder}: {files} files, {lines} lines, {args.jobs} job(s)")

    # in-process: the checker alone, without the CLI's start-up (it imports TensorFlow)
    code = ("import sys, time; from tfdebug import lint; t = time.perf_counter(); "
            f"f = lint.lint_paths([{folder!r}], lint.Options(jobs={args.jobs})); "
            "print(time.perf_counter() - t, len(f))")
    _, proc = timed([sys.executable, "-c", code])
    inner, n_inner = proc.stdout.split()[-2:]
    lint_s, lint = timed([sys.executable, "-m", "tfdebug", "lint", "--jobs", str(args.jobs), folder])
    flake_s, flake = timed([sys.executable, "-m", "flake8", "--select=F", "-j", str(args.jobs), folder])
    n_lint = len([line for line in lint.stdout.splitlines() if line.strip()])
    n_flake = len([line for line in flake.stdout.splitlines() if line.strip()])
    rows = [("tfdebug lint (checker only)", float(inner), int(n_inner)),
            ("tfdebug lint (CLI, with start-up)", lint_s, n_lint),
            ("flake8 --select=F (CLI)", flake_s, n_flake)]
    print(f"{'tool':36} {'seconds':>8} {'lines/s':>10} {'findings':>9}")
    for name, seconds, found in rows:
        print(f"{name:36} {seconds:8.2f} {lines / seconds:10.0f} {found:9d}")
    print(f"tfdebug lint CLI is {flake_s / lint_s:.2f}x the speed of flake8 --select=F")


if __name__ == "__main__":
    main()
