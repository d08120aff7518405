"""tfdebug lint: the static checker, on the real-world cases, fixed copies, examples and CLI."""
import io
import json
import os
import re

import pytest

from tfdebug import lint, recipebook

from conftest import CASES, CASES_EXTRA, ROOT, run_tfdebug

FIXED = os.path.join(ROOT, "tests", "lint_fixed")
EXAMPLES = os.path.join(ROOT, "examples")

# Cases whose pitfall is visible in the source: case file -> lines a finding may point at
# (the header's `line` first, then `also`). The category comes from the header.
SOURCE_VISIBLE = {
    "001_bool_keras_metric_ternary.py": {19},
    "003_bool_set_seed_with_tensor.py": {15},
    "006_bool_if_on_int_tensor_truthiness.py": {15},
    "009_iter_listcomp_over_tf_range.py": {15},
    "011_iter_enumerate_over_tensor.py": {16},
    "014_inaccessible_list_append_tf_range_add_n.py": {17},
    "016_unhashable_dict_lookup_in_dataset_map.py": {14},
    "018_len_of_tf_shape_in_keras_metric.py": {16},
    "021_try_except_does_not_catch_runtime_error.py": {16, 15},
    "023_generator_decorated_with_tf_function.py": {16, 14},
    "025_variable_created_inside_tf_function.py": {17},
    "028_retrace_python_float_argument.py": {20, 13, 14},
    "030_retrace_variable_length_inputs.py": {19, 13, 14},
    "032_side_effect_object_attribute_mutation.py": {23},
    "034_side_effect_print_in_both_branches.py": {19, 16},
    "036_side_effect_numpy_state_captured_loop_never_ends.py": {19, 23},
    "037_side_effect_external_list_append.py": {18},
    "039_numpy_np_arange_of_tensor.py": {17},
    "041_numpy_method_on_symbolic_tensor.py": {18},
    "043_autograph_two_lambdas_on_one_line.py": {12, 13},
    "045_loop_var_shape_grows_concat.py": {16, 17},
    "048_loop_var_dtype_int_then_float.py": {17, 15},
    "050_if_var_missing_in_else_branch.py": {15, 16},
    "052_if_branch_structure_mismatch.py": {15, 18, 16},
    "056_keras_tf_function_on_model_call_with_batchnorm.py": {20, 21, 22},
    "057_keras_missing_training_true_in_custom_loop.py": {21},
    "058_keras_layer_call_python_if_on_tensor.py": {17},
    "060_data_map_numpy_with_run_functions_eagerly.py": {16},
    "062_data_map_numpy_random_frozen.py": {13},
    "064_pyfunc_numpy_only_helper_needs_py_function.py": {15, 20},
    "065_pyfunc_output_unknown_shape_into_dense.py": {20},
    "066_fstring_print_shows_symbolic_tensor.py": {16},
    "067_fstring_builds_file_path_from_tensor.py": {20},
}
# Only visible when the code runs: which branch is invalid depends on the input's shape.
NOT_SOURCE_VISIBLE = {"054_if_both_branches_traced_index_out_of_range.py"}
# Found only with preview: the finding rests on the project's shape (Keras compiles `call`
# only where the model is trained with fit).
PREVIEW_ONLY = {"056_keras_tf_function_on_model_call_with_batchnorm.py",
                "065_pyfunc_output_unknown_shape_into_dense.py"}


def header(path):
    fields = {}
    for line in open(path, encoding="utf-8"):
        if not line.startswith("#"):
            break
        m = re.match(r"#\s*(\w+):\s*(.*)", line)
        if m:
            fields.setdefault(m.group(1), m.group(2).strip())
    return set(fields["category"].split("|")), fields["expect"], fields


def all_cases():
    return sorted(f for f in os.listdir(CASES) if f.endswith(".py"))


def test_every_case_is_classified():
    failing = {f for f in all_cases() if header(os.path.join(CASES, f))[1] in ("error", "warning")}
    assert failing == set(SOURCE_VISIBLE) | NOT_SOURCE_VISIBLE


@pytest.mark.parametrize("case", sorted(SOURCE_VISIBLE))
def test_finds_source_visible_case_at_its_line(case):
    path = os.path.join(CASES, case)
    categories, _, fields = header(path)
    assert int(fields["line"]) in SOURCE_VISIBLE[case]  # the table agrees with the header
    findings = lint.lint_file(path, preview=case in PREVIEW_ONLY)
    hits = [f for f in findings if f.category in categories and f.line in SOURCE_VISIBLE[case]]
    if case in PREVIEW_ONLY:
        assert not [f for f in lint.lint_file(path) if f.code == hits[0].code]
    assert hits, f"expected {categories} at {SOURCE_VISIBLE[case]}, got " + "; ".join(
        f.text() for f in findings)
    recipe = recipebook.get(hits[0].code)
    assert recipe.category == hits[0].category


@pytest.mark.parametrize("case", [f for f in all_cases()
                                  if header(os.path.join(CASES, f))[1] in ("none", "clean")])
def test_no_finding_of_the_category_on_cases_that_work(case):
    categories, expect, _ = header(os.path.join(CASES, case))
    findings = lint.lint_file(os.path.join(CASES, case))
    assert not [f.text() for f in findings if f.category in categories]
    if expect == "none":
        assert not findings, [f.text() for f in findings]


# Held-out cases (written after the linter's checks) whose pitfall the source shows.
EXTRA_SOURCE_VISIBLE = {
    "x301_iter_zip_over_tensors_in_train_step.py": "TFD111",
    "x304_variable_creation_dense_layer_inside_function.py": "TFD136",
    "x305_string_format_percent_of_tensor_step.py": "TFD177",
    "x306_keras_predict_inside_tf_function.py": "TFD167",
    "x308_out_of_scope_global_cache_across_functions.py": "TFD302",
    "x310_side_effect_history_append_in_keras_train_step.py": "TFD302",
    "x608_unhashable_list_indexed_by_label_in_map.py": "TFD119",
}


@pytest.mark.parametrize("case", sorted(EXTRA_SOURCE_VISIBLE))
def test_finds_held_out_case_at_its_line(case):
    path = os.path.join(CASES_EXTRA, case)
    _, _, fields = header(path)
    lines = {int(fields["line"])} | {int(a) for a in fields["also"].split(",") if a.strip().isdigit()}
    found = [(f.line, f.code) for f in lint.lint_file(path)]
    assert any(line in lines and code == EXTRA_SOURCE_VISIBLE[case] for line, code in found), found


@pytest.mark.parametrize("case", sorted(f for f in os.listdir(CASES_EXTRA) if f.endswith(".py")
                                         and header(os.path.join(CASES_EXTRA, f))[1] == "clean"))
def test_no_finding_of_the_category_on_held_out_clean_cases(case):
    categories, _, _ = header(os.path.join(CASES_EXTRA, case))
    findings = lint.lint_file(os.path.join(CASES_EXTRA, case))
    assert not [f.text() for f in findings if f.category in categories]


def test_fixed_versions_are_clean():
    fixed = sorted(f for f in os.listdir(FIXED) if f.endswith(".py"))
    assert set(fixed) == set(SOURCE_VISIBLE)
    assert lint.lint_paths([FIXED]) == []


# Examples that demonstrate bugs on purpose (their docstrings list them): lint must find
# at least these; every other example must be clean.
BROKEN_EXAMPLES = {
    "retracing.py": {"TFD202", "TFD204", "TFD210"},
    "side_effects.py": {"TFD300", "TFD301", "TFD302", "TFD304", "TFD305", "TFD306"},
    "train_broken.py": {"TFD115", "TFD202", "TFD300", "TFD320"},
    "notebook.ipynb": {"TFD101", "TFD140", "TFD202", "TFD300"},  # the pitfalls it demonstrates
}


def test_examples_are_clean_unless_broken_on_purpose():
    if not os.path.isdir(EXAMPLES):
        pytest.skip("no examples/ folder")
    by_file = {}
    for f in lint.lint_paths([EXAMPLES]):
        by_file.setdefault(os.path.basename(f.path), set()).add(f.code)
    for name, wanted in BROKEN_EXAMPLES.items():
        if os.path.exists(os.path.join(EXAMPLES, name)):
            assert wanted <= by_file.get(name, set()), (name, by_file.get(name))
    clean = {k: v for k, v in by_file.items() if k not in BROKEN_EXAMPLES}
    assert not clean, clean


def test_every_cited_recipe_exists_with_its_category():
    recipes = {r.id: r for r in recipebook.validate()}
    for check, (code, category) in lint.CHECKS.items():
        assert code in recipes, f"{check} cites {code}, which has no recipe"
        assert recipes[code].category == category, (check, code, recipes[code].category)


# --------------------------------------------------------------------------- heuristics

TF = "import tensorflow as tf\nimport numpy as np\nimport keras\n"


def codes(source, preview=False):
    return [(f.line, f.code) for f in lint.lint_source(source, "t.py", header=TF,
                                                       preview=preview)]


def test_autograph_converted_code_is_not_flagged():
    assert codes(
        "@tf.function\n"
        "def f(x, y):\n"
        "    if x > 0 and not y < 10:\n"
        "        x = x + 1\n"
        "    while x > 0:\n"
        "        x -= 1\n"
        "    z = x if x > 0 else -x\n"
        "    n = len(x)\n"
        "    for v in x:\n"
        "        z += v\n"
        "    return z\n"
        "f(tf.constant([1.0]), tf.constant(2.0))\n") == []


def test_unknown_tensorness_stays_silent():
    # parameters of a tf.function called from nowhere may be Python values: no finding
    assert codes(
        "@tf.function\n"
        "def f(x, flag, items):\n"
        "    if flag:\n"
        "        x = x * 2\n"
        "    for i, v in enumerate(items):\n"
        "        x += v\n"
        "    a, b = items\n"
        "    return x\n") == []


def test_keras_call_is_not_converted():
    found = codes(
        "class L(keras.layers.Layer):\n"
        "    def call(self, x, training=None):\n"
        "        if training:\n"
        "            x = x * 2\n"
        "        s = tf.reduce_sum(x)\n"
        "        assert s > 0\n"
        "        return x if s > 0 else -x\n")
    assert found == [(6, "TFD103"), (7, "TFD105")]


def test_tensor_unpacking_and_multi_output_ops():
    found = codes(
        "@tf.function\n"
        "def f(x):\n"
        "    h, w = tf.shape(x)\n"
        "    mean, var = tf.nn.moments(x, axes=[0])\n"
        "    a, b = tf.unstack(x)\n"
        "    return h\n")
    assert found == [(3, "TFD110")]


def test_autograph_false_is_not_converted():
    found = codes(
        "@tf.function(autograph=False)\n"
        "def f(x):\n"
        "    s = tf.reduce_sum(x)\n"
        "    if s > 0:\n"
        "        return x\n"
        "    return -x\n")
    assert found == [(4, "TFD101")]


def test_variable_guarded_by_if_is_fine_and_factory_is_fine():
    assert codes(
        "class C:\n"
        "    v = None\n"
        "    @tf.function\n"
        "    def __call__(self, x):\n"
        "        if self.v is None:\n"
        "            self.v = tf.Variable(1.0)\n"
        "        return x * self.v\n"
        "def make_step():\n"
        "    @tf.function\n"
        "    def step(x):\n"
        "        return x\n"
        "    return step\n") == []


def test_tf_function_made_inside_a_loop_or_a_function_called_in_one():
    source = ("def run(x):\n"
              "    @tf.function\n"
              "    def step(y):\n"
              "        return y * 2\n"
              "    return step(x) + 1\n"
              "for i in range(3):\n"
              "    run(tf.constant(1.0))\n"
              "    g = tf.function(lambda z: z)\n")
    # `g` is made per iteration but never called there: no retrace is proven (preview only)
    assert codes(source) == [(3, "TFD204")]
    assert codes(source, preview=True) == [(3, "TFD204"), (8, "TFD204")]


def test_dataset_functions_params_are_tensors():
    found = codes(
        "def parse(x):\n"
        "    print(x)\n"
        "    return {x: 1}, x.numpy()\n"
        "ds = tf.data.TFRecordDataset(['a']).map(parse, num_parallel_calls=tf.data.AUTOTUNE)\n"
        "class NotData:\n"
        "    def map(self, fn):\n"
        "        return fn\n"
        "NotData().map(lambda y: y.numpy())\n")
    assert found == [(2, "TFD300"), (3, "TFD118"), (3, "TFD145")]


def test_raise_and_logging_messages_may_format_tensors():
    assert codes(
        "import logging\n"
        "@tf.function\n"
        "def f(x):\n"
        "    s = tf.reduce_sum(x)\n"
        "    logging.info(f'{s}')\n"
        "    if s.shape.rank != 0:\n"
        "        raise ValueError(f'bad {s}')\n"
        "    return s\n"
        "f(tf.constant([1.0]))\n") == []


def test_eager_guarded_code_is_fine():
    assert codes(
        "@tf.function\n"
        "def f(x):\n"
        "    if tf.executing_eagerly():\n"
        "        print(x.numpy())\n"
        "    return x\n") == []


def test_format_spec_and_str_format():
    found = codes(
        "@tf.function\n"
        "def f(x):\n"
        "    s = tf.reduce_sum(x)\n"
        "    a = f'{s:.2f}'\n"
        "    b = 'loss {}'.format(s)\n"
        "    return s\n")
    assert found == [(4, "TFD176"), (5, "TFD175")]


def test_side_effects_and_stale_state():
    found = codes(
        "import random, time\n"
        "seen = []\n"
        "lr = 0.1\n"
        "@tf.function\n"
        "def f(x):\n"
        "    global count\n"
        "    count = 1\n"
        "    seen.append(x)\n"
        "    r = random.random() + time.time()\n"
        "    return x * lr\n"
        "for epoch in range(2):\n"
        "    lr = lr / 2\n"
        "    f(tf.constant(1.0))\n")
    assert found == [(7, "TFD301"), (8, "TFD302"), (9, "TFD304"), (9, "TFD305"),
                     (10, "TFD210")]


def test_return_in_tensor_loop_and_float_meets_int():
    found = codes(
        "@tf.function\n"
        "def f(n):\n"
        "    half = tf.range(5) * 0.5 + tf.range(n) * 0.5\n"
        "    for i in tf.range(n):\n"
        "        if i > 2:\n"
        "            return i\n"
        "    return n\n")
    assert found == [(3, "TFD161"), (6, "TFD127")]


def test_helpers_called_from_graph_code_are_checked():
    found = codes(
        "def helper(t):\n"
        "    return np.mean(t)\n"
        "class M:\n"
        "    def _inner(self, t):\n"
        "        return t.numpy()\n"
        "    @tf.function\n"
        "    def run(self, x):\n"
        "        return helper(tf.square(x)) + self._inner(x)\n")
    assert found == [(2, "TFD141"), (5, "TFD140")]


def test_files_without_tensorflow_are_skipped():
    assert lint.lint_source("def f(x):\n    print(x)\n    return x.numpy()\n") == []


def test_never_raises_on_odd_source():
    deep = "x = " + " + ".join(["tf.constant(1)"] * 3000) + "\n"
    for source in (deep, "def f(:\n", "\x00", "@tf.function\ndef f():\n    yield\n" * 50,
                   "(" * 300 + ")" * 300, "class A(keras.Model):\n    def call(self): ...\n"):
        findings = lint.lint_source(source, "odd.py", header=TF)
        assert all(f.code != lint.INTERNAL_ERROR for f in findings), findings


# --------------------------------------------------------------------------- suppression & options

def test_noqa_and_tfdebug_ignore():
    body = ("@tf.function\n"
            "def f(x):\n"
            "    print(x)  # noqa: TFD300\n"
            "    print(x)  # noqa\n"
            "    print(x)  # tfdebug: ignore[trace-time-side-effect]\n"
            "    print(x)  # tfdebug: ignore\n"
            "    print(x)  # noqa: E501\n"
            "    print(x)  # tfdebug: ignore[TFD101]\n"
            "    return x\n")
    assert codes(body) == [(7, "TFD300"), (8, "TFD300")]


def test_select_and_ignore_by_id_prefix_and_category():
    opts = lint.Options(select=lint.check_selectors(["trace-time-side-effect"], "--select"))
    assert opts.wants("TFD300", "trace-time-side-effect")
    assert not opts.wants("TFD101", "tensor-as-bool")
    opts = lint.Options(ignore=lint.check_selectors(["TFD1", "TFD300"], "--ignore"))
    assert not opts.wants("TFD140", "numpy-in-graph")
    assert not opts.wants("TFD300", "trace-time-side-effect")
    assert opts.wants("TFD302", "trace-time-side-effect")
    with pytest.raises(lint.LintUsageError, match="'nonsense'.*recipe id"):
        lint.check_selectors(["nonsense"], "--select")


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as fh:
        fh.write(text)


def test_main_config_exit_codes_and_broken_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(str(tmp_path / "pkg" / "bad.py"),
          TF + "@tf.function\ndef f(x):\n    print(x)\n    return x.numpy()\n")
    write(str(tmp_path / "pkg" / "syntax.py"), "def f(:\n")
    write(str(tmp_path / "pkg" / "latin.py"), b"# caf\xe9\nx = 1\n", mode="wb")
    write(str(tmp_path / "pkg" / "gen" / "skip.py"), TF + "@tf.function\ndef f(x):\n    print(x)\n")
    os.symlink(str(tmp_path / "nowhere.py"), str(tmp_path / "pkg" / "dangling.py"))
    write(str(tmp_path / "pyproject.toml"),
          '[tool.tfdebug]\nignore = ["numpy-in-graph"]\nexclude = ["gen"]\n')

    out, err = io.StringIO(), io.StringIO()
    assert lint.main(["pkg"], out=out, err=err) == 1
    lines = out.getvalue().splitlines()
    assert "pkg/bad.py:6:5: TFD300 `print()` in traced code runs once per trace, not once per " \
           "call; use tf.print" in lines
    assert not any("TFD140" in line or "skip.py" in line for line in lines)
    assert any(line.startswith("pkg/syntax.py:1:7: E999 SyntaxError:") for line in lines)
    assert any(line.startswith("pkg/latin.py:1:1: E902 not valid utf-8") for line in lines)
    assert any(line.startswith("pkg/dangling.py:1:1: E902 cannot read file") for line in lines)

    out = io.StringIO()
    assert lint.main(["pkg/bad.py"], fmt="json", select=["TFD3"], out=out, err=err) == 1
    data = json.loads(out.getvalue())
    assert [(d["line"], d["code"], d["category"]) for d in data] == [(6, "TFD300", "trace-time-side-effect")]
    assert data[0]["title"] == recipebook.get("TFD300").title

    assert lint.main(["pkg/bad.py"], select=["tensor-as-bool"], out=io.StringIO(), err=err) == 0
    err = io.StringIO()
    assert lint.main(["missing.py"], out=io.StringIO(), err=err) == 2
    assert "missing.py: no such file or directory" in err.getvalue()
    write(str(tmp_path / "pyproject.toml"), '[tool.tfdebug]\nselect = "TFD999x"\n')
    err = io.StringIO()
    assert lint.main(["pkg/bad.py"], out=io.StringIO(), err=err) == 2
    assert "pyproject.toml [tool.tfdebug] select: 'TFD999x'" in err.getvalue()


def test_cli_subprocess(tmp_path):
    write(str(tmp_path / "ok.py"), TF + "@tf.function\ndef f(x):\n    return x + 1\n")
    write(str(tmp_path / "bad.py"), TF + "@tf.function\ndef f(x):\n    return x.numpy()\n")
    clean = run_tfdebug("lint", "ok.py", cwd=str(tmp_path))
    assert (clean.returncode, clean.stdout) == (0, ""), clean.stderr
    dirty = run_tfdebug("lint", "--format", "json", ".", cwd=str(tmp_path))
    assert dirty.returncode == 1, dirty.stderr
    assert [(d["file"], d["line"], d["code"]) for d in json.loads(dirty.stdout)] == [
        ("bad.py", 6, "TFD140")]
    usage = run_tfdebug("lint", "--select", "bogus", "ok.py", cwd=str(tmp_path))
    assert usage.returncode == 2 and "--select: 'bogus'" in usage.stderr


def test_keras_package_source_does_not_crash():
    import keras
    folder = os.path.join(os.path.dirname(keras.__file__), "src", "layers")
    findings = lint.lint_paths([folder], lint.Options(jobs=1))
    assert not [f.text() for f in findings if f.code in (lint.INTERNAL_ERROR, lint.SYNTAX_ERROR)]


def test_pre_commit_hook_runs_tfdebug_lint():
    text = open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8").read()
    assert "id: tfdebug-lint" in text and "entry: tfdebug lint" in text and "types: [python]" in text


def test_item_assignment_and_self_containers_in_traced_code():
    found = codes(
        "cache = {}\n"
        "@tf.function\n"
        "def fit(x):\n"
        "    cache['scale'] = tf.reduce_max(x)\n"
        "    return x\n"
        "class M(keras.Model):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.history = []\n"
        "        self.dense = keras.layers.Dense(1)\n"
        "    def train_step(self, data):\n"
        "        local = []\n"
        "        local.append(data)\n"
        "        self.history.append(data)\n"
        "        return {}\n")
    assert found == [(4, "TFD302"), (14, "TFD302")]


def test_numeric_percent_format_and_keras_loops_in_traced_code():
    found = codes(
        "model = keras.Sequential([keras.layers.Dense(1)])\n"
        "@tf.function\n"
        "def f(step):\n"
        "    a = 'step %d' % step\n"
        "    b = 'step %s' % step\n"
        "    c = 'plain %d' % 3\n"
        "    return model.predict(step)\n"
        "model.predict(tf.ones([1, 1]))\n"
        "f(tf.constant(1))\n")
    assert found == [(4, "TFD177"), (5, "TFD175"), (7, "TFD167")]


def test_function_made_anew_in_the_loop_sees_the_new_global():
    found = codes(
        "x = tf.ones([4])\n"
        "for epoch in range(3):\n"
        "    scale = tf.constant(float(epoch))\n"
        "    step = tf.function(lambda v: tf.reduce_sum(v * scale))\n"
        "    step(x)\n"
        "@tf.function\n"
        "def kept(v):\n"
        "    return v * scale\n"
        "for epoch in range(3):\n"
        "    scale = tf.constant(float(epoch))\n"
        "    kept(x)\n")
    assert found == [(4, "TFD204"), (8, "TFD210")]


def test_branches_that_never_run_while_tracing_are_quiet_and_their_else_is_not():
    found = codes(
        "VERBOSE = False\n"
        "history = []\n"
        "@tf.function\n"
        "def step(x):\n"
        "    if tf.executing_eagerly():\n"
        "        print('eager', x)\n"
        "        history.append(x)\n"
        "    else:\n"
        "        print('tracing')\n"
        "    if not tf.executing_eagerly():\n"
        "        print('tracing too')\n"
        "    else:\n"
        "        history.append(x)\n"
        "    if VERBOSE:\n"
        "        print('verbose')\n"
        "    return x\n"
        "step(tf.constant(1.0))\n")
    assert found == [(9, "TFD300"), (11, "TFD300")]
    rebound = codes(
        "VERBOSE = False\n"
        "@tf.function\n"
        "def step(x):\n"
        "    if VERBOSE:\n"
        "        print('verbose')\n"
        "    return x\n"
        "for i in range(3):\n"
        "    VERBOSE = i > 1\n"
        "    step(tf.constant(1.0))\n")
    assert (5, "TFD300") in rebound


def test_a_flag_rebound_elsewhere_is_not_off_for_good():
    source = ("VERBOSE = False\n"
              "class Config:\n"
              "    keep = False\n"
              "cfg = Config()\n"
              "@tf.function\n"
              "def step(x):\n"
              "    if VERBOSE:\n"
              "        print('verbose')\n"
              "    if cfg.keep:\n"
              "        print('keep')\n"
              "    return x\n"
              "step(tf.constant(1.0))\n")
    assert codes(source) == []
    rebinding = "def louder():\n    global VERBOSE\n    VERBOSE = True\ncfg.keep = True\n"
    assert codes(source + rebinding) == [(8, "TFD300"), (10, "TFD300")]


def test_one_vocabulary_with_the_side_effect_guard():
    """lint and the side-effect guard read one table per API fact (they had drifted apart:
    13 vs 20 mutators, 11 vs 18 clocks, 4 vs 5 Keras traced methods)."""
    from tfdebug import _effects, _vocab

    assert _effects.ENTRY_METHODS is _vocab.KERAS_TRACED_METHODS
    assert set(_vocab.CLOCK_READS) <= set(_effects.CALLS["clock"])
    assert _effects.MUTATORS is _vocab.MUTATORS
    # what lint reports now, and did not before
    assert codes("history = []\n@tf.function\ndef f(x):\n    history.sort()\n"
                 "    history.reverse()\n    return x\n") == [(4, "TFD302"), (5, "TFD302")]
    assert codes("import time, datetime\n@tf.function\ndef f(x):\n"
                 "    t = time.perf_counter_ns()\n    d = datetime.datetime.today()\n"
                 "    return x\n") == [(4, "TFD305"), (5, "TFD305")]
    assert codes("class M(keras.Model):\n    def compute_loss(self, x=None, y=None, y_pred=None,"
                 " sample_weight=None):\n        return y_pred.numpy()\n") == [(3, "TFD140")]
    assert codes("class M(keras.Model):\n    def compute_loss(self, x=None, y=None, y_pred=None,"
                 " sample_weight=None):\n        print('loss')\n        return 0.0\n") == [
        (3, "TFD300")]
    assert codes("ds = tf.data.Dataset.range(3)\n"
                 "ds = ds.map(lambda x: tf.py_func(np.sin, [x], tf.float32))\n",
                 preview=True) == [(2, "TFD170")]


def test_tf_function_per_loop_object_is_left_alone_but_per_batch_is_not():
    # one function per augmentation layer, on purpose: each iteration needs its own trace
    assert codes(
        "for aug in [keras.layers.RandomFlip, keras.layers.RandomZoom]:\n"
        "    layer = aug()\n"
        "    @tf.function\n"
        "    def apply(x):\n"
        "        return layer(x)\n"
        "    apply(tf.ones((1, 4, 4, 3)))\n") == []
    # a counter, a dataset batch or a tensor made in the loop is data: pass it as an argument
    for loop, value in (("for i in range(3):", "i"),
                        ("for i, name in enumerate(names):", "i"),
                        ("for batch in tf.data.Dataset.range(3):", "batch"),
                        ("for i in range(3):\n    t = tf.constant(i)", "t")):
        source = (f"names = ['a']\n{loop}\n    @tf.function\n    def step(x):\n"
                  f"        return x * {value}\n    step(tf.constant(1))\n")
        assert (loop.count("\n") + 3 + 1, "TFD204") in codes(source), loop


def test_tf_function_on_call_is_flagged_only_where_weights_are_built():
    weightless = ("class Flip(keras.layers.Layer):\n"
                  "    @tf.function\n"
                  "    def call(self, x):\n"
                  "        return self._flip(x)\n"
                  "    def _flip(self, x):\n"
                  "        return tf.reverse(x, [1])\n")
    with_layer = ("class Model(keras.Model):\n"
                  "    def __init__(self):\n"
                  "        super().__init__()\n"
                  "        self.dense = keras.layers.Dense(1)\n"
                  "    @tf.function\n"
                  "    def call(self, x):\n"
                  "        return self.dense(x)\n")
    held = ("class Wrap(keras.Model):\n"
            "    def __init__(self, cell):\n"
            "        super().__init__()\n"
            "        self.cell = cell\n"
            "    @tf.function\n"
            "    def call(self, x):\n"
            "        return self.cell(x)\n")
    assert [c for _, c in codes(weightless, preview=True)] == []
    assert (5, "TFD165") in codes(with_layer, preview=True)
    assert (5, "TFD165") in codes(held, preview=True)
    # inferred (Keras compiles `call` only where the project trains with fit): preview only
    assert (5, "TFD165") not in codes(with_layer)


def test_unpacking_a_tuple_returning_op_is_not_iterating_a_tensor():
    assert codes("@tf.function\ndef f(x):\n    y, norm = tf.linalg.normalize(x)\n    return y\n") == []
