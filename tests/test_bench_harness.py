"""The benchmarks' harness: a median's interval from order statistics, interleaved rounds
in a rotating order, and the A/A line (the baseline measured twice each round)."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "benchmarks"))

from _harness import AA, compare, median_interval  # noqa: E402

pytestmark = pytest.mark.smoke


def test_the_interval_of_a_median_is_from_order_statistics():
    # n = 21: the 95 % interval is [x_6, x_16] (P(Binomial(21, 1/2) <= 5) = 1.3 %)
    assert median_interval(range(1, 22)) == (11, 6, 16)
    assert median_interval([5.0, 1.0, 3.0]) == (3.0, 1.0, 5.0)  # too few: the whole range
    with pytest.raises(ValueError):
        median_interval([])


def test_rounds_interleave_every_side_and_rotate_the_order():
    calls = []

    def side(name, value):
        def measure():
            calls.append(name)
            return value
        return measure

    result = compare({"a": side("a", 1.0), "b": side("b", 3.0)}, rounds=20, warmup=0)
    rounds = [calls[i:i + 3] for i in range(0, len(calls), 3)]
    assert len(rounds) == 20 and all(sorted(r) == ["a", "a", "b"] for r in rounds)
    assert len({tuple(r) for r in rounds}) >= 3  # no fixed position for a side
    assert result.ratio("b") == (3.0, 3.0, 3.0)
    assert result.ratio(AA) == (1.0, 1.0, 1.0) and result.rounds == 20
