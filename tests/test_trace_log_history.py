"""The trace logger's work per trace does not grow with the number of earlier traces."""
import warnings

import tensorflow as tf

import tfdebug
from tfdebug import _signatures, trace_log


def _diff_calls_per_trace(monkeypatch, traces: int) -> list[int]:
    counted = []
    real = _signatures.diff

    def counting(old, new):
        counted.append(1)
        return real(old, new)

    monkeypatch.setattr(_signatures, "diff", counting)

    @tf.function
    def scale(x, factor):
        return x * factor

    per_trace = []
    with warnings.catch_warnings(), tfdebug.trace_logger(warn_after=None) as log:
        warnings.simplefilter("ignore")
        for factor in range(traces):
            before = len(counted)
            scale(tf.constant(1), factor)        # a new Python value: a retrace each time
            per_trace.append(len(counted) - before)
    assert log.count(scale) == traces
    last = log.retraces(scale)[-1]
    assert [str(r) for r in last.reasons] == [f"factor: Python value {traces - 2} -> {traces - 1}"]
    return per_trace


def test_signature_comparisons_per_trace_are_bounded(monkeypatch):
    monkeypatch.setattr(trace_log, "RECENT_SIGNATURES", 8, raising=False)
    per_trace = _diff_calls_per_trace(monkeypatch, 40)
    # before: every earlier trace was compared twice (2 * 39 at the 40th trace)
    assert max(per_trace) <= 8 + 2, per_trace
    assert per_trace[-1] == per_trace[20], per_trace


def test_repeated_signature_is_found_without_reading_the_history():
    history = trace_log._KeyHistory()
    sig = (("x", _signatures.Tensor((2,), "float32")),)
    for n in range(200):
        history.add((("x", _signatures.Tensor((n + 3,), "float32")),), False)
    history.add(sig, True)
    assert history.equal((("x", _signatures.Tensor((2,), "float32")),)) == [sig, True]
    assert len(history.recent) == trace_log.RECENT_SIGNATURES


def test_nan_values_match_as_tf_keys_them():
    nan = float("nan")
    history = trace_log._KeyHistory()
    history.add((("v", _signatures.Value(nan)),), False)
    assert history.equal((("v", _signatures.Value(float("nan"))),)) is not None
    assert history.equal((("v", _signatures.Value(1.0)),)) is None


def test_a_storm_of_one_changing_argument_reads_one_earlier_signature(monkeypatch):
    per_trace = _diff_calls_per_trace(monkeypatch, 30)
    assert max(per_trace[2:]) == 1, per_trace  # the latest differs in one thing: no closer one


def test_an_older_signature_with_fewer_differences_is_still_the_closest():
    def sig(n, dtype):
        return (("x", _signatures.Tensor((n,), dtype)), ("k", _signatures.Value(1)))

    older, latest = sig(5, "float32"), sig(6, "int32")
    for fewest in (0, 1):
        best, reasons = _signatures.closest([older, latest], sig(7, "float32"), fewest)
        assert best is older and [r.kind for r in reasons] == ["shape"], (fewest, reasons)
