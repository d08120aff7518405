"""`tfdebug report` (and the other static commands) are total: any input gives a page or one
line naming the file and the problem, exit 2; never a traceback. In-process: cli.main."""
import io
import json
import os
import sys
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tfdebug import cli

BASE = {
    "tfdebug": "0.1.0", "tensorflow": "2.21.0", "python": "3.11.7", "keras": "3.0",
    "script": "train.py", "status": "error", "started": "2026-01-01T00:00:00+00:00",
    "wall_seconds": 1.5, "exit_code": 1,
    "diagnostics": [{"severity": "error", "recipe": "TFD101", "category": "tensor-as-bool",
                     "file": "/abs/train.py", "line": 14, "function": "step",
                     "code": "if x > 0:", "message": "boom", "time": 0.5, "generic": False,
                     "context": [[13, "def step(x):"], [14, "if x > 0:"]]}],
    "traces": [{"function": "step", "file": "/abs/train.py", "line": 9, "count": 3,
                "reasons": ["x: shape (1,) -> (2,)"], "retraces": 2, "variable_creation": 0,
                "recipes": ["TFD200"], "call_file": "/abs/train.py", "call_line": 20,
                "suggestion": "reduce_retracing=True", "input_signature": None,
                "tracing_seconds": 0.01, "user_code": True}],
    "events": [{"index": 0, "function": "step", "file": "/abs/train.py", "line": 9,
                "kind": "retrace", "time": 0.1, "duration": 0.002,
                "signature": [["x", "tensor float32 (2,)"]],
                "reasons": [{"text": "x: shape (1,) -> (2,)", "recipe": "TFD200",
                             "kind": "shape", "argument": "x"}],
                "call_file": "/abs/train.py", "call_line": 20, "call_function": "main",
                "depth": 0, "user_code": True}],
    "stale_captures": [{"label": "LR", "kind": "global", "file": "/abs/train.py", "line": 3,
                        "function": "step", "traced": "step", "before": "1", "after": "2",
                        "recipe": "TFD210", "message": "LR changed"}],
    "exception": {"class": "tensorflow.python.autograph.impl.api.StagingError",
                  "message": "in user code: ... BadBatch: <b>boom</b>", "file": "/abs/train.py",
                  "line": 14, "function": "step", "code": "raise BadBatch()", "time": 0.6,
                  "context": [[14, "raise BadBatch()"]], "diagnosed": True,
                  "original": {"class": "BadBatch", "message": "<b>boom</b>"}},
}


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


PATHS = [p for p in _paths(BASE) if p]

ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=12)  # surrogates too
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT
    | st.sampled_from([1e308, -1e308, 2 ** 70, float("inf"), float("nan")]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=16)


def _replace(data, path, value):
    data = json.loads(json.dumps(data))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def _render(text: str, capsys) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "r.json")
        with open(source, "w", encoding="utf-8") as fh:
            fh.write(text)
        code = cli.main(["report", source, "--html", os.path.join(folder, "r.html")])
        if code == 0:
            assert os.path.getsize(os.path.join(folder, "r.html")) > 0
    err = capsys.readouterr().err
    return code, err


def _assert_total(code: int, err: str) -> None:
    assert code in (0, 2), err
    assert "Traceback" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and err.startswith("tfdebug: error: "), err


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(PATHS), value=JSON)
def test_any_value_in_any_field_renders_or_is_one_line(capsys, path, value):
    _assert_total(*_render(json.dumps(_replace(BASE, path, value)), capsys))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=JSON)
def test_any_json_document_renders_or_is_one_line(capsys, value):
    _assert_total(*_render(json.dumps(value), capsys))


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"tfdebug": "x", "status": "ok", "diagnostics": [], "traces": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"tfdebug": "x", "status": "ok", "diagnostics": [], "traces": [], "script": 1' + "0" * 5000 + "}",
], ids=["deep-array", "deep-field", "huge-integer"])
def test_deep_or_huge_json_is_one_line(capsys, text):
    code, err = _render(text, capsys)
    assert code == 2
    _assert_total(code, err)


def test_non_finite_and_implausible_numbers_render(capsys):
    text = json.dumps(BASE).replace('"wall_seconds": 1.5', '"wall_seconds": 1e308') \
        .replace('"time": 0.1', '"time": Infinity').replace('"duration": 0.002', '"duration": NaN') \
        .replace('"count": 3', '"count": NaN').replace('"line": 14', '"line": 1e308')
    assert _render(text, capsys) == (0, "")


def test_wrongly_shaped_nested_items_render(capsys):
    data = _replace(BASE, ("events", 0, "signature"), [["x"], "y", [1, [2]], None])
    data = _replace(data, ("diagnostics", 0, "context"), [[None, "a"], ["1", 2], 5])
    data = _replace(data, ("traces", 0, "reasons"), {"not": "a list"})
    assert _render(json.dumps(data), capsys) == (0, "")


def test_lone_surrogates_render(capsys):
    assert _render(json.dumps(_replace(BASE, ("script",), "\ud800.py")), capsys) == (0, "")


@pytest.mark.parametrize("argv", [["explain", "TFD101"], ["recipes"],
                                  ["explain", "TypeError: caf\u00e9 \u2014 \udcff unhashable"]])
def test_any_output_encoding_works(monkeypatch, argv):
    out, err = io.BytesIO(), io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="ascii"))
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(err, encoding="ascii"))
    code = cli.main(argv)
    sys.stdout.flush()
    sys.stderr.flush()
    assert code in (0, 1), err.getvalue()
    assert out.getvalue() or err.getvalue().startswith(b"tfdebug: ")


def test_report_paths_outside_the_output_encoding(monkeypatch, tmp_path):
    source = tmp_path / "r\u00e9sum\u00e9.json"
    source.write_text(json.dumps(BASE), encoding="utf-8")
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    assert cli.main(["report", str(source), "--html", str(tmp_path / "\u00e9.html")]) == 0
    sys.stdout.flush()
    assert b"\\xe9.html" in raw.getvalue()
