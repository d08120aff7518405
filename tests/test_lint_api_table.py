"""The linter's API facts come from TensorFlow: ``tools/tf_api.py`` regenerates
``tfdebug/lint/tf_api.json`` from the installed TF/Keras, and the committed table must match.

The facts the false alarms of hand-typed lists got wrong are pinned here, read from the table
and from lint's answers: ``tf.where`` with three arguments has the dtype of its branches,
``tf.clip_by_global_norm`` returns a Python tuple, ``tf.shape`` gives int32.
"""
import json
import os
import subprocess
import sys

import pytest
import tensorflow as tf

from tfdebug import lint
from tfdebug.lint import apis

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tfdebug", "lint", "tf_api.json")


def _table():
    with open(TABLE, encoding="utf-8") as fh:
        return json.load(fh)


def _same_tensorflow() -> bool:
    return _table()["tensorflow"] == tf.__version__


# The regeneration (about 60 s of CPU) starts in a fork of the case server when collection
# ends (where the table is for this TensorFlow) and runs while the tests before this one do.
# `--cache`: the table generated from the same inputs (tools/tf_api.py, the installed
# packages' files, Python, the TF_/KERAS_ environment) is read back instead of generated
# again; the comparison with the committed table is made every time.
# TFDEBUG_TF_API_CACHE=0 regenerates.
CACHE = () if os.environ.get("TFDEBUG_TF_API_CACHE") == "0" else ("--cache",)


@(pytest.mark.runs_early(os.path.join(ROOT, "tools", "tf_api.py"), *CACHE, cwd=ROOT,
                         timeout=1500)
  if _same_tensorflow() else lambda test: test)
def test_the_committed_table_is_what_the_installed_tensorflow_says(request):
    table = _table()
    if table["tensorflow"] != tf.__version__:
        pytest.skip(f"the table was generated on TF {table['tensorflow']}, this is "
                    f"{tf.__version__}: regenerate it there with tools/tf_api.py --update")
    proc = request.getfixturevalue("early_run")  # python tools/tf_api.py
    assert proc.returncode == 0, "the API table drifted from the installed TensorFlow " \
        "(run tools/tf_api.py --update and review the diff):\n" + proc.stdout[-3000:]


def test_the_cache_is_keyed_by_what_the_table_is_generated_from(tmp_path, monkeypatch):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import tf_api
    finally:
        sys.path.remove(os.path.join(ROOT, "tools"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = tf_api.cache_key()
    assert key == tf_api.cache_key()
    monkeypatch.setenv("TF_SOMETHING_NEW", "1")
    assert tf_api.cache_key() != key
    monkeypatch.delenv("TF_SOMETHING_NEW")
    monkeypatch.setattr(tf_api, "DTYPE_PARAMS", (*tf_api.DTYPE_PARAMS, "new_dtype"))
    assert tf_api.cache_key() != key
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    # a table kept under the key is compared, not generated again; one that no longer
    # matches the committed table is dropped; a generated one is kept only when it matches
    path = tmp_path / "tfdebug" / "tf_api" / f"{key}.json"
    path.parent.mkdir(parents=True)
    with open(TABLE, encoding="utf-8") as fh:
        committed = fh.read()

    def generate():
        raise AssertionError("generated again")

    monkeypatch.setattr(tf_api, "generate", generate)
    path.write_text(committed)
    assert tf_api.main(["--cache"]) == 0
    path.write_text(committed.replace('"kind": "tensor"', '"kind": "value"', 1))
    assert tf_api.main(["--cache"]) == 1
    assert not path.exists()
    monkeypatch.setattr(tf_api, "generate", lambda: json.loads(committed))
    path.write_text('{"tensorflow": ')  # torn
    assert tf_api.main(["--cache"]) == 0
    assert path.read_text() == committed
    monkeypatch.setattr(tf_api, "generate", lambda: {**json.loads(committed), "apis": {}})
    path.unlink()
    assert tf_api.main(["--cache"]) == 1
    assert not path.exists()


def test_table_facts_from_op_definitions_and_signatures():
    apis_ = _table()["apis"]
    assert apis_["tensorflow.where"]["dtype"] == {"1": "int64", "3": "@1"}
    assert apis_["tensorflow.shape"]["dtype"] == {"1": "int32"}
    assert apis_["tensorflow.clip_by_global_norm"]["kind"] == "tuple"
    assert "of" not in apis_["tensorflow.clip_by_global_norm"]  # (list of tensors, norm)
    assert apis_["tensorflow.linalg.normalize"] == {"kind": "tuple", "n": 2, "of": "tensor"}
    assert apis_["tensorflow.unstack"]["kind"] == "tensors"
    assert apis_["tensorflow.executing_eagerly"]["kind"] == "value"
    assert apis_["tensorflow.data.Dataset.from_tensor_slices"]["kind"] == "dataset"
    assert apis_["keras.Sequential"] == {"kind": "class", "of": "model"}


def kinds(source: str) -> dict:
    """name -> Kind of each module-level assignment inside a tf.function body."""
    from tfdebug.lint.facts import Context, _index, _Module
    from tfdebug.lint.walker import Walker
    import ast

    tree = ast.parse("import tensorflow as tf\nimport keras\n" + source)
    mod = _Module(tree, "t.py", [])
    _index(mod)
    walker = Walker(mod, tree, Context(True, True, "function"))
    walker.block(tree.body)
    return walker.env


def test_three_argument_where_has_the_dtype_of_its_branches():
    env = kinds("c = tf.constant(True)\nx = tf.constant([1.0])\n"
                "a = tf.where(c)\nb = tf.where(c, x, x)\nd = tf.where(c, 1, 0)\n")
    assert env["a"].dtype == "int"
    assert env["b"].dtype == "float"   # a hand-typed list had `where` as an int op
    assert env["d"].dtype == "int"


def test_a_tuple_returned_by_an_api_is_not_a_tensor():
    assert lint.lint_source(
        "import tensorflow as tf\n"
        "@tf.function\n"
        "def step(grads):\n"
        "    clipped, norm = tf.clip_by_global_norm(grads, 1.0)\n"
        "    return clipped, norm\n") == []
    env = kinds("g, n = tf.clip_by_global_norm([tf.ones([2])], 1.0)\n")
    assert env["g"] is None and env["n"] is None


def test_a_name_the_table_lacks_is_unknown_and_fires_nothing():
    # `tf.compat.v1.layers.dense` is no table entry: unknown, so unpacking it is silent
    assert lint.lint_source(
        "import tensorflow as tf\n"
        "@tf.function\n"
        "def f(x):\n"
        "    a, b = tf.some_future_op(x)\n"
        "    return a\n") == []
    assert apis.api_facts("tensorflow.some_future_op") is None


def test_dtype_parameters_set_the_dtype():
    env = kinds("a = tf.shape(tf.ones([2]))\nb = tf.shape(tf.ones([2]), out_type=tf.float32)\n"
                "c = tf.zeros([2])\nd = tf.zeros([2], dtype=tf.int32)\ne = tf.cast(c, DT)\n")
    assert (env["a"].dtype, env["b"].dtype, env["c"].dtype, env["d"].dtype) == (
        "int", "float", "float", "int")
    assert env["e"].what == "tensor" and env["e"].dtype is None  # a dtype it cannot read


def test_the_table_is_read_without_tensorflow():
    code = ("import sys\nfrom tfdebug import lint\n"
            "lint.lint_source('import tensorflow as tf\\n@tf.function\\ndef f(x):\\n"
            "    y = tf.where(x)\\n    return y\\n')\n"
            "from tfdebug.lint import apis\nassert apis._table, 'table not loaded'\n"
            "assert 'tensorflow' not in sys.modules and 'numpy' not in sys.modules\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_a_file_without_tensorflow_never_loads_the_table():
    code = ("import sys\nfrom tfdebug import lint\nfrom tfdebug.lint import apis\n"
            "lint.lint_source('x = [1]\\nprint(len(x))\\n')\nassert apis._table is None\n"
            "assert 'json' not in sys.modules\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_rows_read_one_by_one_give_what_the_whole_table_says(tmp_path):
    # the committed table is read a row at a time (bisection, each row parsed when asked):
    # every API's facts as the whole file parsed gives them, unknown names unknown
    rows = apis._Rows.read(TABLE)
    assert rows is not None, "tools/tf_api.py's layout (one API per line, in name order) changed"
    whole = _table()["apis"]
    assert all(rows.get(name) == facts for name, facts in whole.items())
    for name in ("tensorflow", "tensorflow.zeros_lik", "tensorflow.zeros_like_", "~", ""):
        assert rows.get(name) is None
    # another layout (not in name order, or indented otherwise) is read whole
    unordered = tmp_path / "unordered.json"
    unordered.write_text('{\n  "apis": {\n    "b": {"kind": "tensor"},\n'
                         '    "a": {"kind": "class"}\n  }\n}\n')
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"apis": {"a": {"kind": "class"}}}, indent=1))
    assert apis._Rows.read(str(unordered)) is None and apis._Rows.read(str(other)) is None
    assert apis._read_whole(str(unordered)) == {"b": {"kind": "tensor"}, "a": {"kind": "class"}}
