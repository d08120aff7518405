"""tfdebug lint on judged real-world code: true findings stay, false alarms stay gone.

``tests/lint_realworld/judged.toml`` holds every finding lint made on a corpus of TF 2 code
nobody here wrote (the Model Garden, TensorFlow's docs and examples, TF-Agents, Sonnet,
TF Recommenders), each judged in context; ``excerpts/`` keeps the enclosing code of each.
A false-alarm mechanism not fixed yet is a strict xfail named in ``KNOWN_GAPS``, so fixing
it fails the test until the entry is removed.
"""
from __future__ import annotations

import collections
import functools
import pathlib
import tomllib

import pytest

from tfdebug import lint

HERE = pathlib.Path(__file__).parent / "lint_realworld"
JUDGED = tomllib.loads((HERE / "judged.toml").read_text(encoding="utf-8"))["finding"]

# false-alarm mechanisms lint still falls for: pattern -> why it is still open
KNOWN_GAPS: dict[str, str] = {
    "or-last-operand": "`a or b` never tests its last operand, yet a tensor there is reported",
    "py-function-body": "bodies run by tf.py_function (its decorator form, or a decorator "
                        "wrapping tf.py_function) are treated as traced",
    "eager-by-hand": "a train_step the module only calls by hand, eagerly, is treated as traced",
    "training-flag-no-dropout-bn": "training= is asked for models with no Dropout or "
                                   "BatchNormalization",
    "autograph-options": "experimental_autograph_options (ASSERT_STATEMENTS, "
                         "BUILTIN_FUNCTIONS) are ignored",
    "keras2-converts-call": "Keras 2 (tf_keras) converts `call` with AutoGraph; lint assumes "
                            "Keras 3",
    "dataset-element-structure": "a tf.data function's parameter is assumed to be one tensor",
    "rebound-before-read": "a name set in one branch counts as used after the `if` even when "
                           "it is rebound before any read",
    "container-local-to-trace": "a container made in the traced function itself counts as "
                                "outside state",
}


@functools.cache
def _found(excerpt: str) -> frozenset:
    return frozenset((f.line, f.code) for f in lint.lint_file(str(HERE / excerpt)))


def _case(entry):
    marks = []
    gap = KNOWN_GAPS.get(entry.get("pattern", ""))
    if entry["verdict"] == "false" and gap:
        marks.append(pytest.mark.xfail(strict=True, reason=f"{entry['pattern']}: {gap}"))
    return pytest.param(entry, id=entry["id"], marks=marks)


@pytest.mark.parametrize("entry", [_case(e) for e in JUDGED])
def test_judged_finding(entry):
    found = (entry["excerpt_line"], entry["code"]) in _found(entry["excerpt"])
    where = f"{entry['source']} {entry['path']}:{entry['line']}: {entry['text']}"
    if entry["verdict"] == "false":
        assert not found, f"false alarm ({entry['pattern']}) is back: {where}"
    else:
        assert found, f"{entry['verdict']} finding lost: {where}"


def test_every_finding_on_the_excerpts_is_judged():
    judged = collections.defaultdict(set)
    for e in JUDGED:
        judged[e["excerpt"]].add((e["excerpt_line"], e["code"]))
    unjudged = {ex: sorted(_found(ex) - lines) for ex, lines in judged.items()}
    assert not {ex: new for ex, new in unjudged.items() if new}, \
        "judge these new findings and add them to judged.toml"


def test_judged_data_is_complete():
    assert len(JUDGED) >= 80
    for e in JUDGED:
        assert e["verdict"] in ("true", "defensible", "false"), e["id"]
        assert e["reason"] and e["text"], e["id"]
        assert ("commit" in e) or ("version" in e), e["id"]
        assert (e["verdict"] == "false") == bool(e.get("pattern")), e["id"]
        assert e.get("pattern", "") in KNOWN_GAPS or e["verdict"] != "false" or \
            e["pattern"] in FIXED, e["id"]
        text = (HERE / e["excerpt"]).read_text(encoding="utf-8").splitlines()
        assert text[e["excerpt_line"] - 1].strip() == e["text"], e["id"]
        assert "Apache License" in "\n".join(text[:3]), e["excerpt"]


# false-alarm mechanisms fixed in lint (their findings must stay gone)
FIXED: set[str] = set()
