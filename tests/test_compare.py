"""compare(): eager vs graph outputs, variables, prints and timing of the same call."""
import collections
import os

import numpy as np
import pytest
import tensorflow as tf

import tfdebug
from tfdebug import report
from conftest import ROOT

Pair = collections.namedtuple("Pair", "low high")


def test_matching_nested_outputs_and_readable_table():
    @tf.function
    def stats(x):
        return {"mean": tf.reduce_mean(x), "range": Pair(tf.reduce_min(x), tf.reduce_max(x)),
                "parts": [x[:1], x[1:]]}

    result = tfdebug.compare(stats, tf.constant([1.0, 2.0, 6.0]), repeats=5)
    assert result.match and result.outputs_match
    # A function this small is near 1.0x either way; only the timing verdict may flip.
    assert set(result.recipes) <= {"TFD403"}
    paths = [leaf.path for leaf in result.outputs]
    assert paths == ["output['mean']", "output['parts'][0]", "output['parts'][1]",
                     "output['range'].low", "output['range'].high"]
    assert all(leaf.max_abs == 0.0 for leaf in result.outputs)
    assert result.eager_time > 0 and result.graph_time > 0
    assert result.speedup == pytest.approx(result.eager_time / result.graph_time)
    text = str(result)
    assert "tfdebug.compare: stats" in text and "max abs diff" in text
    assert "median us/call" in text and "speed-up of graph over eager" in text
    assert "verdict: results match" in text


def test_results_that_differ_name_the_leaf_and_the_recipe():
    calls = {"n": 0}

    def scaled(x):                       # a Python counter: frozen into the graph
        calls["n"] += 1
        return {"same": x + 1.0, "scaled": x * float(calls["n"])}

    with report.collecting() as emitted:
        result = tfdebug.compare(scaled, tf.constant([1.0, 2.0]), repeats=3, warmup=0)
    assert not result.match and "TFD402" in result.recipes
    by_path = {leaf.path: leaf for leaf in result.outputs}
    assert by_path["output['same']"].match
    differing = by_path["output['scaled']"]
    assert not differing.match and differing.max_abs == pytest.approx(2.0)
    assert differing.max_rel == pytest.approx(0.5)
    assert "2 of 2 elements differ" in differing.note
    assert "results differ" in result.verdict and "output['scaled']" in result.verdict
    assert "NO" in str(result)
    assert any(f.recipe == "TFD402" and f.category == "trace-time-side-effect" for f in emitted)


def test_tolerances_are_applied():
    def noisy(x):
        return x + (0.0 if tf.executing_eagerly() else 1e-4)

    assert not tfdebug.compare(noisy, tf.constant(1.0), repeats=2).match
    assert tfdebug.compare(noisy, tf.constant(1.0), atol=1e-3, repeats=2).match


def test_variables_are_compared_and_restored():
    v = tf.Variable([1.0, 1.0])
    hits = {"n": 0}

    @tf.function
    def update(x):
        hits["n"] += 1                   # Python state: the graph always adds x * 1
        v.assign_add(x * hits["n"])
        return v.read_value()

    result = tfdebug.compare(update, tf.constant([1.0, 2.0]), repeats=3, warmup=1)
    np.testing.assert_array_equal(v.numpy(), [1.0, 1.0])       # restored
    assert len(result.variables) == 1 and not result.variables[0].match
    assert not result.variables_match and "TFD402" in result.recipes

    tfdebug.compare(update, tf.constant([1.0, 2.0]), repeats=2, warmup=0,
                    restore_variables=False)
    assert not np.array_equal(v.numpy(), [1.0, 1.0])            # told not to restore


def test_prints_that_happen_in_one_mode_only():
    @tf.function
    def loud(x):
        print("python print", x.shape)
        return x * 2

    @tf.function
    def tf_loud(x):
        tf.print("tf print", x)
        return x * 2

    result = tfdebug.compare(loud, tf.constant(3), repeats=2)
    assert result.effects_differ and "TFD404" in result.recipes
    assert "python print" in result.eager_prints[-1]
    assert "python print" in result.graph_prints[0] and result.graph_prints[-1] == ""
    assert "printed on a later call" in str(result)

    quiet = tfdebug.compare(tf_loud, tf.constant(3), repeats=2)
    assert not quiet.effects_differ and "TFD404" not in quiet.recipes
    assert "tf print 3" in quiet.eager_prints[-1] and "tf print 3" in quiet.graph_prints[-1]


def test_tiny_function_is_slower_as_a_graph():
    @tf.function
    def add_one(x):
        return x + 1.0

    result = tfdebug.compare(add_one, tf.constant(1.0), repeats=30)
    assert result.speedup < 1.0 and "TFD403" in result.recipes
    assert "too small" in result.verdict and result.retraces == 0


def test_bad_arguments_are_rejected_clearly():
    with pytest.raises(TypeError, match="callable"):
        tfdebug.compare(3)
    with pytest.raises(ValueError, match="rtol"):
        tfdebug.compare(tf.identity, tf.constant(1), rtol=-1)
    with pytest.raises(ValueError, match="repeats"):
        tfdebug.compare(tf.identity, tf.constant(1), repeats=0)
    with pytest.raises(TypeError, match="restore_variables"):
        tfdebug.compare(tf.identity, tf.constant(1), restore_variables="no")


def test_example_reproduces_the_classic_claim(forked_python):
    # `python SCRIPT` in a fork of the case server (the example's one setting of the process,
    # TF_CPP_MIN_LOG_LEVEL if unset, is the server's already)
    proc = forked_python(os.path.join(ROOT, "examples", "compare_training_step.py"),
                         "--repeats", "8", cwd=ROOT, env={"TF_CPP_MIN_LOG_LEVEL": "3"},
                         timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = dict(line.split(":", 1) for line in proc.stdout.splitlines()
                 if line.startswith(("10-layer", "tiny", "model weights")))
    faster = float(lines["10-layer training step"].split("graph is ")[1].split("x")[0])
    tiny = float(lines["tiny add_one"].split("graph is ")[1].split("x")[0])
    assert faster > 1.0 and tiny < 1.0
    assert lines["model weights unchanged by compare()"].strip() == "True"
