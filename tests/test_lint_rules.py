"""Every check, proven on its recipe: ``before`` gives the check's code, ``after`` does not.

Fixit's VALID/INVALID examples, kept as data in ``recipes/*.toml`` (one source of knowledge):
a test per recipe that lint cites, generated from the recipes themselves.
"""
import pytest

from tfdebug import lint, recipebook

# recipes whose `before` lint cannot see, and why (strict: the test fails once it can)
GAPS = {
    "TFD210": "the stale global is reassigned in a host loop between calls, but the recipe's "
              "`before` shows only the traced function and one reassignment, no loop",
}


# codes whose check infers from the project's shape: found with preview only
PREVIEW_CODES = {lint.CHECKS[name][0] for name in lint.INFERRED}


def _linted_codes():
    return sorted({code for code, _ in lint.CHECKS.values()})


def _snippet(code, side):
    snippet = getattr(recipebook.get(code), side)
    assert snippet, f"recipe {code} has no `{side}` snippet to test its check on"
    return snippet


@pytest.mark.parametrize("code", _linted_codes())
def test_before_gives_the_code(code, request):
    if code in GAPS:
        request.applymarker(pytest.mark.xfail(strict=True, reason=GAPS[code]))
    found = {f.code for f in lint.lint_source(_snippet(code, "before"), f"{code}-before.py",
                                              preview=code in PREVIEW_CODES)}
    assert code in found, f"{code}: its recipe's `before` gives {sorted(found)}"


@pytest.mark.parametrize("code", _linted_codes())
def test_after_does_not_give_the_code(code):
    found = {f.code for f in lint.lint_source(_snippet(code, "after"), f"{code}-after.py",
                                              preview=True)}
    assert code not in found, f"{code}: its recipe's `after` still gives it"


def test_every_linted_code_has_one_check_or_a_named_gap():
    assert set(GAPS) <= set(_linted_codes())


@pytest.mark.parametrize("code", sorted(PREVIEW_CODES))
def test_preview_codes_are_silent_by_default(code):
    found = {f.code for f in lint.lint_source(_snippet(code, "before"), f"{code}-before.py")}
    assert code not in found
