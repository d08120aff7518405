"""The layered matcher: message family, the construct at the line, then a generic diagnosis.

Held-out graph-mode failures (tests/cases_graph, written from TensorFlow's raise sites, not
from the recipes) must each end with a diagnosis at the right user line: a recipe's category
where one applies, a generic diagnosis otherwise. ``# category: generic:X`` expects a generic
diagnosis of category X (``-``: no category).
"""
import contextlib
import importlib
import json
import os

import numpy as np
import pytest
import tensorflow as tf

from conftest import ROOT, end_to_end_cases, line_of, raised_by

import tfdebug
from tfdebug import _tf, lint
diagnose_module = importlib.import_module("tfdebug.diagnosis")
diagnose = diagnose_module.diagnose
GRAPH_CASES = sorted(os.path.join(ROOT, "tests", "cases_graph", f)
                     for f in os.listdir(os.path.join(ROOT, "tests", "cases_graph")) if f.endswith(".py"))


def _header(path):
    fields = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("#"):
                break
            key, _, value = line[1:].partition(":")
            fields[key.strip()] = value.strip()
    lines = {int(fields["line"])} | {int(n) for n in fields.get("also", "").split(",") if n.strip().isdigit()}
    return fields["category"], lines


END_TO_END_CASES = end_to_end_cases(GRAPH_CASES, lambda case: _header(case)[0].startswith("generic:"))


@pytest.mark.parametrize("case", GRAPH_CASES, ids=os.path.basename)
def test_held_out_graph_failure_is_never_silent(case, case_run):
    expected, lines = _header(case)
    proc, report = case_run
    assert proc.returncode == 1 and report["status"] == "error", proc.stderr[-2000:]
    first = report["diagnostics"][0]
    assert first["severity"] == "error" and first["line"] in lines, first
    assert os.path.samefile(first["file"], case) and first["code"]
    if expected.startswith("generic:"):
        category = expected.split(":", 1)[1]
        assert first["generic"] is True and first["recipe"] is None, first
        assert first["category"] == (None if category == "-" else category), first
        assert "tfdebug generic" in proc.stderr and "no recipe explains this" in proc.stderr
    else:
        assert first["generic"] is False and first["recipe"], first
        assert first["category"] in expected.split("|"), first
    # The traceback shows the user's code, not AutoGraph's generated file (TensorFlow's own
    # log records, printed before it, are not tfdebug's to change).
    traceback_text = proc.stderr[proc.stderr.find("Traceback (most recent call last)"):]
    assert "__autograph_generated_file" not in traceback_text


# Every held-out failure that ends with no category, and why none is claimed (README.md's
# diagnosis section lists the groups): "run-time", an OpError raised while a graph runs, not
# while it is built; "eager-too", the same exception class when functions run eagerly (not a
# graph-mode failure); "no-category", raised while building a graph, by Python refusing a
# symbolic tensor where a Python number is needed (`int(t)`), which no category names.
UNCATEGORISED = {
    "b21": "eager-too", "h12": "eager-too", "h23": "eager-too", "h30": "eager-too",
    "h31": "eager-too", "h37": "eager-too",
    "h34": "run-time", "h53": "run-time", "h54": "run-time", "h62": "run-time",
    "h48": "no-category", "h49": "no-category",
}

_RUN_BOTH_WAYS = """
import contextlib, io, json, os, runpy, sys
import tensorflow as tf
out = {}
for path in sys.argv[1:]:
    row = []
    for eagerly in (False, True):
        tf.config.run_functions_eagerly(eagerly)
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                runpy.run_path(path, run_name="__main__")
            row.append(None)
        except Exception as exc:
            row.append([type(exc).__name__, isinstance(exc, tf.errors.OpError)])
    out[os.path.basename(path)[:3]] = row
print(json.dumps(out))
"""


def test_every_uncategorised_failure_is_listed_with_its_reason(tmp_path):
    """The generic cases without category are exactly the listed ones, and each reason holds:
    run-time ones raise an OpError; eager-too ones raise the same class with functions run
    eagerly; no-category ones raise only in graph mode, and not an OpError."""
    uncategorised = {os.path.basename(c)[:3]: c for c in GRAPH_CASES if _header(c)[0] == "generic:-"}
    assert sorted(uncategorised) == sorted(UNCATEGORISED)
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", _RUN_BOTH_WAYS, *uncategorised.values()],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert proc.returncode == 0, proc.stderr[-2000:]
    outcomes = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, reason in UNCATEGORISED.items():
        graph, eager = outcomes[name]
        assert graph is not None, name
        if reason == "run-time":
            assert graph[1], (name, graph)
        elif reason == "eager-too":
            assert eager is not None and eager[0] == graph[0], (name, graph, eager)
        else:
            assert eager is None and not graph[1], (name, graph, eager)


# -- in-process: each layer on its own ------------------------------------------------------

@tf.function
def _loop_dtype(n):
    total = tf.constant(0)
    for i in tf.range(n):
        total = tf.cast(i, tf.float32) * 0.5  # <- cause
    return total


@tf.function
def _numpy(x):
    return x.numpy() + 1  # <- numpy


@tf.function
def _own_error(x):
    raise ValueError("the user's own check")


def _line(fn, marker):
    import inspect

    lines, first = inspect.getsourcelines(getattr(fn, "python_function", fn))
    return first + next(i for i, text in enumerate(lines) if marker in text)


@pytest.mark.smoke
def test_generic_diagnosis_has_no_recipe_and_says_so():
    exc = raised_by(_loop_dtype, tf.constant(3))
    d = diagnose(exc)
    assert d.generic and d.recipe is None and d.layer == "generic"
    assert d.category == "loop-var-shape"  # AutoGraph's loop check raised it
    finding = d.finding().to_json()
    assert finding["generic"] is True and finding["recipe"] is None
    assert finding["category"] == "loop-var-shape" and finding["line"] == d.line
    text = d.note()
    assert text.startswith("tfdebug generic loop-var-shape: no recipe explains this TypeError")
    assert "\n  note:   generic diagnosis" in text and "\n  error:  TypeError: 'total' has dtype" in text
    assert "\n  fix:" not in text and "\n  cause:" not in text


@pytest.mark.smoke
def test_named_variable_blames_its_assignment_with_tensorflows_line_as_context():
    exc = raised_by(_loop_dtype, tf.constant(3))
    d = diagnose(exc)
    assert d.line == _line(_loop_dtype, "<- cause")
    assert d.symptom is not None and d.symptom.line == _line(_loop_dtype, "for i in")
    assert "named: TensorFlow reported" in " ".join(d.note().split())


@pytest.mark.smoke
def test_construct_at_the_line_decides_when_the_message_is_unknown():
    exc = raised_by(_numpy, tf.constant(1.0))
    assert diagnose(exc).recipe.id == "TFD140"  # layer (a): the message family
    # The same real error as a TensorFlow version that words it differently would raise it.
    exc.args = ("a message no recipe has seen",)
    for e in diagnose_module._chain(exc)[1:]:
        e.args = ("a message no recipe has seen",)
    d = diagnose(exc)
    assert d.recipe is not None and d.recipe.id == "TFD140" and d.layer == "construct", d
    assert d.line == _line(_numpy, "<- numpy")
    assert "match: AttributeError at a line `tfdebug lint` flags TFD140" in " ".join(d.note().split())


@pytest.mark.smoke
def test_findings_at_asks_the_linter_about_one_line():
    line = _line(_numpy, "<- numpy")
    assert "TFD140" in [f.code for f in lint.findings_at(__file__, line)]
    assert lint.findings_at(__file__, line + 1) == [] or all(
        f.line == line + 1 for f in lint.findings_at(__file__, line + 1))
    assert lint.findings_at("/no/such/file.py", 3) == []
    assert lint.findings_at(None, None) == []


@pytest.mark.smoke
def test_users_own_errors_and_errors_without_tensorflow_get_nothing():
    assert diagnose(raised_by(lambda: {}["missing"])) is None
    assert diagnose(raised_by(_own_error, tf.constant(1))) is None


def _checked(scale):
    if scale <= 0.0:
        raise ValueError("scale must be positive")  # <- raise
    return scale


@tf.function
def _raise_in_tensor_branch(x, scale):
    return x * _checked(scale)


@tf.function
def _raise_under_python_if_in_else_branch(x, strict):
    if tf.reduce_sum(x) > 0.0:
        x = x * 2.0
    else:
        if strict:
            raise ValueError("negative input")  # <- nested
    return x


@tf.function
def _raise_in_helper_called_from_branch(x, scale):
    if tf.reduce_sum(x) > 0.0:
        x = x * _checked(scale)
    return x


@tf.function
def _raise_in_staged_loop(n):
    for _ in tf.range(n):
        raise ValueError("the loop body runs once while tracing, as once eagerly")
    return n


class _Sized:
    def __init__(self, values, length=None):
        self.values, self.length = values, length

    def __len__(self):
        return tf.shape(self.values)[0] if self.length is None else self.length


@tf.function
def _len_converted(values):
    return tf.eye(len(_Sized(values)))  # <- converted len


@tf.function(autograph=False)
def _len_unconverted(values):
    sized = _Sized(values)
    return tf.eye(len(sized))  # <- plain len


@tf.function(autograph=False)
def _range_unconverted(n):
    return tf.constant(list(range(n)))  # Python's range refuses the tensor: not a length


def test_len_refusing_the_tensor_a_dunder_len_returned_is_unknown_length():
    for fn, marker in ((_len_converted, "# <- converted len"), (_len_unconverted, "# <- plain len")):
        exc = raised_by(fn, tf.ones([3, 2]))
        d = diagnose(exc)
        assert d is not None and d.recipe.id == "TFD123" and d.category == "unknown-length", (fn, d)
        assert d.line == _line(fn, marker)
    # the same refusal by another builtin, or len() refusing a float, is not this recipe
    d = diagnose(raised_by(_range_unconverted, tf.constant(3)))
    assert d is None or d.recipe is None or d.recipe.id != "TFD123"
    with pytest.raises(TypeError):
        len(_Sized(None, length=2.0))
    assert "len-of-tensor-length" not in diagnose_module.extract(raised_by(len, _Sized(None, 2.0))).tags


@tf.function
def _py_function_holding_graph_tensor(x):
    factor = tf.reduce_max(x)
    return tf.py_function(lambda: float(factor.numpy()) * 2.0, inp=[], Tout=tf.float32)  # <- held


def _failing_body(value):
    raise ValueError(f"bad value {float(value)}")  # <- own


@tf.function
def _py_function_own_error(x):
    return tf.py_function(_failing_body, inp=[x], Tout=tf.float32)


def test_a_python_function_run_by_the_graph_that_holds_a_graph_tensor_is_out_of_scope():
    d = diagnose(raised_by(_py_function_holding_graph_tensor, tf.ones([3])))
    assert d is not None and d.recipe.id == "TFD114" and d.category == "out-of-scope-tensor", d
    assert d.line == _line(_py_function_holding_graph_tensor, "# <- held")


def test_a_python_functions_own_error_at_run_time_is_blamed_at_its_line_without_a_claim():
    exc = raised_by(_py_function_own_error, tf.constant(2.0))
    assert "py-func-graph-tensor" not in diagnose_module.extract(exc).tags
    d = diagnose(exc)
    assert d is not None and (d.recipe is None or d.category != "out-of-scope-tensor"), d
    assert d.line == _line(_failing_body, "# <- own")  # Python's traceback in the op's message


@tf.function
def _too_specific_invariant(x):
    return tf.while_loop(lambda v: tf.size(v) < 8, lambda v: tf.concat([v, v], 0), [x],
                         shape_invariants=[tf.TensorShape([2])])  # <- invariant


def test_a_tensor_with_a_too_specific_invariant_is_not_a_handles_invariant():
    exc = raised_by(_too_specific_invariant, tf.ones([2]))
    assert "handle-invariant" not in diagnose_module.extract(exc).tags
    d = diagnose(exc)
    assert d is not None and d.recipe.id != "TFD162" and d.category == "loop-var-shape", d


def test_a_raise_in_a_branch_of_a_tensor_if_is_the_trace_of_both_branches():
    d = diagnose(raised_by(_raise_in_tensor_branch, tf.ones([2]), tf.constant(2.0)))
    assert d is not None and d.recipe.id == "TFD122" and d.category == "unsupported-syntax"
    assert d.line == _line(_checked, "# <- raise")
    d = diagnose(raised_by(_raise_under_python_if_in_else_branch, tf.ones([2]), True))
    assert d is not None and d.recipe.id == "TFD122"
    assert d.line == _line(_raise_under_python_if_in_else_branch, "# <- nested")


def test_a_raise_not_lexically_in_a_staged_branch_stays_the_users_own_error():
    # the helper's `if` tests a Python float: its raise is the user's check, eager or not
    assert diagnose(raised_by(_raise_in_tensor_branch, tf.ones([2]), -1.0)) is None
    # a function the branch calls may raise for reasons of its own: no claim
    assert diagnose(raised_by(_raise_in_helper_called_from_branch, tf.ones([2]), -1.0)) is None
    assert diagnose(raised_by(_raise_in_staged_loop, tf.constant(3))) is None


@pytest.mark.smoke
def test_a_tensorflow_error_no_recipe_knows_is_generic_at_the_user_line():
    def build():
        ta = tf.TensorArray(tf.float32, size=2)
        ta = ta.write(0, tf.constant([1.0, 2.0]))
        return ta.write(1, tf.constant([1.0, 2.0, 3.0]))  # <- ta

    exc = raised_by(tf.function(build))
    d = diagnose(exc)
    assert d is not None and d.generic and d.category is None
    import inspect
    lines, first = inspect.getsourcelines(build)
    assert d.line == first + next(i for i, t in enumerate(lines) if "<- ta" in t)
    assert d.docs.startswith("https://")


def test_generic_diagnosis_in_the_json_report(tmp_path, forked_python):
    script = tmp_path / "ta.py"
    script.write_text("import tensorflow as tf\n\n@tf.function\ndef f():\n"
                      "    ta = tf.TensorArray(tf.float32, size=2).write(0, [1.0])\n"
                      "    return ta.write(1, [1.0, 2.0]).stack()\n\nf()\n")
    report = tmp_path / "r.json"
    proc = forked_python(None, "run", "--report", report, script, cwd=tmp_path)  # tfdebug run
    assert proc.returncode == 1
    (first, *_) = json.loads(report.read_text())["diagnostics"]
    assert first["generic"] is True and first["recipe"] is None and first["line"] == 6
    assert "tfdebug generic graph-mode-error: no recipe explains this ValueError" in proc.stderr


@tf.function
def _fill_cache(x, cache):
    y = x * 2
    cache["doubled"] = y  # <- mutated argument
    return y


@pytest.mark.smoke
def test_an_argument_tensorflow_names_as_modified_is_blamed_where_it_is_changed():
    # func_graph names the parameter; the cause is the item assignment, not the call
    exc = raised_by(_fill_cache, tf.constant(1.0), {})
    d = diagnose(exc)
    assert d is not None and d.category == "trace-time-side-effect"
    assert d.line == _line(_fill_cache, "<- mutated argument")


# -- the function or the op's stack TensorFlow names ----------------------------------------

class _Sample:
    def __init__(self, x):
        self.x = x


def _to_sample(x):
    return _Sample(x)  # <- returned object


def _lambda_pipeline():
    return tf.data.Dataset.range(3).map(
        lambda x: _Sample(x))  # <- lambda body


def test_map_function_returning_an_object_is_blamed_at_its_return():
    # The message names no function: the one tf.data's frames were tracing is blamed.
    d = diagnose(raised_by(lambda: tf.data.Dataset.range(3).map(_to_sample)))
    assert d.recipe.id == "TFD147" and d.category == "data-pipeline"
    assert (d.file, d.line) == (__file__, _line(_to_sample, "<- returned object"))
    d = diagnose(raised_by(_lambda_pipeline))
    assert d.recipe.id == "TFD147"
    assert (d.file, d.line) == (__file__, _line(_lambda_pipeline, "<- lambda body"))


def test_xla_compile_error_is_blamed_at_the_op_its_message_says_was_created(tmp_path):
    # XLA's "The op is created at:" stack drops the prefix its file names share: a plain
    # `python script.py` run, with the op built in a helper module of another folder.
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "helper.py").write_text(
        "import tensorflow as tf\n\ndef describe(t):\n    return tf.strings.format('total={}', t)\n")
    script = tmp_path / "main.py"
    script.write_text(
        "import sys, os\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), 'lib'))\n"
        "import tensorflow as tf\nimport tfdebug\nfrom helper import describe\n\n"
        "@tf.function(jit_compile=True)\ndef f(x):\n    return describe(tf.reduce_sum(x))\n\n"
        "try:\n    f(tf.constant([1.0]))\nexcept Exception as exc:\n"
        "    assert 'The op is created at' in str(exc), str(exc)\n"
        "    d = tfdebug.diagnose(exc)\n    print('DIAGNOSIS', d.recipe.id, d.file, d.line)\n")
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    line = next(t for t in proc.stdout.splitlines() if t.startswith("DIAGNOSIS"))
    assert line.split()[1:] == ["TFD195", str(tmp_path / "lib" / "helper.py"), "4"], proc.stderr[-2000:]


@pytest.mark.parametrize("cut", ["", "deep"], ids=["shared-root", "shared-folder"])
def test_a_stack_whose_shared_prefix_was_cut_is_read_back_to_the_user_s_file(tmp_path, cut):
    # The prefix XLA cuts is whatever every file of the stack shares: "/" when TensorFlow
    # and the script live apart, a whole folder when both sit under one (a temp dir in CI).
    from tfdebug._extract import message_locations

    base = tmp_path / cut if cut else tmp_path
    (base / "lib").mkdir(parents=True)
    (base / "lib" / "helper.py").write_text("x = 1\n")
    shared = str(tmp_path) + os.sep if cut else os.sep
    cut_name = str(base / "lib" / "helper.py")[len(shared):]
    message = f"The op is created at:\nFile \"{cut_name}\", line 1, in describe\n"
    known = [str(base / "main.py"), str(tmp_path / "site-packages" / "tensorflow" / "x.py")]
    locations = message_locations(message, known)
    assert [(loc.file, loc.line, loc.function) for loc in locations] == \
        [(str(base / "lib" / "helper.py"), 1, "describe")]


def _grow(step, tokens):
    tokens = tf.concat([tokens, step[None]], axis=0)  # <- grows
    return step + 1, tokens


@tf.function
def _explicit_while():
    return tf.while_loop(lambda s, t: s < 3, _grow, (tf.constant(0), tf.constant([0])))


@pytest.mark.smoke
def test_explicit_while_loop_is_blamed_at_the_body_line_that_made_the_refused_output():
    # while_v2's shape check holds the body output it refuses; the op that made it knows
    # the line (the body's `tokens = tf.concat(...)`, not its `return`).
    d = diagnose(raised_by(_explicit_while))
    assert d.recipe.id == "TFD193"  # the explicit loop's own words: shape_invariants
    assert (d.file, d.line) == (__file__, _line(_grow, "<- grows"))


@tf.function
def _autograph_grow(n):
    v = tf.constant([0])
    for i in tf.range(n):
        v = tf.concat([v, [i]], 0)
    return v


def test_an_autograph_loop_that_grows_a_tensor_gets_the_autograph_loop_words():
    # AutoGraph checks its loop variables first, in its own words: the fix is
    # set_loop_options, not tf.while_loop's shape_invariants argument
    d = diagnose(raised_by(_autograph_grow, tf.constant(3)))
    assert d.recipe.id == "TFD150" and "set_loop_options" in d.recipe.fix


class _Keeper:
    def __init__(self):
        self.kept = []

    @tf.function
    def step(self, x):
        loss = tf.reduce_sum(x * x)
        self.kept.append(loss)  # <- leaves the trace
        return loss


@pytest.mark.smoke
def test_a_tensor_kept_from_a_trace_and_used_eagerly_is_a_leaked_tensor():
    import numpy as np

    keeper = _Keeper()
    keeper.step(tf.constant([1.0, 2.0]))
    d = diagnose(raised_by(lambda: np.mean(keeper.kept)))
    assert d.recipe.id == "TFD117" and d.category == "out-of-scope-tensor"
    assert (d.file, d.line) == (__file__, _line(_Keeper.step, "<- leaves the trace"))
    # every refusal of a symbolic tensor's own methods (framework/tensor.py's raise sites)
    kept = keeper.kept[0]
    for use in (lambda: bool(kept), lambda: len(kept), lambda: {kept: 1}, lambda: kept.numpy()):
        d = diagnose(raised_by(use))
        assert d.recipe.id == "TFD117", (d.recipe, d.message)
        assert d.line == _line(_Keeper.step, "<- leaves the trace")
    # NumPy on a tensor while it is traced stays numpy-in-graph
    d = diagnose(raised_by(tf.function(lambda x: np.mean(x)), tf.constant([1.0])))
    assert d.category == "numpy-in-graph", d


@pytest.mark.smoke
def test_raise_site_readers_fall_back_to_nothing_on_an_unknown_layout():
    # an exception raised anywhere else (or a TF whose raise sites moved) holds no refused
    # tensor: no origin, no leak, and the diagnosis keeps TensorFlow's line
    from tfdebug import _tf

    error = raised_by(lambda: (_ for _ in ()).throw(ValueError("elsewhere")))
    assert _tf.refused_tensor_origin([error]) == [] and _tf.leaked_graph_tensor([error]) is False
    assert _tf.refused_tensor_origin([]) == [] and _tf.leaked_graph_tensor([]) is False


@pytest.mark.smoke
def test_a_node_without_a_stack_is_blamed_at_the_one_tensorflow_call_that_makes_it(tmp_path):
    # tf.data's run-time errors name only the node; its op is the snake-case TF wrapper
    from tfdebug._extract import _node_locations

    source = tmp_path / "pipeline.py"
    source.write_text("import numpy as np\nimport tensorflow as tf\nfrom tensorflow.io import decode_png\n\n"
                      "def parse(x):\n    img = tf.io.decode_jpeg(x)\n    return np.mean(img)\n\n"
                      "def other(x):\n    return decode_png(x) + tf.reshape(x, [-1]) + tf.reshape(x, [1])\n")
    found = _node_locations("Unknown image file format.\n\t [[{{node DecodeJpeg}}]] [Op:IteratorGetNext]",
                            [str(source)])
    assert [(loc.line, loc.function) for loc in found] == [(6, "parse")]
    assert [loc.line for loc in _node_locations("x [[{{node DecodePng_2}}]]", [str(source)])] == [10]
    assert _node_locations("x [[{{node Mean}}]]", [str(source)]) == []      # NumPy makes no node
    assert _node_locations("x [[{{node Reshape}}]]", [str(source)]) == []   # two candidates
    assert _node_locations("defined at (most recent call last):\n [[{{node DecodeJpeg}}]]",
                           [str(source)]) == []                            # the stack says it


@pytest.mark.smoke
def test_escape_store_is_a_store_into_an_object_the_function_did_not_make(tmp_path):
    from tfdebug._extract import Location
    from tfdebug._locate import _store_after

    source = tmp_path / "keep.py"
    source.write_text("CACHE = {}\n\ndef f(self, acc, x):\n    t = x * 2\n    out = []\n"
                      "    out.append(t)\n    box = {}\n    box['t'] = t\n    acc.append(t)\n"
                      "    return t\n\ndef g(x):\n    global LAST\n    t = x + 1\n    LAST = t\n"
                      "\ndef h(self, x):\n    t = x - 1\n    self.last = t\n    CACHE['t'] = t\n")
    at = lambda line: _store_after(Location(str(source), line, "f"))  # noqa: E731
    assert at(4).line == 9      # a given list, not the local `out` or `box`
    assert at(14).line == 15    # a global name
    assert at(18).line == 19    # an attribute of self (a parameter)
    assert at(5) is None        # `out = []` is stored nowhere outside


# -- a leaked input: the placeholder of an argument, stored outside by the traced code ------------

class _Log:
    def __init__(self):
        self.last = self.first = self.parts = None
        self.seen = []


_LOG = _Log()
_KEPT = {}
_LAST = None


def _input_on_attribute(x, lengths):
    _LOG.last = lengths  # <- input leaves
    return tf.reduce_sum(x)


def _input_in_a_pair(x, lengths):
    total = tf.reduce_sum(x)
    _KEPT["pair"] = (x, lengths)  # <- input leaves
    return total


def _input_appended(x, lengths):
    y = x * 2
    _LOG.seen.append(lengths)  # <- input leaves
    return y


def _input_to_global(x, lengths):
    global _LAST
    _LAST = lengths  # <- input leaves
    return x


def _input_stored_twice(x, lengths):
    _LOG.first = lengths  # <- input leaves
    _LOG.last = lengths
    return x


class _Masker:
    @tf.function
    def step(self, x, lengths):
        y = x * 2
        self.mask = lengths  # <- input leaves
        return y


_READS = {"eager op": lambda t: t + 1, "numpy": lambda t: np.mean(t), "method": lambda t: t.numpy(),
          "bool": lambda t: bool(t)}


def _leak(fn, remember=True):
    """Trace ``fn`` (under explain() when ``remember``) with two inputs; the error of using
    afterwards, eagerly, what it kept."""
    step = tf.function(fn)
    with tfdebug.explain() if remember else contextlib.nullcontext():
        step(tf.ones([3]), tf.constant([1, 2]))  # <- the call
    return step


@pytest.mark.smoke
@pytest.mark.parametrize("fn, kept", [
    (_input_on_attribute, lambda: _LOG.last), (_input_in_a_pair, lambda: _KEPT["pair"][1]),
    (_input_appended, lambda: _LOG.seen[-1]), (_input_to_global, lambda: _LAST),
    (_input_stored_twice, lambda: _LOG.last)],
    ids=["attribute", "item-of-global", "append", "global-name", "first-of-two"])
@pytest.mark.parametrize("read", sorted(_READS))
def test_a_leaked_input_is_blamed_where_the_traced_function_stores_its_parameter(fn, kept, read):
    # no op made it: the placeholder of the argument leads to the function traced into its
    # graph, which explain() remembered while it was active
    _leak(fn)
    d = diagnose(raised_by(_READS[read], kept()))
    assert d.recipe.id in ("TFD116", "TFD117") and d.category == "out-of-scope-tensor", d
    assert (d.file, d.line) == (__file__, _line(fn, "<- input leaves")), d


@pytest.mark.smoke
def test_a_leaked_input_of_a_method_is_blamed_at_its_store_on_self_and_in_explain_s_note():
    masker = _Masker()
    with pytest.raises(TypeError) as info, tfdebug.explain():
        masker.step(tf.ones([2]), tf.constant([1, 0]))
        tf.reduce_sum(masker.mask)
    line = _line(_Masker.step, "<- input leaves")
    assert f"{os.path.basename(__file__)}:{line} in step" in "".join(info.value.__notes__)


def _inner_stores_its_input(y, scale):
    _LOG.first = scale  # <- inner input leaves
    return y * scale


def _signed_stores_its_input(values, count):
    _LOG.last = count  # <- signed input leaves
    return values


@pytest.mark.smoke
def test_a_leaked_input_of_a_nested_or_signed_function_is_blamed_at_its_store():
    # a tf.function called while another is traced has a graph (and placeholders) of its
    # own; an input_signature's TensorSpec names its placeholder (`n`), found by position
    inner = tf.function(_inner_stores_its_input)
    outer = tf.function(lambda x: inner(x, tf.constant(3.0)))
    signed = tf.function(_signed_stores_its_input, input_signature=[
        tf.TensorSpec([None], tf.float32, name="v"), tf.TensorSpec([], tf.float32, name="n")])
    with tfdebug.explain():
        outer(tf.constant(1.0))
        signed(tf.ones([2]), tf.constant(2.0))
    d = diagnose(raised_by(lambda: _LOG.first + 1))
    assert d.recipe.id == "TFD116" and d.line == _line(_inner_stores_its_input, "<- inner input leaves")
    d = diagnose(raised_by(lambda: _LOG.last + 1))
    assert d.recipe.id == "TFD116" and d.line == _line(_signed_stores_its_input, "<- signed input leaves")


def _input_stored_by_a_map_function(x, label):
    _LOG.seen.append(label)  # <- input leaves
    return x * 2


@pytest.mark.smoke
def test_a_leaked_input_of_a_data_function_is_found_by_its_position():
    # tf.data's wrapper takes *args: its placeholders are args_0, args_1, one per parameter
    with tfdebug.explain():
        list(tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).map(_input_stored_by_a_map_function))
    d = diagnose(raised_by(lambda: _LOG.seen[-1] * 2))
    assert d.recipe.id == "TFD116" and d.line == _line(_input_stored_by_a_map_function, "<- input leaves")


def _made_leaks_while_the_input_is_stored_too(x, lengths):
    _LOG.first = lengths
    doubled = lengths * 2  # <- made
    _LOG.last = doubled  # <- made tensor leaves
    return x


def _input_in_a_local_list(x, lengths):
    parts = []
    parts.append(lengths)  # <- into a list the function made
    _LOG.parts = parts
    return x


def _input_rebound_before_the_store(x, lengths):
    raw = lengths
    lengths = lengths * 2
    _LOG.last = lengths  # <- a made tensor, not the input
    _LOG.parts = raw
    return x


@pytest.mark.smoke
def test_near_misses_of_a_leaked_input_keep_today_s_lines():
    call = _line(_leak, "<- the call")  # where TensorFlow made the placeholders: the call
    # a tensor the function made leaks: the store after the line that made it, as before
    _leak(_made_leaks_while_the_input_is_stored_too)
    d = diagnose(raised_by(lambda: _LOG.last + 1))
    assert d.line == _line(_made_leaks_while_the_input_is_stored_too, "<- made tensor leaves"), d
    # the input stored only into a list the function made (which then leaves): no store of it
    _leak(_input_in_a_local_list)
    d = diagnose(raised_by(lambda: _LOG.parts[0] + 1))
    assert d.recipe.id == "TFD116" and (d.file, d.line) == (__file__, call), d
    # the parameter bound anew before the store: what is stored after is another tensor
    _leak(_input_rebound_before_the_store)
    d = diagnose(raised_by(lambda: _LOG.parts + 1))
    assert d.recipe.id == "TFD116" and (d.file, d.line) == (__file__, call), d


_BIG = tf.zeros([2000])  # large enough to be captured, not copied into the graph as a constant


def _captured_value_leaks(x):
    _LOG.last = tf.convert_to_tensor(_BIG)  # <- captured
    return x


@pytest.mark.smoke
def test_a_leaked_captured_input_is_blamed_where_it_was_captured_as_before():
    from tfdebug import _tf

    with tfdebug.explain():
        tf.function(_captured_value_leaks)(tf.constant(1.0))
    error = raised_by(lambda: _LOG.last + 1)
    assert _LOG.last.op.type == "Placeholder" and _tf.leaked_argument([error]) is None
    assert diagnose(error).line == _line(_captured_value_leaks, "<- captured")


@pytest.mark.smoke
def test_a_leaked_input_traced_outside_any_explaining_scope_keeps_today_s_line():
    from tfdebug import _tf, tracing

    call = _line(_leak, "<- the call")
    _leak(_input_on_attribute, remember=False)
    error = raised_by(lambda: _LOG.last + 1)
    graph, name, index, count = _tf.leaked_argument([error])
    assert (name, index, count) == ("lengths", 1, 2) and graph is _LOG.last.graph
    assert tracing.traced_code_of(graph) is None
    with pytest.raises(TypeError) as info, tfdebug.explain():
        _LOG.last + 1
    assert f"{os.path.basename(__file__)}:{call} in _leak" in "".join(info.value.__notes__)
    d = diagnose(error)
    assert d.recipe.id == "TFD116" and (d.file, d.line) == (__file__, call)


@pytest.mark.smoke
def test_remembered_graphs_are_held_weakly_and_only_while_explaining():
    import gc
    import weakref

    from tfdebug import _tf, tracing

    with tfdebug.explain(), tfdebug.explain():  # nested: the hook stays until the outer exit
        pass
    assert not tracing.active() and not _tf.trace_hook_installed()
    step = _leak(_input_on_attribute)
    graph = weakref.ref(_LOG.last.graph)
    assert tracing.traced_code_of(graph()) is _input_on_attribute.__code__
    # traced after the scope: not remembered, and nothing observes the trace
    other = tf.function(_input_on_attribute)
    other(tf.ones([2]), tf.constant([3]))
    assert tracing.traced_code_of(_LOG.last.graph) is None
    _LOG.last = None
    del step, other
    gc.collect()
    assert graph() is None  # the map keeps no graph alive


def test_explain_installs_no_trace_hook_for_graphs_on_an_unsupported_tensorflow(monkeypatch):
    import warnings

    from tfdebug import _tf, tracing

    with tfdebug.explain():
        assert _tf.trace_hook_installed()
    monkeypatch.setattr(_tf.versions, "tf_version", lambda: (2, 99))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "not a supported version" warning either
        with tfdebug.explain(), tfdebug.explain():
            assert not _tf.trace_hook_installed() and tracing._remembering == 2
    assert tracing._remembering == 0 and not tracing._remember_hooked


@pytest.mark.smoke
def test_leaked_argument_falls_back_to_nothing_on_other_errors(monkeypatch):
    from tfdebug import _tf
    from tfdebug._tf import locations

    error = raised_by(lambda: (_ for _ in ()).throw(ValueError("elsewhere")))
    assert _tf.leaked_argument([error]) is None and _tf.leaked_argument([]) is None
    keeper = _Keeper()  # a tensor the function made: no argument
    keeper.step(tf.constant([1.0]))
    assert _tf.leaked_argument([raised_by(lambda: keeper.kept[0] + 1)]) is None
    # another TensorFlow may lay out its raise sites otherwise: no answer, today's line
    _leak(_input_on_attribute)
    error = raised_by(lambda: _LOG.last + 1)
    assert _tf.leaked_argument([error]) is not None
    monkeypatch.setattr(locations, "version_supported", lambda: False)
    assert _tf.leaked_argument([error]) is None
    assert diagnose(error).line == _line(_leak, "<- the call")


# -- a tf.data function is always traced: Python refusing a symbolic tensor there ----------------

def _decode_in_map(line):
    return tf.strings.to_number(line.decode("utf-8"))  # <- decode


def _path_in_map(name):
    import os
    return tf.io.read_file(os.path.join("/data", name))  # <- path


def _decode_in_function(line):
    return tf.strings.to_number(line.decode("utf-8"))


@pytest.mark.smoke
@pytest.mark.parametrize("fn, marker", [(_decode_in_map, "<- decode"), (_path_in_map, "<- path")],
                         ids=["str-method", "os.path"])
def test_python_refusing_a_symbolic_tensor_in_a_data_function_is_data_pipeline(fn, marker):
    import inspect
    exc = raised_by(lambda: tf.data.Dataset.from_tensor_slices(["1", "2"]).map(fn))
    d = diagnose(exc)
    assert d is not None and d.generic and d.category == "data-pipeline"
    lines, first = inspect.getsourcelines(fn)
    assert d.line == first + next(i for i, t in enumerate(lines) if marker in t)


@pytest.mark.smoke
def test_the_same_refusal_in_a_tf_function_claims_no_data_category():
    d = diagnose(raised_by(tf.function(_decode_in_function), tf.constant("1")))
    assert d is not None and d.category not in (None, "data-pipeline")


def _open_in_map(name):
    return tf.constant(open(name).read())  # <- open


def _path_in_function(name):
    import os
    return tf.io.read_file(os.path.join("/data", name))


def _json_in_function(x):
    import json
    return tf.constant(json.dumps({"x": x}))


def _item_assignment(x):
    x[0] = 0.0
    return x


@pytest.mark.smoke
def test_python_s_unquoted_class_name_in_a_data_function_is_data_pipeline():
    # builtins word it "expected str, bytes or os.PathLike object, not SymbolicTensor"
    d = diagnose(raised_by(lambda: tf.data.Dataset.from_tensor_slices(["a"]).map(_open_in_map)))
    assert d is not None and d.generic and d.category == "data-pipeline"
    assert d.line == _line(_open_in_map, "<- open")


@pytest.mark.smoke
@pytest.mark.parametrize("body, arg", [(_decode_in_function, "1"), (_path_in_function, "a"),
                                       (_json_in_function, 1.0)], ids=["str-method", "os.path", "json"])
def test_a_string_api_refusing_a_symbolic_tensor_is_string_format(body, arg):
    d = diagnose(raised_by(tf.function(body), tf.constant(arg)))
    assert d is not None and d.generic and d.category == "string-format"


@pytest.mark.smoke
def test_python_refusing_a_tensor_it_would_refuse_eagerly_too_claims_no_category():
    d = diagnose(raised_by(tf.function(_item_assignment), tf.constant([1.0, 2.0])))
    assert d is not None and d.generic and d.category is None


def _zeros_of_shape(x):
    return tf.zeros(x.shape)


def _unstack(x):
    return tf.unstack(x)


def _split_by_shape_index(x):
    return tf.split(x, x.shape[0])


@pytest.mark.smoke
@pytest.mark.parametrize("body, recipe", [(_zeros_of_shape, "TFD192"), (_unstack, "TFD174"),
                                          (_split_by_shape_index, "TFD121")],
                         ids=["zeros-of-shape", "unstack", "split-by-shape-index"])
def test_an_op_refusing_an_unknown_dimension_gets_its_recipe(body, recipe):
    fn = tf.function(body, input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    d = diagnose(raised_by(fn, tf.ones([2, 4])))
    assert d is not None and d.recipe is not None and d.recipe.id == recipe


@pytest.mark.smoke
def test_a_shape_of_unknown_rank_refused_as_a_tensor_is_unknown_shape():
    fn = tf.function(_zeros_of_shape, input_signature=[tf.TensorSpec(None, tf.float32)])
    d = diagnose(raised_by(fn, tf.ones([2, 4])))
    assert d is not None and d.recipe is not None and d.recipe.id == "TFD171", d
    assert d.category == "unknown-shape"


def _index_of(x):
    return x.index(2.0)


@pytest.mark.smoke
def test_a_method_lists_have_too_claims_no_string_category():
    d = diagnose(raised_by(tf.function(_index_of), tf.constant([1.0, 2.0])))
    assert d is not None and d.generic and d.category is None


def _path_beside_an_unknown_call(x):
    return os.path.join("runs", chr(x))  # chr() refuses the tensor, not os.path


@pytest.mark.smoke
def test_an_unknown_call_beside_a_string_api_claims_no_category():
    """The line holds a call of unknown kind that may be the one that refused: no category."""
    d = diagnose(raised_by(tf.function(_path_beside_an_unknown_call), tf.constant(65)))
    assert d is not None and d.generic and d.category is None


def _float_of(x):
    return x * float(x)  # <- float


def _math_sqrt_of(x):
    import math
    return x * math.sqrt(x[0])  # <- sqrt


@pytest.mark.smoke
@pytest.mark.parametrize("body, marker", [(_float_of, "<- float"), (_math_sqrt_of, "<- sqrt")],
                         ids=["float", "math.sqrt"])
def test_python_wanting_a_number_of_a_symbolic_tensor_is_numpy_in_graph(body, marker):
    """float() or math.* refusing the tensor wants its value: AutoGraph leaves these calls to
    Python when it does not convert the function (here, by request)."""
    fn = tf.function(tf.autograph.experimental.do_not_convert(body))
    d = diagnose(raised_by(fn, tf.constant([4.0, 9.0])))
    assert d is not None and d.generic and d.category == "numpy-in-graph"
    assert d.line == _line(body, marker)


def _numpy_zeros_of_shape(x):
    import numpy as np
    return x + np.zeros(x.shape, "float32")  # <- zeros


def _numpy_zeros_of_own_shape(x):
    n = None
    return x + float(len(range(n)))  # Python refuses this None on every NumPy


@pytest.mark.smoke
def test_python_refusing_the_none_of_an_unknown_dimension_read_at_the_line_is_unknown_length():
    """A known rank with a None dimension (the batch axis) is a length known only when the
    graph runs; an unknown rank (the shape itself lost) is unknown-shape."""
    fn = tf.function(_numpy_zeros_of_shape, input_signature=[tf.TensorSpec([None], tf.float32)])
    d = diagnose(raised_by(fn, tf.ones([2])))
    assert d is not None and d.category == "unknown-length" and d.line == _line(_numpy_zeros_of_shape, "<- zeros")
    assert any("dimension 0 unknown" in fact for fact in d.shapes), d.shapes


@pytest.mark.smoke
def test_a_none_the_line_does_not_read_from_a_shape_claims_no_shape_category():
    fn = tf.function(_numpy_zeros_of_own_shape, input_signature=[tf.TensorSpec([None], tf.float32)])
    d = diagnose(raised_by(fn, tf.ones([2])))
    assert d is None or d.category not in ("unknown-shape", "unknown-length")


def _doubled_variable(x):
    init = x * 2.0
    return tf.Variable(init)  # <- variable


def _xla_with_a_helper_variable(x):
    return x * _doubled_variable(x)


def _xla_with_an_inline_variable(x):
    v = tf.Variable(x + 1.0)  # <- inline
    return x * v


@pytest.mark.smoke
@pytest.mark.parametrize("body, where, marker", [
    (_xla_with_a_helper_variable, _doubled_variable, "<- variable"),
    (_xla_with_an_inline_variable, _xla_with_an_inline_variable, "<- inline")], ids=["helper", "inline"])
def test_xla_variable_creation_is_blamed_at_the_variable_not_the_call(body, where, marker):
    """TensorFlow raises at the call; the initial value's op stack leads to the variable."""
    exc = raised_by(tf.function(body, jit_compile=True), tf.constant([1.0, 2.0]))
    d = diagnose(exc)
    assert d is not None and d.recipe.id == "TFD138" and d.category == "variable-creation"
    assert d.line == _line(where, marker) and d.symptom is not None


@pytest.mark.smoke
def test_unlifted_variable_origins_is_empty_without_tensorflows_frame():
    from tfdebug import _tf
    assert _tf.unlifted_variable_origins([ValueError("x")]) == []
    exc = raised_by(tf.function(_item_assignment), tf.constant([1.0]))
    assert _tf.unlifted_variable_origins([exc]) == []


def _tensor_array_of_dynamic_shape(x):
    ta = tf.TensorArray(tf.float32, size=2, element_shape=tf.shape(x))
    return ta.write(0, x).stack()


@pytest.mark.smoke
def test_a_tensor_tensorflow_itself_tried_to_iterate_is_not_blamed_as_iteration():
    """TensorShape(t) tries iter(t), catches the refusal and fails on t as one dimension: the
    refusal inside the chain is TensorFlow's probe, not the user's iteration."""
    d = diagnose(raised_by(tf.function(_tensor_array_of_dynamic_shape), tf.ones([2, 2])))
    assert d is not None and d.category != "tensor-iteration", d
    assert d.line == inspect_line(_tensor_array_of_dynamic_shape, "element_shape")


def inspect_line(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, t in enumerate(lines) if text in t)


def _build_dense_model(units):
    import keras
    inputs = keras.Input((4,))
    return keras.Model(inputs, keras.layers.Dense(units)(inputs))  # <- model


class _Box:
    def __init__(self, value):
        self.value = value


def _boxed(x):
    return _Box(x)  # <- box


@pytest.mark.smoke
def test_a_keras_object_returned_from_a_tf_function_is_keras_misuse_at_the_return():
    """Which object TensorFlow refused is read from its raise site: a Keras one is Keras
    state built at trace time; any other object keeps the plain return recipe."""
    d = diagnose(raised_by(tf.function(_build_dense_model), 3))
    assert d is not None and d.recipe.id == "TFD129" and d.category == "keras-misuse"
    assert d.line == _line(_build_dense_model, "<- model")
    d = diagnose(raised_by(tf.function(_boxed), tf.constant(1.0)))
    assert d is not None and d.recipe.id == "TFD128" and d.line == _line(_boxed, "<- box")


def _variable_of_each_element(x):
    v = tf.Variable(x)  # <- element variable
    return x * v


@pytest.mark.smoke
def test_a_variable_made_from_a_data_functions_input_is_blamed_at_the_variable():
    """tf.data cannot lift an initial value that is the traced input: TensorFlow raises at
    `map`; the initial value's stack stops at the trace's entry, the constructor is found in
    the function tf.data was tracing."""
    exc = raised_by(lambda: tf.data.Dataset.from_tensor_slices(tf.ones([2, 3])).map(_variable_of_each_element))
    d = diagnose(exc)
    assert d is not None and d.recipe.id == "TFD137" and d.category == "variable-creation"
    assert d.line == _line(_variable_of_each_element, "<- element variable")


def _scaled_by_first(x):
    n = int(x[0])  # <- cast
    return x * n


def _scaled_by_python_int(x):
    n = int("2")
    return tf.cast(x, tf.int32) * n + x


@pytest.mark.smoke
def test_a_dtype_mismatch_from_autographs_int_cast_is_blamed_where_int_was_called():
    """AutoGraph turns int(tensor) into tf.cast(tensor, tf.int32): the int32 that meets the
    float is chosen at that line, which TensorFlow's message does not name."""
    d = diagnose(raised_by(tf.function(_scaled_by_first), tf.constant([2.0, 3.0])))
    assert d is not None and d.recipe.id == "TFD160" and d.line == _line(_scaled_by_first, "<- cast")
    assert d.symptom is not None
    d = diagnose(raised_by(tf.function(_scaled_by_python_int), tf.constant([2.0, 3.0])))
    assert d is not None and d.recipe.id == "TFD160" and d.line == inspect_line(_scaled_by_python_int, "+ x")


@pytest.mark.smoke
def test_the_frame_readers_answer_nothing_outside_the_supported_versions(monkeypatch):
    """Another TensorFlow may lay out these frames otherwise: no answer, the diagnosis stays
    at TensorFlow's line."""
    from tfdebug._tf import locations
    exc = raised_by(tf.function(_xla_with_an_inline_variable, jit_compile=True), tf.constant([1.0]))
    returned = raised_by(tf.function(_build_dense_model), 3)
    assert locations.unlifted_variable_origins([exc]) and locations.refused_return_value([returned]) is not None
    monkeypatch.setattr(locations, "version_supported", lambda: False)
    assert locations.unlifted_variable_origins([exc]) == []
    assert locations.refused_return_value([returned]) is None


@tf.function
def _scope_named_from_tensor(values):
    total = tf.constant(0.0)
    for i in tf.range(3):
        with tf.name_scope(f"step{i + 1}"):  # <- scope name
            total += values[i]
    return total


VOCAB = {"a": 0, "b": 1}


def _lookup(token):
    return VOCAB["{}".format(token)]  # <- key


@tf.function
def _own_message_from_tensor(x):
    if x.shape[0] != 3:
        raise ValueError(f"expected 3 values, got {x}")  # <- own message
    return x


@tf.function
def _scope_named_earlier(values):
    total = tf.constant(0.0)
    for i in tf.range(3):
        name = f"step{i + 1}"
        with tf.name_scope(name):  # <- earlier
            total += values[i]
    return total


def test_a_string_formatted_from_a_graph_tensor_and_refused_is_string_format():
    """The message quotes the text formatting makes of a graph tensor, and the user's line
    formats one (read from its frame): a scope name, a dict key built while tracing."""
    d = diagnose(raised_by(_scope_named_from_tensor, tf.ones([3])))
    assert d is not None and d.recipe.id == "TFD179" and d.category == "string-format", d
    assert d.line == _line(_scope_named_from_tensor, "# <- scope name")
    exc = raised_by(lambda: list(tf.data.Dataset.from_tensor_slices(["a"]).map(_lookup)))
    d = diagnose(exc)
    assert d is not None and d.recipe.id == "TFD179" and d.line == _line(_lookup, "# <- key"), d


@tf.function(input_signature=[tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.string)])
def _parse_formatted_earlier(key, value):
    values = str(value).split("#")  # <- formatted value
    names = str(key).split("#")
    return {n: tf.constant(float(v)) for n, v in zip(names, values)}


def test_a_string_formatted_from_a_graph_tensor_earlier_is_blamed_where_that_tensor_was_formatted():
    """The failing line parses a string made on an earlier line: the tensor the message
    quotes (``value:0``) is the one formatted there, not the other formatted after it."""
    d = diagnose(raised_by(_parse_formatted_earlier, tf.constant("a#b"), tf.constant("1#2")))
    assert d is not None and d.recipe.id == "TFD179" and d.category == "string-format", d
    assert d.line == _line(_parse_formatted_earlier, "# <- formatted value"), d


def test_a_users_own_message_quoting_a_graph_tensor_is_not_string_format():
    exc = raised_by(_own_message_from_tensor, tf.ones([2]))
    assert 'Tensor("' in str(exc)
    assert "formats-graph-tensor" not in diagnose_module.extract(exc).tags
    d = diagnose(exc)
    assert d is None or d.recipe is None or d.recipe.id != "TFD179"
    # the string was formatted on an earlier line: the line that failed formats nothing
    d = diagnose(raised_by(_scope_named_earlier, tf.ones([3])))
    assert d is not None and d.line == _line(_scope_named_earlier, "# <- earlier")
    assert d.recipe is None or d.recipe.id != "TFD179", d


def _merge_call_in_a_cond():
    """An optimizer update (a cross-replica merge point) inside a tf.cond branch of a
    replica function: tf.distribute refuses it, below Keras' and TensorFlow's filters."""
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        weight = tf.Variable(1.0)
        optimizer = tf.keras.optimizers.SGD(0.1)

    def update():
        optimizer.apply_gradients([(tf.ones([]), weight)])  # <- merge point
        return tf.constant(0)

    @tf.function
    def step(x):
        return strategy.run(lambda x: tf.cond(x > 0, update, lambda: tf.constant(0)), args=(x,))

    return raised_by(step, tf.constant(1.0)), update


def test_the_raise_site_a_traceback_filter_dropped_is_read_while_a_scope_keeps_it():
    """TensorFlow's and Keras' filters cut tf.distribute's frames from the traceback; inside
    ``explain()`` the dropped frames are kept, so the raise site gives the category. The
    user's traceback is the filtered one either way."""
    from tfdebug import _tf
    from tfdebug._extract import tb_frames

    filtered, update = _merge_call_in_a_cond()  # no scope: the filtered traceback is all there is
    assert not any("/tensorflow/python/distribute/" in f.f_code.co_filename for f, _ in tb_frames(filtered))
    d = diagnose(filtered)
    assert d is not None and d.line == _line(update, "# <- merge point"), d
    with tfdebug.explain():
        kept, update = _merge_call_in_a_cond()
        d = diagnose(kept)
        assert d is not None and d.line == _line(update, "# <- merge point") and d.category == "distribute", d
        shown = [frame.f_code.co_filename for frame, _ in _walk(kept.__traceback__)]
        assert not any("/tensorflow/python/distribute/" in f for f in shown)  # the user's view
        assert any("/tensorflow/python/distribute/" in f.f_code.co_filename for f, _ in tb_frames(kept))
    assert not _tf.tracebacks._kept and _tf.tracebacks._installed["count"] == 0


def _walk(tb):
    while tb is not None:
        yield tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next


def test_keeping_dropped_frames_nests_and_puts_the_filters_back():
    from tensorflow.python.util import traceback_utils

    from tfdebug import _tf

    original = traceback_utils._process_traceback_frames
    assert _tf.record_hidden_frames() and _tf.record_hidden_frames()
    assert traceback_utils._process_traceback_frames is not original
    _tf.stop_recording_hidden_frames()
    assert traceback_utils._process_traceback_frames is not original  # one still recording
    _tf.stop_recording_hidden_frames()
    assert traceback_utils._process_traceback_frames is original
    _tf.stop_recording_hidden_frames()  # one too many: nothing happens
    assert traceback_utils._process_traceback_frames is original


def _has_substring(city):
    return "lm" in city  # <- search


@tf.function
def _value_in_list(x):
    if x in [1, 2]:  # <- element
        return x
    return -x


def test_membership_in_a_graph_tensor_is_tensor_iteration():
    """Python searches the right side of ``in`` by iterating it: a graph tensor there (read
    from the frame) refuses; a tensor on the left of ``in [...]`` is a bool test instead."""
    exc = raised_by(lambda: list(tf.data.Dataset.from_tensor_slices(["Ottawa"]).map(_has_substring)))
    d = diagnose(exc)
    assert d is not None and d.recipe.id == "TFD108" and d.category == "tensor-iteration", d
    assert d.line == _line(_has_substring, "# <- search")
    d = diagnose(raised_by(_value_in_list, tf.constant(1)))
    assert d is not None and d.category == "tensor-as-bool" and d.recipe.id != "TFD108", d
    assert "in-graph-tensor" not in diagnose_module.extract(raised_by(lambda: 1 in 2)).tags


@tf.function
def _activation_chosen_under_tensor_if(x):
    activation = tf.identity
    if tf.reduce_sum(x) > 0:  # <- staged if
        activation = tf.nn.relu
    return activation(x)


@tf.function
def _returns_a_function(x):
    return tf.nn.relu  # <- returned


def test_a_python_object_a_staged_statement_assigns_is_its_mismatch():
    """TensorFlow's output check names the function it traced: AutoGraph's tf.cond branch
    (a variable the tensor ``if`` assigns) or a while body (a loop variable); a tf.function
    returning a Python object is not one of them."""
    d = diagnose(raised_by(_activation_chosen_under_tensor_if, tf.ones([2])))
    assert d is not None and d.recipe.id == "TFD163" and d.category == "branch-mismatch", d
    assert d.line == _line(_activation_chosen_under_tensor_if, "# <- staged if")
    exc = raised_by(_returns_a_function, tf.ones([2]))
    tags = diagnose_module.extract(exc).tags
    assert "if-output" not in tags and "loop-output" not in tags
    d = diagnose(exc)
    assert d is not None and d.recipe.id not in ("TFD163", "TFD164"), d


def _as_int32(value):
    return np.int32(value)


def _as_float32(value):
    return np.float32(value)


def _two_numpy_functions(x):
    good = tf.numpy_function(_as_float32, [x], tf.float32)
    bad = tf.numpy_function(_as_int32, [x], tf.int64)  # <- wrong Tout
    return good, bad


def test_a_py_function_op_is_blamed_at_the_call_given_the_function_its_token_names():
    """The run-time message names the op's token (``pyfunc_1``); TensorFlow's registry holds
    the function for it, so the call given that function is blamed, not the first such call."""
    dataset = tf.data.Dataset.from_tensor_slices([1.0]).map(_two_numpy_functions)
    exc = raised_by(lambda: list(dataset))
    d = diagnose(exc)
    assert d is not None and d.recipe.id == "TFD182", d
    assert d.line == _line(_two_numpy_functions, "# <- wrong Tout")


class MemoryNet(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.memory = self.add_weight(shape=(4, input_shape[-1]), name="memory")

    @tf.function
    def attend(self, query, memory):
        return tf.matmul(query, memory, transpose_b=True)

    def call(self, x):
        return self.attend(x, self.memory)  # <- keras argument


@tf.function
def _numpy_of_symbolic(x):
    return np.sum(x)  # <- numpy


def test_a_keras_object_a_tf_function_cannot_trace_is_keras_misuse_not_numpy():
    """TensorFlow's trace-type builder read the argument as an array (``__array__``): the
    NumPy call was TensorFlow's, on a Keras variable, not the user's; a user's NumPy call
    on a symbolic tensor stays numpy-in-graph. (Outside a tfdebug scope TensorFlow's
    filter has dropped the builder's frame: the diagnosis is then the message's.)"""
    layer = MemoryNet()
    layer.build((None, 8))
    with tfdebug.explain():  # keeps the frames TensorFlow's filter drops: its raise site
        d = diagnose(raised_by(tf.function(lambda x: layer(x)), tf.ones([2, 8])))
    assert d is not None and d.recipe.id == "TFD186" and d.category == "keras-misuse", d
    assert d.line == _line(MemoryNet.call, "# <- keras argument")
    exc = raised_by(_numpy_of_symbolic, tf.ones([2]))
    assert "keras-argument" not in diagnose_module.extract(exc).tags
    d = diagnose(exc)
    assert d is not None and d.category == "numpy-in-graph", d


# -- Python refusing a graph tensor inside the Keras API the user's line calls ----------------

_HE = tf.keras.initializers.HeNormal(seed=0)


def _keras_initializer_of_tensor_shape(x):
    return tf.matmul(x, _HE(shape=(tf.shape(x)[1], 2)))  # <- keras initializer


def _keras_chain_of_tensor_shape(x):
    return tf.matmul(x, tf.keras.initializers.GlorotUniform(seed=0)((tf.shape(x)[1], 2)))  # <- chain


def _own_int_beside_keras(x):
    return tf.matmul(x, _HE(shape=(int(tf.shape(x)[1]), 2)))


def _tf_initializer_of_tensor_shape(x):
    return tf.matmul(x, tf.compat.v1.glorot_uniform_initializer(seed=0)((tf.shape(x)[1], 2)))


@pytest.mark.smoke
@pytest.mark.parametrize("body, marker", [(_keras_initializer_of_tensor_shape, "<- keras initializer"),
                                          (_keras_chain_of_tensor_shape, "<- chain")],
                         ids=["keras-object", "tf.keras-chain"])
def test_python_refusing_a_graph_tensor_inside_a_keras_api_the_line_calls_is_keras_misuse(body, marker):
    d = diagnose(raised_by(tf.function(body), tf.ones([2, 3])))
    assert d is not None and d.recipe is not None and d.recipe.id == "TFD187" and d.category == "keras-misuse", d
    assert d.line == _line(body, marker)


@pytest.mark.smoke
@pytest.mark.parametrize("body", [tf.autograph.experimental.do_not_convert(_own_int_beside_keras),
                                  _tf_initializer_of_tensor_shape], ids=["users-int", "tensorflows-int"])
def test_the_same_refusal_in_the_users_or_tensorflows_code_is_not_keras_misuse(body):
    """Python's int() refuses the graph tensor in the user's own code (beside a Keras call) or
    in TensorFlow's v1 initializer: not Keras' code, so not a Keras API's need."""
    exc = raised_by(tf.function(body), tf.ones([2, 3]))
    assert "keras-static-argument" not in diagnose_module.extract(exc).tags
    d = diagnose(exc)
    assert d is not None and d.category != "keras-misuse", d


# -- a Keras Variable asked for its truth value ------------------------------------------------------

def test_a_keras_variable_refusing_to_be_a_bool_is_tensor_as_bool():
    import keras

    class Biased(keras.layers.Layer):
        def build(self, shape):
            self.bias = self.add_weight(shape=(shape[-1],), initializer="ones")

        def call(self, x):
            if self.bias:  # <- truth of a Keras Variable
                x = x + self.bias
            return x

    layer = Biased()
    assert _tf.record_hidden_frames()
    try:
        d = diagnose(raised_by(tf.function(lambda x: layer(x)), tf.ones([2, 3])))
    finally:
        _tf.stop_recording_hidden_frames()
    assert d is not None and d.category == "tensor-as-bool", d
    assert d.line == _line(Biased.call, "<- truth of a Keras Variable")


# -- a Keras model's own loop called while a trace runs the caller ---------------------------------

def _two_models():
    import keras

    def net():
        return keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])

    class Distiller(keras.Model):
        def __init__(self):
            super().__init__()
            self.student, self.teacher = net(), net()

        def call(self, x):
            return self.student(x)

        def train_step(self, data):
            x, _ = data
            soft = self.teacher.predict(x, verbose=0)  # <- predict in a traced step
            return {"soft": tf.reduce_mean(soft)}

    return Distiller, net


def test_a_keras_loop_called_while_a_trace_runs_it_is_keras_misuse_whatever_it_raised():
    # Keras' `predict` inside the step `fit` traces refuses the replica context `fit` runs
    # the step in ("Method requires being in cross-replica context"): a tf.distribute message,
    # but the cause is calling Keras' own loop there
    distiller_class, _ = _two_models()
    distiller = distiller_class()
    distiller.compile(optimizer="sgd")
    assert _tf.record_hidden_frames()
    try:
        exc = raised_by(distiller.fit, np.ones((4, 4), "float32"), np.zeros((4,)), 1, 1, 0)
        assert "keras-loop-in-trace" in diagnose_module.extract(exc).tags
        d = diagnose(exc)
    finally:
        _tf.stop_recording_hidden_frames()
    assert d is not None and d.recipe is not None and d.recipe.id == "TFD167" \
        and d.category == "keras-misuse", d
    assert d.line == _line(distiller_class.train_step, "<- predict in a traced step")


def test_a_keras_loop_that_fails_when_called_eagerly_is_no_keras_misuse():
    _, net = _two_models()
    assert _tf.record_hidden_frames()
    try:
        exc = raised_by(net().predict, np.ones((2, 5), "float32"))  # the wrong width
        tags = diagnose_module.extract(exc).tags
    finally:
        _tf.stop_recording_hidden_frames()
    assert "keras-loop-in-trace" not in tags


# -- next(iterator, default) in a tf.function: AutoGraph leaves `next` to Python -----------------

@tf.function
def _five_with_default(iterator):
    total = tf.constant(0, tf.int64)
    for _ in range(5):
        total += next(iterator, tf.constant(0, tf.int64))  # <- next default
    return total


@tf.function
def _five_without_default(iterator):
    total = tf.constant(0, tf.int64)
    for _ in range(5):
        total += next(iterator)
    return total


@pytest.mark.smoke
def test_next_with_a_default_past_the_end_is_unsupported_syntax_while_autograph_leaves_next_to_python(monkeypatch):
    from tensorflow.python.autograph.operators import py_builtins

    from tfdebug import _tf

    exc = raised_by(_five_with_default, iter(tf.data.Dataset.range(3)))
    assert isinstance(exc, tf.errors.OutOfRangeError)
    assert _tf.next_left_to_python()  # TF 2.16-2.21: `next` is not among AutoGraph's overloads
    d = diagnose(exc)
    assert d is not None and d.recipe is not None and d.recipe.id == "TFD188", d
    assert d.category == "unsupported-syntax" and d.line == _line(_five_with_default, "<- next default")
    # a real end of the data: no default given
    d = diagnose(raised_by(_five_without_default, iter(tf.data.Dataset.range(3))))
    assert d is not None and d.recipe is None and d.category is None, d
    # an AutoGraph that overloads `next` (tf.data's get_next_as_optional honours the default)
    monkeypatch.setattr(py_builtins, "SUPPORTED_BUILTINS", py_builtins.SUPPORTED_BUILTINS + (next,))
    assert not _tf.next_left_to_python()
    d = diagnose(exc)
    assert d is not None and d.recipe is None and d.category is None, d


def test_the_iterator_readers_answer_nothing_outside_the_supported_versions(monkeypatch):
    from tfdebug._extract import is_user
    from tfdebug._tf import autograph, locations

    exc = raised_by(_five_with_default, iter(tf.data.Dataset.range(3)))
    assert locations.iterator_next_past_end([exc], is_user)[1] == _line(_five_with_default, "<- next default")
    monkeypatch.setattr(locations, "version_supported", lambda: False)
    monkeypatch.setattr(autograph, "version_supported", lambda: False)
    assert locations.iterator_next_past_end([exc], is_user) is None
    assert not autograph.next_left_to_python()


@pytest.mark.parametrize("body, recipe", [
    (lambda x: tf.histogram_fixed_width(x, [0.0, 5.0], nbins=5), "TFD183"),
    (lambda x: tf.py_function(lambda v: v * 2.0, [x], tf.float32), "TFD194"),
    (lambda x: tf.strings.as_string(x), "TFD195"),
], ids=["other-op", "python-op", "string-op"])
def test_an_op_xla_refuses_is_told_by_its_op_definition(body, recipe):
    """The ops XLA refused, read from their registered definitions: Python callbacks are
    numpy-in-graph, string ops string-format, any other op the general recipe (TensorFlow
    names the first op it refused)."""
    d = diagnose(raised_by(tf.function(body, jit_compile=True), tf.constant([1.0, 2.0])))
    assert d is not None and d.recipe is not None and d.recipe.id == recipe, d


_SCAN_CASES = """
import tensorflow as tf
import tfdebug


def scan_state_grows(xs):
    return tf.scan(lambda state, x: tf.reduce_sum(state + x, axis=1), xs, initializer=tf.zeros([4, 1]))  # <- scan


def own_array_in_scan_fn(state, x):
    ta = tf.TensorArray(tf.float32, size=2, element_shape=[1])
    ta = ta.write(0, tf.zeros([2]))  # <- own array
    return state


for name, fn in (("state", tf.function(scan_state_grows)),
                 ("own", tf.function(lambda xs: tf.scan(own_array_in_scan_fn, xs, initializer=tf.zeros([4, 1]))))):
    try:
        fn(tf.ones([3, 4, 1]))
    except Exception as exc:
        d = tfdebug.diagnose(exc)
        print("RESULT", name, d.recipe.id if d and d.recipe else None, d.category if d else None, d.line if d else None)
"""


def test_tf_scan_refusing_the_state_its_function_returned_is_loop_var_shape(tmp_path, forked_python):
    """scan's own TensorArray of states refuses a state shaped unlike the initializer: the
    innermost user frame is the `tf.scan` call. A TensorArray of the user's own refusing an
    element fails inside the user's function: not the state. (In a process of its own: a
    failing tf.scan leaves TensorFlow's variable scopes broken for the rest of a process.)"""
    script = tmp_path / "scans.py"
    script.write_text(_SCAN_CASES)
    proc = forked_python(script, cwd=tmp_path)
    results = {line.split()[1]: line.split()[2:] for line in proc.stdout.splitlines() if line.startswith("RESULT")}
    assert results["state"] == ["TFD196", "loop-var-shape", str(line_of(str(script), "# <- scan"))], proc.stderr[-2000:]
    assert results["own"][0] != "TFD196" and results["own"][2] == str(line_of(str(script), "# <- own array"))
