"""The catalogue of TensorFlow's graph-mode errors (tools/tf_errors.json) against the installed TF.

Regenerates the rows from the installed TensorFlow's source and fails when TensorFlow gained
or lost a message the file does not record for this version, when a row has neither a
recipe, nor a reason it is not user-facing, nor a reviewed note on why no recipe covers it,
or when fewer than 95 % of the user-facing rows are covered by a recipe whose message regex
matches the real text.
"""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import tf_errors  # noqa: E402

pytestmark = pytest.mark.smoke


@pytest.fixture(scope="module")
def rows():
    return tf_errors.current_rows()


@pytest.fixture(scope="module")
def catalogue():
    return tf_errors.load_catalogue()


def test_the_file_lists_exactly_the_installed_versions_messages(rows, catalogue):
    version = tf_errors.tf_version()
    assert tf_errors.problems(catalogue, rows, version) == [], (
        "run `python tools/tf_errors.py --update` and review the new rows")


def test_at_least_95_percent_of_user_facing_rows_have_a_matching_recipe(rows):
    covered, facing = tf_errors.coverage(rows)
    assert facing > 100, "the scan found too few raise sites: is the source path right?"
    assert covered / facing >= 0.95, (covered, facing)


def test_the_committed_recipe_ids_are_todays(rows, catalogue):
    """A recipe change that stops (or starts) matching a row shows in the committed file."""
    listed = {r["key"]: r.get("recipe") for r in catalogue["rows"]}
    assert {r["key"]: r["recipe"] for r in rows} == {r["key"]: listed[r["key"]] for r in rows}


def test_pasted_text_finds_the_same_category(rows):
    """`tfdebug explain "<Class>: <sample>"` names a recipe of the row's recipe's category; where
    that recipe needs a `when` that a bare message cannot prove (the failing line's context),
    the text names that category or nothing, never a recipe of another category."""
    from tfdebug import recipebook

    for row in (r for r in rows if r["recipe"]):
        expected = recipebook.get(row["recipe"])
        found = tf_errors.explained_by_text(row)
        if expected.when and found is None:
            continue
        assert found, row["key"]
        assert recipebook.get(found).category == expected.category, row["key"]


def test_every_note_names_a_row_of_the_file(catalogue):
    notes = tf_errors.load_notes()
    keys = {r["key"] for r in catalogue["rows"]}
    for section in ("reasons", "gaps", "samples"):
        assert set(notes[section]) <= keys, set(notes[section]) - keys


def test_messages_are_rebuilt_from_literals_fstrings_percent_and_format():
    from raise_sites import raise_sites

    source = '''
def check(name, n):
    msg = "'%s' has %d items" % (name, n)
    if n:
        raise ValueError(msg)
    raise TypeError(f"{name!r} is " + "bad: {}".format(n))

def _disallow(task):
    raise RuntimeError(f"{task} is not allowed.")

def caller():
    _disallow("Using a tensor as a bool")
'''
    sites = {(s.cls, s.template, s.sample) for s in raise_sites(source)}
    assert ("ValueError", "'{name}' has {n} items", "'x' has x items") in sites
    assert ("TypeError", "{name} is bad: {n}", "x is bad: x") in sites
    assert ("RuntimeError", "Using a tensor as a bool is not allowed.",
            "Using a tensor as a bool is not allowed.") in sites
