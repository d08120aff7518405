"""The prebuilt recipe index (``recipes/_index.json``): rebuilt from ``recipes/`` it is the
same file, it answers what reading the TOML files answers, a diagnosis reads no TOML, and a
regex is compiled only when the text each of its matches needs is in the message."""
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tfdebug import recipebook

pytestmark = pytest.mark.smoke

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "recipes")
INDEX = os.path.join(FOLDER, recipebook.INDEX_NAME)
ROWS = json.load(open(os.path.join(ROOT, "tools", "tf_errors.json")))["rows"]
REBUILD = "python tools/recipe_index.py --update"

_spec = importlib.util.spec_from_file_location("recipe_index", os.path.join(ROOT, "tools", "recipe_index.py"))
recipe_index = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(recipe_index)


def test_the_shipped_index_is_what_recipes_rebuilds():
    with open(INDEX, encoding="utf-8") as fh:
        shipped = fh.read()
    assert shipped == recipe_index.render(recipe_index.build(FOLDER)), \
        f"recipes/_index.json is stale: run {REBUILD}"


def test_the_check_names_the_rebuild_command_when_a_recipe_changed(tmp_path):
    folder = tmp_path / "recipes"
    shutil.copytree(FOLDER, folder)
    recipe = folder / "TFD101.toml"
    recipe.write_text(recipe.read_text().replace("A symbolic tensor", "A graph tensor"))
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "recipe_index.py"),
                           "--folder", str(folder)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "A graph tensor" in proc.stdout and REBUILD in proc.stdout
    subprocess.run([sys.executable, os.path.join(ROOT, "tools", "recipe_index.py"), "--folder",
                    str(folder), "--update"], check=True, capture_output=True)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "recipe_index.py"),
                           "--folder", str(folder)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


def test_the_index_is_used_only_while_it_describes_the_folder(tmp_path):
    folder = tmp_path / "recipes"
    shutil.copytree(FOLDER, folder)
    assert isinstance(recipebook._Index.read(folder), recipebook._Index)
    recipe = folder / "TFD101.toml"
    recipe.write_text(recipe.read_text() + "\n")  # edited, index not rebuilt: read the files
    assert recipebook._Index.read(folder) is None
    recipe.unlink()
    assert recipebook._Index.read(folder) is None
    (folder / recipebook.INDEX_NAME).write_text("{not json")
    assert recipebook._Index.read(folder) is None


@pytest.fixture
def books():
    """(the index, the TOML files) of the shipped folder."""
    index = recipebook._Index.read()
    assert index is not None, f"the shipped index does not describe recipes/: run {REBUILD}"
    return index, recipebook._Book(None)


@pytest.mark.parametrize("tags", [None, (), recipebook.TAGS], ids=["text", "no-tags", "all-tags"])
def test_the_index_answers_what_the_files_answer(books, tags):
    saved = list(recipebook._SHIPPED)
    try:
        answers = []
        for book in books:
            recipebook._SHIPPED[:] = [book]
            recipebook.load.cache_clear()
            answers.append((
                [(r, r.source) for r in recipebook.load()],
                [[r.id for r in recipebook.match(row["bases"], message, tags)]
                 for row in ROWS for message in (row["sample"], row["template"])],
                [r.id for r in recipebook.by_category("tensor-as-bool")],
                [[r.id for r in recipebook.naming_error(name)] for row in ROWS for name in row["bases"]]))
        assert answers[0] == answers[1]
        assert len(answers[0][0]) == len(recipebook.validate())
    finally:
        recipebook._SHIPPED[:] = saved
        recipebook.load.cache_clear()


def test_a_first_diagnosis_reads_no_toml_and_compiles_only_regexes_whose_text_is_there():
    code = """if True:
        import sys
        from tfdebug import recipebook
        message = "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed."
        found = recipebook.match(["OperatorNotAllowedInGraphError", "TypeError"], message)
        assert found[0].id == "TFD101", found
        assert "tomllib" not in sys.modules
        assert type(recipebook._book()).__name__ == "_Index"
        print(recipebook._compiled.cache_info().currsize)
    """
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    message = "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed."
    candidates = {r.id: r for name in ("OperatorNotAllowedInGraphError", "TypeError")
                  for r in recipebook.naming_error(name)}.values()
    texts_present = {(p, r.source) for r in candidates for p, texts in zip(r.patterns, r.literals)
                     if any(t in message for t in texts)}
    all_patterns = {(p, r.source) for r in candidates for p in r.patterns}
    assert 0 < int(proc.stdout) <= len(texts_present) < len(all_patterns)


def test_a_users_recipe_folder_is_read_from_its_toml_files(tmp_path):
    (tmp_path / "TFD999.toml").write_text(
        'id = "TFD999"\ncategory = "tensor-as-bool"\ntitle = "t"\ncause = "c"\nfix = "f"\n'
        'errors = ["TypeError"]\nmessages = ["(?i)mine"]\n')
    recipes = recipebook.load(str(tmp_path))
    assert [r.id for r in recipes] == ["TFD999"]
    assert recipes[0].matches_message("it is MINE") and not recipes[0].matches_message("yours")


@pytest.mark.parametrize("pattern, texts", [
    (r"symbolic `tf\.Tensor` as a Python `bool`", ["symbolic `tf.Tensor` as a Python `bool`"]),
    ("unhashable|is not hashable", ["unhashable", "is not hashable"]),
    (r"(for|while)/else statement", ["/else statement"]),
    (r"(Symbolic)?Tensor' object", ["Tensor' object"]),
    (r"ab(cd)+e", ["ab"]), (r"a(bcd)+e", ["bcd"]), (r"x(abc)*y", ["x"]), (r"(?:abc|de)fg?h", ["abc", "de"]),
    ("(?i)tensor", [""]), ("a(?i:bcd)", ["a"]), (r"\w+", [""]), ("(x|)yz", ["yz"]),
    ("(?x) a b c  # comment", ["abc"]), (r"Tensor\(\"", ['Tensor("'])])
def test_required_texts_come_from_the_regexs_parse_tree(pattern, texts):
    assert recipe_index.required_texts(pattern) == texts


_SHIPPED_PATTERNS = sorted({p for r in recipebook.validate() for p in r.patterns})


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_every_match_of_a_shipped_regex_contains_one_of_its_required_texts(data):
    pattern = data.draw(st.sampled_from(_SHIPPED_PATTERNS))
    text = data.draw(st.from_regex(pattern))
    assert re.search(pattern, text)
    assert any(t in text for t in recipe_index.required_texts(pattern)), (pattern, text)


def test_recipes_are_parsed_from_their_lines_as_the_whole_file_gives_them(tmp_path):
    # the shipped layout: the head (files, words) parsed, each recipe a line parsed when a
    # diagnosis first reaches it; the same data as parsing the whole file
    with open(INDEX, encoding="utf-8") as fh:
        text = fh.read()
    data, whole = recipebook._index_data(text), json.loads(text)
    assert all(isinstance(row, str) for row in data["recipes"]), "the layout changed"
    assert [json.loads(row) for row in data["recipes"]] == whole["recipes"]
    assert {k: v for k, v in data.items() if k != "recipes"} == \
        {k: v for k, v in whole.items() if k != "recipes"}
    # an index laid out otherwise (indented by hand, say) is parsed whole and still used
    folder = tmp_path / "recipes"
    shutil.copytree(FOLDER, folder)
    (folder / recipebook.INDEX_NAME).write_text(json.dumps(whole, indent=1))
    index = recipebook._Index.read(folder)
    assert isinstance(index, recipebook._Index)
    assert [r.id for r in index.recipes] == [r.id for r in recipebook._Index.read().recipes]
