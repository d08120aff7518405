"""shape_probe() / probe(): static shapes at trace time vs the shapes that flow at run time."""
import os

import numpy as np
import pytest
import tensorflow as tf

import tfdebug
from tfdebug import report, shapes, tracing
from conftest import ROOT


def _by_name(records, name):
    found = [r for r in records if r.name == name]
    assert found, f"no record {name!r} in {[r.name for r in records]}"
    return found


def test_probe_outside_a_scope_returns_its_input_and_adds_no_op():
    x = tf.constant([1.0, 2.0])
    assert tfdebug.probe(x, "x") is x

    @tf.function
    def f(t):
        return tfdebug.probe(t * 2.0, "doubled")

    graph = f.get_concrete_function(tf.TensorSpec([None], tf.float32)).graph
    assert not [op for op in graph.get_operations() if "tfdebug" in op.name]


def test_static_vs_runtime_shapes_and_flags():
    @tf.function
    def step(x):
        unknown = tf.py_function(lambda v: tf.zeros((tf.shape(v)[0], 3)), [x], tf.float32)
        unknown = tfdebug.probe(unknown, "parsed")
        lying = tf.numpy_function(lambda v: np.zeros((len(v), 5), np.float32), [x], tf.float32)
        lying.set_shape((None, 3))
        tfdebug.probe(lying, "lying")
        return tfdebug.probe(x + 1.0, "fine")

    with report.collecting() as emitted:
        with tfdebug.shape_probe(layers=False) as probes:
            out = step(tf.ones((2, 4)))
            step(tf.ones((2, 4)))
            step(tf.ones((5, 4)))
    np.testing.assert_allclose(out.numpy(), np.full((2, 4), 2.0))  # probe() keeps the value

    parsed = _by_name(probes.records, "parsed")
    assert all(r.static_shape is None and r.flag == "TFD400" for r in parsed)
    assert sum(r.count for r in parsed) == 3
    assert {s for r in parsed for s in r.runtime} == {(2, 3), (5, 3)}

    lying = _by_name(probes.records, "lying")
    assert all(r.static_shape == (None, 3) and r.flag == "TFD401" for r in lying)

    fine = _by_name(probes.records, "fine")
    by_static = {r.static_shape: r for r in fine}
    assert by_static[(2, 4)].runtime == {(2, 4): 2}       # one trace, two calls
    assert by_static[(5, 4)].runtime == {(5, 4): 1}
    assert all(r.flag is None for r in fine)

    table = probes.table()
    assert "<unknown rank>" in table and "(None, 3)" in table and "(2, 5), (5, 5)" in table
    assert "TFD400" in table and "TFD401" in table
    header = table.splitlines()[0].split()
    assert header[:3] == ["where", "name", "mode"] and "count" in header

    recipes = {(f.recipe, f.category) for f in probes.findings}
    assert recipes == {("TFD400", "unknown-shape"), ("TFD401", "unknown-shape")}
    assert all(f.file == os.path.abspath(__file__) and f.function == "step"
               for f in probes.findings)
    assert {f.recipe for f in emitted} >= {"TFD400", "TFD401"}


def test_keras_layers_are_recorded_with_their_call_line():
    keras = pytest.importorskip("keras")
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="hidden"),
                              keras.layers.Dense(2, name="head")])

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def predict(x):
        return model(x)

    original_call = keras.Layer.__call__
    with tfdebug.shape_probe() as probes:
        assert keras.Layer.__call__ is not original_call
        predict(tf.ones((8, 4)))
        predict(tf.ones((3, 4)))
        model(tf.ones((1, 4)))          # eager: static shape is the runtime shape
    line = predict.python_function.__code__.co_firstlineno + 2
    hidden_in = [r for r in _by_name(probes.records, "hidden:in") if r.traced]
    assert hidden_in[0].static_shape == (None, 4)
    assert dict(hidden_in[0].runtime) == {(8, 4): 1, (3, 4): 1}
    assert hidden_in[0].line == line and hidden_in[0].function == "predict"
    head_out = [r for r in _by_name(probes.records, "head:out") if r.traced][0]
    assert head_out.static_shape == (None, 2) and set(head_out.runtime) == {(8, 2), (3, 2)}
    eager = [r for r in _by_name(probes.records, "head:out") if not r.traced]
    assert eager[0].static_shape == (1, 2) and eager[0].count == 1
    assert keras.Layer.__call__ is original_call     # the hook is gone


def test_probe_ops_do_not_outlive_the_scope():
    @tf.function
    def f(x):
        return tfdebug.probe(x * 2.0, "doubled")

    with tfdebug.shape_probe() as probes:
        f(tf.constant([1.0]))
    assert _by_name(probes.records, "doubled")[0].count == 1
    f(tf.constant([2.0]))              # retraced: the probed graph was dropped
    graph = f.get_concrete_function(tf.constant([2.0])).graph
    assert not [op for op in graph.get_operations() if "tfdebug" in op.name]
    assert _by_name(probes.records, "doubled")[0].count == 1   # not observed after exit
    assert not tracing.active() and not shapes._active


def test_function_traced_before_the_scope_is_left_alone():
    @tf.function
    def f(x):
        return tfdebug.probe(x + 1, "plus")

    f(tf.constant(1))
    with tfdebug.shape_probe() as probes:
        f(tf.constant(2))
    assert probes.records == []
    assert f.experimental_get_tracing_count() == 1     # nothing was retraced


def test_probe_in_tf_data_map():
    def parse(v):
        return tfdebug.probe(tf.py_function(lambda t: tf.fill([int(t)], 1.0), [v], tf.float32),
                             "row")

    with tfdebug.shape_probe() as probes:
        rows = [r.numpy().tolist() for r in tf.data.Dataset.from_tensor_slices([1, 3]).map(parse)]
    assert rows == [[1.0], [1.0, 1.0, 1.0]]
    record = _by_name(probes.records, "row")[0]
    assert record.flag == "TFD400" and dict(record.runtime) == {(1,): 1, (3,): 1}


def test_nested_scopes_both_record_and_decorator_form():
    @tf.function
    def f(x):
        return tfdebug.probe(x, "x")

    with tfdebug.shape_probe() as outer:
        with tfdebug.shape_probe() as inner:
            f(tf.zeros((2, 2)))
        f(tf.zeros((2, 2)))
    assert _by_name(inner.records, "x")[0].count == 1
    assert _by_name(outer.records, "x")[0].count == 2

    @tfdebug.shape_probe()
    def run():
        return f(tf.zeros((3,)))

    assert run().shape == (3,)


def test_bad_input_is_rejected_clearly():
    with pytest.raises(TypeError, match="layers"):
        tfdebug.shape_probe(layers="yes")
    with tfdebug.shape_probe():
        with pytest.raises(TypeError, match="convert_to_tensor"):
            tfdebug.probe([1, 2], "x")
        with pytest.raises(TypeError, match="str name"):
            tfdebug.probe(tf.constant(1), 3)


def test_example_script_runs(forked_python):
    # `python SCRIPT` in a fork of the case server (the example's one setting of the process,
    # TF_CPP_MIN_LOG_LEVEL if unset, is the server's already)
    proc = forked_python(os.path.join(ROOT, "examples", "shapes.py"), cwd=ROOT,
                         env={"TF_CPP_MIN_LOG_LEVEL": "3"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "TFD400" in proc.stdout and "<unknown rank>" in proc.stdout
