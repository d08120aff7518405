"""The benchmarks' one way to compare: interleaved rounds, a median with its interval, A/A.

Every side of a comparison is measured once per round, in an order that rotates from round
to round (a machine that speeds up or slows down during the run favours no side). Each
round gives one ratio per side (its time over the baseline's, in that same round); the
figure printed is the median of those ratios with a distribution-free 95 % interval for the
median (order statistics of the binomial, no normality assumed). The baseline is measured
twice per round, so the A/A line (baseline against itself) shows how large noise is on this
machine, in this run: a ratio whose interval overlaps the A/A line's is not a difference.

Example::

    from _harness import compare, show

    result = compare({"outside": lambda: per_call(f), "inside": lambda: inside(f)}, rounds=21)
    show("per call of a traced function", result, target=1.02)
"""
from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import time

ROUNDS = 21  # >= 20: a 95 % interval for the median from order statistics needs ~20 samples
AA = "A/A"   # the baseline's second measurement in each round


def median_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """(median, low, high): the median and a distribution-free interval for it.

    The interval is [x_(k), x_(n+1-k)] of the sorted values, with k the largest rank such
    that a Binomial(n, 1/2) falls below k with probability <= (1 - confidence) / 2. With
    fewer than 6 values no such k exists and the interval is the whole range.
    """
    data = sorted(values)
    n = len(data)
    if n == 0:
        raise ValueError("no values")
    alpha = (1 - confidence) / 2
    k, below = 0, 0.0
    while k < n // 2:
        below_next = below + math.comb(n, k) / 2 ** n  # P(Binomial(n, 1/2) <= k)
        if below_next > alpha:
            break
        below, k = below_next, k + 1
    low, high = (data[k - 1], data[n - k]) if k > 0 else (data[0], data[-1])
    return statistics.median(data), low, high


class Result:
    """Samples of one interleaved comparison: per side, one time per round."""

    def __init__(self, names: list[str]):
        self.baseline = names[0]
        self.samples: dict[str, list[float]] = {name: [] for name in [*names, AA]}

    def ratios(self, name: str) -> list[float]:
        """The per-round ratio ``name / baseline`` (A/A: the baseline's two measurements)."""
        return [value / base for value, base in zip(self.samples[name], self.samples[self.baseline])]

    def ratio(self, name: str) -> tuple[float, float, float]:
        return median_interval(self.ratios(name))

    def time(self, name: str) -> tuple[float, float, float]:
        return median_interval(self.samples[name])

    @property
    def rounds(self) -> int:
        return len(self.samples[self.baseline])


def compare(sides: dict, rounds: int = ROUNDS, warmup: int = 1) -> Result:
    """Measure each side once per round, interleaved; the first side is the baseline.

    ``sides`` maps a name to a callable returning one sample in seconds (a per-call time,
    a trace time, a process's wall time...). The baseline runs twice a round (for A/A).
    """
    names = list(sides)
    result = Result(names)
    order = [*names, AA]
    measure = {**sides, AA: sides[names[0]]}
    for _ in range(warmup):
        for name in order:
            measure[name]()
    for round_ in range(rounds):
        shift = round_ % len(order)  # rotate, and reverse every other round: no fixed position
        turn = order[shift:] + order[:shift]
        for name in (turn if round_ % 2 == 0 else turn[::-1]):
            result.samples[name].append(float(measure[name]()))
    return result


def fmt_ratio(interval: tuple[float, float, float]) -> str:
    median, low, high = interval
    return f"{median:.3f} [{low:.3f}-{high:.3f}]"


def fmt_time(interval: tuple[float, float, float], unit: str = "ms") -> str:
    scale = {"s": 1, "ms": 1e3, "us": 1e6}[unit]
    median, low, high = (v * scale for v in interval)
    digits = 1 if median >= 10 else 2 if median >= 1 else 3
    return f"{median:.{digits}f} {unit} [{low:.{digits}f}-{high:.{digits}f}]"


def show(title: str, result: Result, target: float | None = None, unit: str = "us") -> None:
    """Print each side's median time and its ratio to the baseline, then the A/A line."""
    print(f"{title}  ({result.rounds} interleaved rounds; median [95 % interval])")
    width = max(len(name) for name in result.samples)
    for name in result.samples:
        if name == AA:
            continue
        line = f"  {name:<{width}}  {fmt_time(result.time(name), unit):>28}"
        if name != result.baseline:
            line += f"   ratio {fmt_ratio(result.ratio(name))}"
            if target is not None:
                line += f" (target <= {target})"
        print(line)
    print(f"  {'A/A: ' + result.baseline:<{width}}  {'':>28}   ratio {fmt_ratio(result.ratio(AA))}"
          " (noise)")


def run_process(argv: list[str], env: dict | None = None, cwd: str | None = None) -> float:
    """Wall seconds of one fresh process (it must succeed)."""
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, env=env, cwd=cwd)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n"
                         f"{proc.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def process_cpu(argv: list[str], env: dict | None = None, cwd: str | None = None) -> float:
    """CPU seconds (user + system) of one fresh process: on a loaded machine, less noisy
    than its wall time, which includes waiting for a core."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run_process(argv, env=env, cwd=cwd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def reported_seconds(argv: list[str], env: dict | None = None, cwd: str | None = None) -> float:
    """The float a fresh process prints last on stdout (a time it measured itself)."""
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return float(proc.stdout.strip().splitlines()[-1])


def quiet_env(**extra) -> dict:
    """The environment for a benchmark's child processes: TF quiet, bytecode cached."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    env.update(extra)
    return env


PYTHON = sys.executable
