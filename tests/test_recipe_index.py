"""The recipes as a diagnosis reads them: indexed by the classes their files name, parsed and
compiled on first need, with the answers of a full scan of every recipe."""
import json
import os
import re

import pytest

from tfdebug import recipebook

pytestmark = pytest.mark.smoke

ROWS = json.load(open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "tools",
                                   "tf_errors.json")))["rows"]


def _full_scan(class_names, message, tags):
    """match() as one loop over every recipe, every regex compiled (the reference)."""
    names, window, ranked = set(class_names), recipebook.message_window(message), []
    for recipe in recipebook.load():
        if not names & set(recipe.errors):
            continue
        if recipe.patterns and not any(re.search(p, window) for p in recipe.patterns):
            continue
        if tags is not None and not set(recipe.when) <= set(tags):
            continue
        specificity = len(recipe.when) if tags is not None else -len(recipe.when)
        ranked.append((not recipe.patterns, -specificity, recipe.id))
    return [entry[-1] for entry in sorted(ranked)]


@pytest.mark.parametrize("tags", [None, (), recipebook.TAGS], ids=["text", "no-tags", "all-tags"])
def test_match_answers_what_a_full_scan_answers(tags):
    for row in ROWS:
        for message in (row["sample"], row["template"]):
            got = [r.id for r in recipebook.match(row["bases"], message, tags)]
            assert got == _full_scan(row["bases"], message, tags), row["key"]


def test_get_finds_every_recipe_by_id_and_only_those():
    for recipe in recipebook.load():
        assert recipebook.get(recipe.id) is recipe
    with pytest.raises(KeyError):
        recipebook.get("TFD999")


def _read_as_files():
    """The shipped folder read from its TOML files (as without a usable index)."""
    recipebook._SHIPPED[:] = [recipebook._Book(None)]
    recipebook.load.cache_clear()


def test_a_diagnosis_parses_and_compiles_only_what_its_classes_reach():
    _read_as_files()
    recipebook._compiled.cache_clear()
    try:
        found = recipebook.match(["OperatorNotAllowedInGraphError", "TypeError", "Exception"],
                                 "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed.")
        assert found and found[0].id == "TFD101"
        book = recipebook._book()
        assert 0 < len(book.parsed) < len(book.texts) / 2
        compiled = recipebook._compiled.cache_info().currsize
        assert compiled < sum(len(r.patterns) for r in book.parsed.values() if r)
    finally:
        recipebook._SHIPPED.clear()
        recipebook.load.cache_clear()


@pytest.mark.parametrize("pattern, literal", [
    ("Tensor is unhashable", "Tensor is unhashable"), ("symbolic `tf.Tensor`", "symbolic `tf"),
    ("abc?d", "ab"), ("abc*", "ab"), ("ab{2}", "a"), ("ab+c", "ab"), ("a|b", ""),
    ("(?i)tensor", ""), (r"\w+ is", ""), ("^x", "")])
def test_the_regex_prefilter_keeps_only_text_every_match_contains(pattern, literal):
    assert recipebook._literal_of(pattern) == literal
    assert all(literal in m.group() for m in re.finditer(pattern, "Tensor is unhashable abcd "
                                                                   "abbd abd ab ac abbc"))


def test_the_generic_layer_parses_only_the_recipes_its_class_and_category_reach():
    from tfdebug import _generic

    _read_as_files()
    _generic._class_category.cache_clear()
    _generic.generic_docs.cache_clear()
    try:
        assert _generic._class_category("InaccessibleTensorError") == "out-of-scope-tensor"
        assert _generic._class_category("TypeError") is None  # a builtin tells no category
        docs = _generic.generic_docs("unknown-shape")
        assert docs.startswith("https://")
        book = recipebook._book()
        assert 0 < len(book.parsed) < len(book.texts) / 2
        expected = {r.docs for r in recipebook.validate() if r.category == "unknown-shape"}
        assert docs in expected
        assert [r.id for r in recipebook.by_category("unknown-shape")] == sorted(
            r.id for r in recipebook.validate() if r.category == "unknown-shape")
    finally:
        recipebook._SHIPPED.clear()
        recipebook.load.cache_clear()
        _generic._class_category.cache_clear()
        _generic.generic_docs.cache_clear()
