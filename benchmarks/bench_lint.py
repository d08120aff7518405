"""Lint speed, start-up included, side by side with `flake8 --select=F` in one run.

Both run as command-line tools on the same files, alternating which goes first each round;
the figures are medians of wall-clock time. tfdebug's bytecode is compiled first, as an
installed package has it.

    python benchmarks/bench_lint.py                # 50 files of the installed Keras, one file
    python benchmarks/bench_lint.py --rounds 15
    python benchmarks/bench_lint.py --folder PATH  # also: a whole folder, with --jobs
"""
import argparse
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def keras_files(count):
    import importlib.util

    src = os.path.join(os.path.dirname(importlib.util.find_spec("keras").origin), "src")
    found = []
    for root, dirs, names in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [os.path.join(root, n) for n in sorted(names)
                  if n.endswith(".py") and n != "__init__.py"]
    return found[:count]


def lines_in(paths):
    total = 0
    for path in paths:
        with open(path, "rb") as fh:
            total += fh.read().count(b"\n")
    return total


def timed(cmd, cwd):
    """Wall seconds, CPU seconds (user + system, the process and its workers), findings."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu, len([line for line in proc.stdout.splitlines() if line.strip()])


def side_by_side(commands, cwd, rounds):
    """Median wall and CPU seconds and the finding count of each command, alternating the
    order every round."""
    walls = {name: [] for name in commands}
    cpus = {name: [] for name in commands}
    found = {}
    names = list(commands)
    for i in range(rounds):
        for name in (names if i % 2 == 0 else names[::-1]):
            wall, cpu, found[name] = timed(commands[name], cwd)
            walls[name].append(wall)
            cpus[name].append(cpu)
    return {name: (statistics.median(walls[name]), statistics.median(cpus[name]), found[name])
            for name in names}


def show(title, results, lines):
    print(f"\n{title}")
    print(f"  {'tool':36} {'wall ms':>8} {'CPU ms':>8} {'lines/s':>9} {'findings':>9}")
    for name, (wall, cpu, found) in results.items():
        print(f"  {name:36} {wall * 1000:8.1f} {cpu * 1000:8.1f} {lines / wall:9.0f} {found:9d}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=50, help="Keras files to copy (50)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--folder", help="also lint this whole folder")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes for --folder (both tools)")
    args = parser.parse_args()
    compileall.compile_dir(os.path.join(ROOT, "tfdebug"), quiet=1)
    py = sys.executable
    work = tempfile.mkdtemp(prefix="bench_lint_")
    try:
        sources = keras_files(args.files)
        folder = os.path.join(work, "files")
        os.makedirs(folder)
        for i, path in enumerate(sources):
            shutil.copy(path, os.path.join(folder, f"{i:03d}_{os.path.basename(path)}"))
        lines = lines_in(sources)
        print(f"{len(sources)} files of the installed Keras, {lines} lines; {args.rounds} rounds; "
              f"Python {sys.version.split()[0]}")
        results = side_by_side({
            "tfdebug lint (CLI)": [py, "-m", "tfdebug", "lint", "files"],
            "flake8 --select=F (CLI)": [py, "-m", "flake8", "--select=F", "files"],
            "flake8 --select=F -j 1 (CLI)": [py, "-m", "flake8", "--select=F", "-j", "1",
                                             "files"],
        }, work, args.rounds)
        show(f"a {len(sources)}-file folder, start-up included (tfdebug picks 1 job for "
             "< 64 files; flake8's default is one per CPU)", results, lines)
        ours = results["tfdebug lint (CLI)"]
        for other in ("flake8 --select=F (CLI)", "flake8 --select=F -j 1 (CLI)"):
            print(f"  tfdebug lint vs {other}: {results[other][0] / ours[0]:.2f}x the speed "
                  f"(wall), {results[other][1] / ours[1]:.2f}x (CPU)")

        one = os.path.join("files", sorted(os.listdir(folder))[0])
        one_lines = lines_in([os.path.join(work, one)])
        results = side_by_side({
            "python -c pass (interpreter start)": [py, "-c", "pass"],
            "tfdebug lint ONE_FILE": [py, "-m", "tfdebug", "lint", one],
            "flake8 --select=F ONE_FILE": [py, "-m", "flake8", "--select=F", one],
        }, work, args.rounds)
        show(f"one file ({one_lines} lines), start-up included", results, one_lines)
        ours = results["tfdebug lint ONE_FILE"]
        bare = results["python -c pass (interpreter start)"]
        print(f"  tfdebug lint on one file: {ours[0] * 1000:.0f} ms wall, {ours[1] * 1000:.0f} ms "
              f"CPU; the interpreter alone: {bare[0] * 1000:.0f} ms wall, {bare[1] * 1000:.0f} ms CPU")

        if args.folder:
            big_lines = sum(lines_in([os.path.join(r, n) for n in ns if n.endswith(".py")])
                            for r, _, ns in os.walk(args.folder))
            results = side_by_side({
                f"tfdebug lint --jobs {args.jobs}": [py, "-m", "tfdebug", "lint", "--jobs",
                                                     str(args.jobs), args.folder],
                f"flake8 --select=F -j {args.jobs}": [py, "-m", "flake8", "--select=F", "-j",
                                                      str(args.jobs), args.folder],
            }, work, max(3, args.rounds // 3))
            show(f"{args.folder} ({big_lines} lines)", results, big_lines)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
