"""diagnose(): real TensorFlow errors -> recipe and user line; never raises, whatever it gets."""
import importlib
import inspect
import linecache
import os
import sys
import types

import pytest
import tensorflow as tf
from hypothesis import HealthCheck, given, settings, strategies as st
from tensorflow.python.framework import errors_impl

from conftest import raised_by
from tfdebug import diagnose as diagnose_fn
from tfdebug.diagnosis import Diagnosis, extract, safe_str, short_message

pytestmark = pytest.mark.smoke  # also run on the oldest supported TensorFlow


def _line_of(fn, marker):
    """Line number of the source line of ``fn`` that contains ``marker``."""
    lines, start = inspect.getsourcelines(fn)
    for offset, text in enumerate(lines):
        if marker in text:
            return start + offset
    raise AssertionError(marker)


# -- real errors ------------------------------------------------------------------------------

@tf.function
def _append_in_loop(n):
    out = []
    for i in tf.range(n):
        out.append(i)  # <- cause
    return tf.add_n(out)


@tf.function
def _in_list(x):
    return x in [1, 2, 3]  # <- in


@tf.function
def _truthy(x):
    if x:  # <- truthy
        return x
    return -x


@tf.function(autograph=False)
def _ternary(a, b):
    return a / b if b != 0 else b  # <- ternary


@tf.function
def _numpy(x):
    return x.numpy()  # <- numpy


class _ValidationError(Exception):
    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


@tf.function
def _user_error(x):
    raise _ValidationError("x", "bad input")  # <- user


def test_list_append_in_graph_loop_blames_the_append_not_the_use():
    exc = raised_by(_append_in_loop, tf.constant(3))
    d = diagnose_fn(exc)
    assert isinstance(d, Diagnosis)
    assert d.recipe.category == "out-of-scope-tensor"
    assert (d.file, d.line) == (__file__, _line_of(_append_in_loop.python_function, "<- cause"))
    assert d.code == "out.append(i)  # <- cause"
    assert [n for n, _ in d.context] == [d.line - 1, d.line, d.line + 1]


@pytest.mark.parametrize("fn, args, marker, recipe", [
    (_in_list, (tf.constant(2),), "<- in", "TFD104"),
    (_truthy, (tf.constant(2),), "<- truthy", "TFD102"),
    (_ternary, (tf.constant(1.0), tf.constant(2.0)), "<- ternary", "TFD101"),
    (_numpy, (tf.constant(1.0),), "<- numpy", "TFD140"),
])
def test_recipe_and_line(fn, args, marker, recipe):
    d = diagnose_fn(raised_by(fn, *args))
    assert d.recipe.id == recipe
    assert d.line == _line_of(fn.python_function, marker)
    assert d.function == fn.python_function.__name__
    finding = d.finding()
    assert finding.severity == "error" and finding.recipe == recipe and finding.line == d.line


def test_extract_reads_autograph_frames_and_the_chain():
    exc = raised_by(_truthy, tf.constant(2))
    extracted = extract(exc)
    assert extracted.chain[0] is exc
    assert "ValueError" in extracted.class_names[0]
    first = extracted.locations[0][0]
    assert (first.file, first.line) == (__file__, _line_of(_truthy.python_function, "<- truthy"))


def test_user_exception_gets_no_recipe_but_is_located():
    exc = raised_by(_user_error, tf.constant(1))
    assert diagnose_fn(exc) is None
    locations = [loc for locs in extract(exc).locations for loc in locs]
    assert locations[0].line == _line_of(_user_error.python_function, "<- user")


def test_no_error_recipe_for_plain_python_errors():
    assert diagnose_fn(raised_by(lambda: {}["missing"])) is None
    assert diagnose_fn(KeyboardInterrupt()) is None


def test_short_message_drops_autograph_frames():
    exc = raised_by(_truthy, tf.constant(2))
    assert short_message(str(exc)).startswith("condition of if statement expected")


# -- robustness: never raise ----------------------------------------------------------------

class _BrokenStr(Exception):
    def __str__(self):
        raise RuntimeError("broken __str__")


class _WeirdStr(Exception):
    def __str__(self):
        return 42  # not a string


def test_safe_str_survives_broken_str():
    assert safe_str(_BrokenStr()) == "<unprintable _BrokenStr>"
    assert safe_str(_WeirdStr()) == "<unprintable _WeirdStr>"
    assert diagnose_fn(_BrokenStr()) is None


def test_cycles_in_the_chain_are_safe():
    a, b = ValueError("a"), TypeError("Tensor is unhashable")
    a.__context__, b.__context__ = b, a
    d = diagnose_fn(a)
    assert d is None or d.recipe.id == "TFD118"


def test_internal_failure_returns_none_and_logs(monkeypatch, caplog):
    module = importlib.import_module("tfdebug.diagnosis")

    def boom(exc):
        raise RuntimeError("tfdebug bug")

    monkeypatch.setattr(module, "extract", boom)
    exc = raised_by(_truthy, tf.constant(2))
    with caplog.at_level("DEBUG", logger="tfdebug"):
        assert diagnose_fn(exc) is None
    assert "diagnosis failed" in caplog.text


def _exception_with_traceback(cls, message, filename, source):
    """An exception raised from code compiled under ``filename`` (that may not exist)."""
    namespace = {"cls": cls, "message": message}
    code = compile(source, filename, "exec")
    try:
        exec(code, namespace)
    except BaseException as exc:  # noqa: BLE001
        return exc
    return cls(message)


EXCEPTION_TYPES = [ValueError, TypeError, RuntimeError, NotImplementedError, AttributeError, KeyError,
                   tf.errors.InvalidArgumentError, tf.errors.NotFoundError,
                   errors_impl.OperatorNotAllowedInGraphError, errors_impl.InaccessibleTensorError,
                   UnicodeError, OSError, Exception]
MESSAGES = st.one_of(
    st.just(""),
    st.text(max_size=200),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
    st.sampled_from([
        "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed.",
        'in user code:\n\n    File "/no/such/file.py", line 3, in f  *\n        x\n\n'
        '    TypeError: Tensor is unhashable',
        'File "<string>", line 99999, in <module>',
        "Tensor(\"args_0:0\", shape=(), dtype=string)", "{{node cond/x}}",
        "found return value of type generator; in compilation of <function gen at 0x7f00>",
        "\udcff\ud800 surrogates", "\x00" * 50]),
    st.integers(1, 4).map(lambda k: "Iterating over a symbolic `tf.Tensor` " * (k * 50_000)),
)


def _make_source(kind, tmp_dir):
    body = "def f():\n    if True:\n        raise cls(message) if message is not None else cls()\nf()\n"
    if kind == "exec":
        return "<string>", body
    if kind == "notebook":
        name = "<ipython-input-7-abcdef>"
        linecache.cache[name] = (len(body), None, body.splitlines(True), name)
        return name, body
    path = os.path.join(tmp_dir, f"user_{kind}.py")
    if kind == "missing":
        return path, body  # compiled under a path that never exists
    if kind == "non-utf8":
        with open(path, "wb") as fh:
            fh.write(b"# \xff\xfe not utf-8\n" + body.encode() + b"\x80\x81\n")
        return path, body
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(body)
    if kind == "changed":
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("x = 1\n")  # the file changed after it was compiled
    return path, body


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(cls=st.sampled_from(EXCEPTION_TYPES), message=MESSAGES,
       source=st.sampled_from(["none", "exec", "notebook", "missing", "non-utf8", "changed", "file"]),
       chained=st.booleans())
def test_fuzz_diagnose_and_annotate_never_raise(tmp_path_factory, cls, message, source, chained):
    from tfdebug.explainer import annotate

    try:
        exc = cls(message)
    except TypeError:  # tf.errors classes take (node_def, op, message)
        exc = cls(None, None, message)
    if source != "none":
        filename, body = _make_source(source, str(tmp_path_factory.getbasetemp()))
        raised = _exception_with_traceback(lambda m=None: exc, message, filename, body)
        exc = raised if isinstance(raised, cls) else exc
    if chained:
        exc.__cause__ = ValueError(message[:100])
    args, cause = exc.args, exc.__cause__
    d = diagnose_fn(exc)
    assert d is None or isinstance(d, Diagnosis)
    if d is not None:
        d.note()  # rendering never raises either
    target, _ = annotate(exc)
    assert target is exc and exc.args == args and exc.__cause__ is cause and type(exc) is cls


def test_module_without_file_and_odd_traceback_objects():
    exc = ValueError("Using a symbolic `tf.Tensor` as a Python `bool`")
    exc.__traceback__ = None
    assert diagnose_fn(exc) is None
    fake = types.SimpleNamespace()
    assert diagnose_fn(fake) is None  # not an exception at all
    assert importlib.import_module("tfdebug.diagnosis").diagnose("text") is None


def test_graph_mode_op_error_points_at_the_line_that_built_the_op():
    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1])
        try:
            y = tf.debugging.check_numerics(tf.math.log(x), "bad")  # <- op line
        except tf.errors.InvalidArgumentError:
            y = x
    with tf.compat.v1.Session(graph=graph) as session:
        try:
            session.run(y, {x: [-1.0]})
        except tf.errors.InvalidArgumentError as exc:
            error = exc
    assert error.op is not None
    from tfdebug import _tf
    stack = _tf.op_creation_stack(error)
    assert any(f == __file__ and "<- op line" in linecache.getline(f, n) for f, n, _ in stack)
    assert _tf.op_creation_stack(ValueError()) == []
    d = diagnose_fn(error)
    assert d.recipe.id == "TFD125"  # the op sits in a try body: except cannot catch it
    assert d.file == __file__ and "<- op line" in d.code


# -- a predicate that is not a scalar: the switch refuses it at run time ------------------------

@tf.function
def _cond_on_vector(pred):
    return tf.cond(pred, lambda: 1.0, lambda: 2.0)  # <- cond


@tf.function
def _second_cond_on_vector(scalar, vector):
    first = tf.cond(scalar, lambda: 1.0, lambda: 2.0)
    second = tf.cond(vector, lambda: 1.0, lambda: 2.0)  # <- second
    return first + second


@tf.function
def _while_on_vector(x):
    return tf.while_loop(lambda v: v < 3.0, lambda v: v + 1.0, [x])  # <- while


@tf.function
def _vector_if(x):
    if x > 0:  # <- if
        return x
    return -x


@pytest.mark.parametrize("fn, args, marker", [
    (_cond_on_vector, (tf.constant([True, False]),), "<- cond"),
    (_second_cond_on_vector, (tf.constant(True), tf.constant([True, False])), "<- second"),
    (_while_on_vector, (tf.constant([1.0, 2.0]),), "<- while"),
])
def test_non_scalar_predicate_is_tensor_as_bool_at_the_construct_that_built_the_node(fn, args, marker):
    exc = raised_by(fn, *args)
    assert "must be a scalar" in str(exc)  # TensorFlow names the node, not the user's line
    d = diagnose_fn(exc)
    assert d.recipe.id == "TFD184" and d.category == "tensor-as-bool", d
    assert d.message.startswith("The second input must be a scalar")  # not "Graph execution error:"
    assert (d.file, d.line) == (__file__, _line_of(fn.python_function, marker))
    assert d.symptom is not None  # the call TensorFlow blamed


def test_autograph_if_on_a_vector_is_tensor_as_bool_not_a_branch_mismatch():
    d = diagnose_fn(raised_by(_vector_if, tf.constant([1.0, -1.0])))
    assert d.category == "tensor-as-bool" and d.recipe.id == "TFD102"
    assert d.line == _line_of(_vector_if.python_function, "<- if")


def test_static_shape_binding_is_the_shape_read_not_tf_shape():
    import ast

    from tfdebug._source import line_nodes, static_shape_binding

    tree = ast.parse("def f(x):\n"
                     "    reps = x.shape[0]\n"
                     "    n = tf.shape(x)[0]\n"
                     "    return tf.tile(x, [reps, n])\n")
    function = tree.body[0]
    nodes = line_nodes(function.body[-1], 4)
    binding = static_shape_binding(function, nodes, 4)
    assert binding is not None and binding.lineno == 2
    only_dynamic = [n for n in nodes if not (isinstance(n, ast.Name) and n.id == "reps")]
    assert static_shape_binding(function, only_dynamic, 4) is None


def test_static_shape_binding_follows_names_that_hold_dimensions():
    import ast

    from tfdebug._source import line_nodes, static_shape_binding

    tree = ast.parse("def f(x):\n"
                     "    dims = x.get_shape().as_list()\n"     # 2
                     "    rows = dims[0]\n"                     # 3
                     "    size = int(np.prod(dims[1:]))\n"      # 4: a call of np: not followed
                     "    cols = dims[1] * 2\n"                 # 5
                     "    zeros = tf.zeros(dims)\n"             # 6: a tensor, not a dimension
                     "    return tf.reshape(x, [rows, cols]), zeros, size\n")  # 7
    function = tree.body[0]
    nodes = line_nodes(function.body[-1], 7)

    def names(*wanted):
        return [n for n in nodes if not isinstance(n, ast.Name) or n.id in wanted]

    # the frame tells which one is None: that name's binding, not the latest one
    is_none = {"rows": True, "cols": False}.get
    assert static_shape_binding(function, nodes, 7, is_none=is_none).lineno == 3
    assert static_shape_binding(function, nodes, 7).lineno == 5  # unknown values: the latest
    assert static_shape_binding(function, names("zeros", "size"), 7) is None
    rebound = ast.parse("def f(x):\n    dims = x.shape\n    rows = dims[0]\n    rows = 8\n"
                        "    return tf.zeros([rows])\n").body[0]
    assert static_shape_binding(rebound, line_nodes(rebound.body[-1], 5), 5) is None


@tf.function
def _strides_from_elements(images, kernels, strides):
    return tf.map_fn(
        lambda e: tf.nn.conv2d(e[0][None], e[1], e[2], "VALID"),  # <- the lambda
        [images, kernels, strides],
        fn_output_signature=tf.float32,
    )


@tf.function
def _map_fn_one_line(values):
    return tf.map_fn(lambda v: [t for t in v], values)  # <- one line


@tf.function
def _bad_elements_outside_the_lambda(values):
    return tf.map_fn(
        lambda v: v * 2.0,
        [t for t in values],  # <- outside the lambda
    )


def test_an_error_in_a_converted_lambda_is_blamed_at_the_lambda_not_its_statement():
    images, kernels = tf.ones((2, 6, 6, 1)), tf.ones((2, 3, 3, 1, 1))
    d = diagnose_fn(raised_by(_strides_from_elements, images, kernels, tf.fill((2, 2), 1)))
    assert d.category == "tensor-iteration"
    assert d.line == _line_of(_strides_from_elements.python_function, "# <- the lambda")
    # near misses: a lambda on its statement's line, and an error outside the lambda
    d = diagnose_fn(raised_by(_map_fn_one_line, tf.ones((2, 3))))
    assert d.line == _line_of(_map_fn_one_line.python_function, "# <- one line")
    d = diagnose_fn(raised_by(_bad_elements_outside_the_lambda, tf.ones((2, 3))))
    assert d.line != _line_of(_bad_elements_outside_the_lambda.python_function, "lambda v: v * 2.0")


def _computed_dtypes_differ(x):
    if tf.reduce_sum(x) > 0:  # <- the if
        y = tf.cast(x, tf.int64)
    else:
        y = tf.cast(x, tf.int32)
    return y


def _literal_in_one_branch(x):
    if tf.reduce_sum(x) > 0:
        y = tf.reduce_sum(x)
    else:
        y = 0  # <- the literal
    return y


@pytest.mark.parametrize("fn, marker", [(_computed_dtypes_differ, "<- the if"),
                                        (_literal_in_one_branch, "<- the literal")])
def test_branches_of_different_dtypes_blame_a_literal_or_else_the_if(fn, marker):
    # two computed values prove neither branch wrong: TensorFlow's `if` line names both
    d = diagnose_fn(raised_by(tf.function(fn), tf.constant([1.0])))
    assert d is not None and d.recipe.id == "TFD157", d
    assert d.line == _line_of(fn, marker)
