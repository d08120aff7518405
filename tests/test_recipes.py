"""The recipes: strict validation, every before/after really fails/works, lenient loading."""
import builtins
import json
import os
import re
import shutil
import textwrap
import time
import warnings

import pytest

from tfdebug import recipebook

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECIPES = os.path.join(ROOT, "recipes")


def _known_exception_names() -> set[str]:
    """Exception classes a recipe may name: builtins, tf.errors, TF framework and AutoGraph,
    and the lifting of variables' initial values out of a trace."""
    import tensorflow as tf
    from tensorflow.python.autograph.impl import api as ag_api
    from tensorflow.python.eager import lift_to_graph
    from tensorflow.python.autograph.pyct import errors as pyct_errors
    from tensorflow.python.framework import errors_impl

    names = {n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)}
    for module in (tf.errors, errors_impl, ag_api, pyct_errors, lift_to_graph):
        names |= {n for n, v in vars(module).items() if isinstance(v, type) and issubclass(v, BaseException)}
    return names


def test_every_recipe_file_is_valid_and_ids_are_unique():
    recipes = recipebook.validate()
    ids = [r.id for r in recipes]
    assert len(ids) == len(set(ids))
    assert len(recipes) >= 35
    for recipe, file in zip(recipes, sorted(f for f in os.listdir(RECIPES) if f.endswith(".toml"))):
        assert file == f"{recipe.id}.toml", "file name must be the id"
        assert recipe.category in recipebook.CATEGORIES
        assert recipe.docs.startswith("https://"), recipe.id
        assert recipe.before.strip() and recipe.after.strip(), recipe.id
        for pattern in recipe.messages:
            assert isinstance(pattern, re.Pattern)


def test_exception_names_are_real_classes():
    known = _known_exception_names()
    for recipe in recipebook.validate():
        unknown = set(recipe.errors) - known
        assert not unknown, f"{recipe.id} names unknown exception classes {unknown}"


def test_every_error_category_has_recipes():
    error_categories = {
        "tensor-as-bool", "tensor-iteration", "out-of-scope-tensor", "unhashable-tensor",
        "unknown-length", "unsupported-syntax", "autograph-conversion", "variable-creation",
        "numpy-in-graph", "loop-var-shape", "branch-mismatch", "dtype-mismatch", "keras-misuse",
        "data-pipeline", "unknown-shape", "string-format"}
    have = {r.category for r in recipebook.load() if r.errors}
    assert error_categories <= have, error_categories - have


def test_when_tags_and_blame_locators_are_implemented():
    from tfdebug.diagnosis import _LOCATORS

    assert set(recipebook.LOCATORS) == set(_LOCATORS)
    for recipe in recipebook.load():
        assert set(recipe.when) <= set(recipebook.TAGS)


# -- before raises, after runs: one TensorFlow import for all of them ---------------------

# The runner (a fork of the case server: TensorFlow imported, its runtime not started) forks
# a child per batch of snippets: the child runs them in turn as scripts (as a fresh process
# would, but for TensorFlow's import), so a snippet that configures devices before TensorFlow
# starts gets a child of its own and sees the runtime unstarted, as in a new process.
_RUNNER = textwrap.dedent('''
    import json, logging, os, runpy, signal, sys, tempfile
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import tensorflow as tf
    tf.get_logger().setLevel(logging.ERROR)
    from tensorflow.python.eager import context
    from tfdebug import recipebook
    from tfdebug.diagnosis import diagnose, _chain
    if getattr(getattr(context, "_context", None), "_initialized", False):
        raise RuntimeError("TensorFlow's runtime started before the fork")
    recipes, folder = recipebook.load(), tempfile.mkdtemp()

    def run(wanted, out_path):  # in a child: the snippets of one batch, in turn
        signal.alarm(600)
        out = {}
        for r in recipes:
            for kind in ("before", "after"):
                if f"{r.id}:{kind}" not in wanted:
                    continue
                path = os.path.join(folder, f"{r.id}_{kind}.py")
                with open(path, "w") as fh:
                    fh.write(getattr(r, kind))
                result = {"raised": None}
                try:
                    runpy.run_path(path, run_name="__main__")
                except Exception as exc:
                    names = sorted({c.__name__ for e in _chain(exc) for c in type(e).__mro__})
                    d = diagnose(exc)
                    result = {"raised": type(exc).__name__, "names": names,
                              "diagnosis": d.recipe.id if d else None,
                              "line": d.line if d else None, "file": d.file if d else None}
                finally:
                    tf.config.run_functions_eagerly(False)
                out[f"{r.id} {kind}"] = result
        with open(out_path, "w") as fh:
            json.dump(out, fh)

    batches, running, results = json.loads(sys.argv[1]), {}, {}
    jobs = max(1, min(2, os.cpu_count() or 1))
    for number, batch in enumerate(batches + [None] * jobs):
        while running and (batch is None or len(running) >= jobs):
            pid, status = os.wait()
            out_path = running.pop(pid)
            if os.path.exists(out_path):
                with open(out_path) as fh:
                    results.update(json.load(fh))
            else:
                print(f"a snippet child ended with status {status} and no results", file=sys.stderr)
        if batch is None:
            continue
        out_path = os.path.join(folder, f"results-{number}.json")
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                run(set(batch), out_path)
                code = 0
            finally:
                sys.stdout.flush()
                os._exit(code)
        running[pid] = out_path
    print("RESULT" + json.dumps(results))
''')


def _run_snippets(config, folder, batches):
    """The runner as `python RUNNER BATCHES` in a fork of the case server: TensorFlow
    imported, its runtime not started (the runner checks), as a fresh process but for the
    import."""
    from conftest import run_forked

    runner = folder / "snippet_runner.py"
    runner.write_text(_RUNNER)
    proc = run_forked(config, "test_recipes.py::snippet_results", runner, json.dumps(batches),
                      cwd=ROOT, env={"TF_CPP_MIN_LOG_LEVEL": "3"}, timeout=900)
    line = next((line for line in proc.stdout.splitlines() if line.startswith("RESULT")), None)
    assert line, proc.stderr[-3000:]
    return json.loads(line[len("RESULT"):])


def _needs_own_process(recipe) -> bool:
    """Snippets that configure devices (process-wide, only before TF initialises them), and
    a failing ``tf.scan`` in a tf.function, which leaves TensorFlow's variable scopes broken
    for the rest of the process (a TensorFlow bug: a later ``strategy.scope()`` raises
    "Caching devices is not yet supported when eager execution is enabled")."""
    return any("tf.config.set_" in code or "set_logical_device" in code or "tf.scan(" in code
               for code in (recipe.before, recipe.after))


@pytest.fixture(scope="module")
def snippet_results(request, tmp_path_factory):
    """Every recipe's before/after run as scripts: most in one process, a few alone."""
    recipes = recipebook.load()
    batches = [[f"{r.id}:{kind}" for r in recipes if not _needs_own_process(r)
                for kind in ("before", "after")]]
    batches += [[f"{r.id}:{kind}"] for r in recipes if _needs_own_process(r) for kind in ("before", "after")]
    results = _run_snippets(request.config, tmp_path_factory.mktemp("snippets"), batches)
    assert len(results) == sum(map(len, batches)), "a batch of snippets died: " + repr(
        sorted({item.replace(":", " ") for batch in batches for item in batch} - set(results)))
    return results


@pytest.mark.parametrize("recipe", recipebook.load(), ids=lambda r: r.id)
def test_before_fails_and_after_runs(recipe, snippet_results):
    after = snippet_results[f"{recipe.id} after"]
    assert after["raised"] is None, f"{recipe.id} after raised {after}"
    before = snippet_results[f"{recipe.id} before"]
    if not recipe.errors:  # a warning-type recipe: the problem is silent
        assert before["raised"] is None, f"{recipe.id} before raised {before}"
        return
    assert before["raised"], f"{recipe.id} before ran clean but should raise {recipe.errors}"
    assert set(recipe.errors) & set(before["names"]), (recipe.id, before)


@pytest.mark.parametrize("recipe", [r for r in recipebook.load() if r.id.startswith("TFD1")],
                         ids=lambda r: r.id)
def test_error_recipe_diagnoses_its_own_before(recipe, snippet_results):
    before = snippet_results[f"{recipe.id} before"]
    assert before["diagnosis"] == recipe.id, before
    # Code with no readable source (exec) is blamed at the user line that runs it.
    assert before["file"] and before["file"].endswith(f"{recipe.id}_before.py")


# -- lenient loading ------------------------------------------------------------------------

def _load_uncached(folder):
    return recipebook.load.__wrapped__(str(folder))


def _copy(tmp_path):
    folder = tmp_path / "recipes"
    shutil.copytree(RECIPES, folder, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    return folder


@pytest.mark.parametrize("text, key", [
    ('id = "TFD999"\ncategory = "tensor-as-bool"\ntitle = "t"\ncause = "c"\n', "fix"),
    ('id = "TFD999"\ncategory = "no-such"\ntitle = "t"\ncause = "c"\nfix = "f"\n', "category"),
    ('id = "TFD999"\ncategory = "dtype-mismatch"\ntitle = "t"\ncause = "c"\nfix = "f"\n'
     'messages = ["(unclosed"]\n', "messages"),
    ('id = "TFD999"\ncategory = "dtype-mismatch"\ntitle = "t"\ncause = "c"\nfix = "f"\n'
     'when = ["no-such-tag"]\n', "when"),
    ('id = "X1"\ncategory = "dtype-mismatch"\ntitle = "t"\ncause = "c"\nfix = "f"\n', "id"),
])
def test_broken_file_is_skipped_with_a_warning_naming_file_and_key(tmp_path, text, key):
    folder = _copy(tmp_path)
    clean = [r.id for r in _load_uncached(folder)]
    (folder / "TFD999.toml").write_text(text)
    with pytest.warns(RuntimeWarning) as caught:
        loaded = _load_uncached(folder)
    message = " ".join(str(w.message) for w in caught)
    assert "TFD999.toml" in message and repr(key) in message
    assert [r.id for r in loaded] == clean
    with pytest.raises(recipebook.RecipeError, match="TFD999.toml"):
        recipebook.validate(str(folder))


def test_bad_toml_duplicate_id_and_binary_file_are_skipped(tmp_path):
    folder = _copy(tmp_path)
    clean = [r.id for r in _load_uncached(folder)]
    (folder / "TFD997.toml").write_text("id = = broken")
    (folder / "TFD998.toml").write_bytes(b"\xff\xfe\x00garbage")
    (folder / "TFD999.toml").write_text((folder / "TFD101.toml").read_text())  # id TFD101 again
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loaded = _load_uncached(folder)
    text = " ".join(str(w.message) for w in caught)
    assert "TFD997.toml" in text and "TFD998.toml" in text and "TFD999.toml" in text
    assert [r.id for r in loaded] == clean


# -- matching -------------------------------------------------------------------------------

BOOL = "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed."
BOOL_NAMES = ["OperatorNotAllowedInGraphError", "TypeError", "Exception", "BaseException"]


def test_specific_recipe_wins_only_when_its_tags_hold():
    assert recipebook.match(BOOL_NAMES, BOOL, tags=set())[0].id == "TFD101"
    assert recipebook.match(BOOL_NAMES, BOOL, tags={"in-list"})[0].id == "TFD104"
    assert recipebook.match(BOOL_NAMES, BOOL)[0].id == "TFD101"  # text only: general first
    assert recipebook.match(["ValueError"], BOOL, tags=set()) == []


def test_search_pasted_text():
    assert recipebook.search("TypeError: Tensor is unhashable. Instead, use tensor.ref()")[0].id == "TFD118"
    assert recipebook.search("nothing like an error") == []
    # a class named in text no regex knows: only recipes that match by class alone
    assert recipebook.search("TypeError: Expected int32, but got 'a' of type 'str'.") == []
    # a recipe's `when` holds for text too: TFD125 (try/except around graph ops) answers
    # only text that shows a try body
    assert recipebook.search("OpError: the graph failed") == []
    assert [r.id for r in recipebook.search("OpError: the graph failed", tags={"try-body"})] == ["TFD125"]
    # Python's operator error on strategy.run's result; tensor_util's conversion check
    assert recipebook.search("TypeError: unsupported operand type(s) for *: 'PerReplica' and "
                             "'PerReplica'")[0].id == "TFD600"
    assert recipebook.search("TypeError: unsupported operand type(s) for +: 'float' and "
                             "'PerReplica'")[0].id == "TFD600"
    assert recipebook.search("TypeError: Expected int64, but got 0.5 of type 'float64'.")[0].id == "TFD161"


@pytest.mark.parametrize("filler", ["x", "Cannot convert a symbolic ", "Tensor(\"", "{{node cond",
                                    "has shape (1,) before the loop", "\x00\xff\u2603"])
def test_regexes_stay_fast_on_a_10_mb_message(filler):
    message = (filler * (10_000_000 // len(filler) + 1))[:10_000_000]
    start = time.perf_counter()
    for recipe in recipebook.load():
        recipe.matches_message(message)
    recipebook.search(message)
    assert time.perf_counter() - start < 2.0
