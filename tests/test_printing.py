"""print_to_tfprint() and ic(): prints in traced code run every call, and leave no trace."""
import builtins
import logging
import sys

import pytest
import tensorflow as tf

import tfdebug
from tfdebug import _tf
from tfdebug.printing import print_to_tfprint


def _ops(concrete):
    return {op.type for op in concrete.graph.get_operations()}


def test_prints_every_call_with_runtime_values(capfd):
    @tf.function
    def step(x):
        print("x =", x, "y", sep="|", end="!\n")
        print("err", x + 1, file=sys.stderr)
        return x * 2

    with print_to_tfprint():
        step(tf.constant(1))
        step(tf.constant(2))
        print("eager", 3)
    out, err = capfd.readouterr()
    assert out.count("x =|1|y!") == 1 and out.count("x =|2|y!") == 1
    assert "eager 3" in out
    assert "err 2" in err and "err 3" in err
    assert "Tensor(" not in out + err


def test_fstrings_and_format_in_print_are_converted(capfd):
    @tf.function
    def step(x):
        print(f"loss={x} next={x + 1}")
        print("two: {}".format(x * 2))
        return x

    with print_to_tfprint():
        step(tf.constant(5))
        step(tf.constant(6))
    out, _ = capfd.readouterr()
    assert "loss=5 next=6" in out and "loss=6 next=7" in out
    assert "two: 10" in out and "two: 12" in out
    assert "Tensor(" not in out and "\x00" not in out


def test_no_trace_outlives_the_scope(capfd):
    @tf.function
    def first_traced_inside(x):
        print("inside", x)
        return x + 1

    @tf.function
    def traced_before(x):
        print("before", x)
        return x + 1

    traced_before(tf.constant(0))
    count_before = traced_before.experimental_get_tracing_count()
    with print_to_tfprint():
        first_traced_inside(tf.constant(1))
        traced_before(tf.constant(1))
        assert "PrintV2" in _ops(first_traced_inside.get_concrete_function(tf.constant(1)))
    capfd.readouterr()
    assert builtins.print is tfdebug.printing._real_print
    assert not _tf.trace_caches_redirected() and not _tf.tensor_format_hooked()

    assert int(first_traced_inside(tf.constant(2))) == 3
    assert int(traced_before(tf.constant(2))) == 3
    out, err = capfd.readouterr()
    assert "inside 2" not in out + err and "before 2" not in out + err
    # the function traced before keeps its own trace; the other one traces again, clean
    assert traced_before.experimental_get_tracing_count() == count_before
    assert "PrintV2" not in _ops(first_traced_inside.get_concrete_function(tf.constant(2)))
    assert "PrintV2" not in _ops(traced_before.get_concrete_function(tf.constant(2)))


def test_nesting_decorator_and_exceptions_restore_print():
    @print_to_tfprint()
    def decorated():
        with print_to_tfprint():
            assert builtins.print is not tfdebug.printing._real_print
        assert builtins.print is not tfdebug.printing._real_print
        raise KeyError("mine")

    with pytest.raises(KeyError, match="mine"):
        decorated()
    assert builtins.print is tfdebug.printing._real_print
    assert not _tf.trace_caches_redirected()


def test_prints_of_library_code_stay_python_prints(capfd):
    @tf.function
    def step(x):
        return tf.reduce_sum(x)

    with print_to_tfprint():
        step(tf.ones([2]))
        # a print outside any trace, from a function that is not traced
        print("plain", end="")
    out, _ = capfd.readouterr()
    assert out == "plain"


# -- ic -------------------------------------------------------------------------------------

@pytest.fixture
def ic_output():
    import icecream

    lines = []
    saved = (icecream.ic.prefix, icecream.ic.outputFunction)
    tfdebug.ic.configureOutput(prefix="dbg| ", outputFunction=lines.append)
    try:
        yield lines
    finally:
        icecream.ic.configureOutput(prefix=saved[0], outputFunction=saved[1])


def test_ic_in_eager_code_is_icecream(ic_output):
    value = 41
    assert tfdebug.ic(value + 1) == 42
    assert tfdebug.ic(1, 2) == (1, 2)
    assert ic_output[0] == "dbg| value + 1: 42"


def test_ic_in_graph_prints_every_call_and_returns(ic_output, capfd, caplog):
    @tf.function
    def step(x):
        y = tfdebug.ic(x * 2)
        a, b = tfdebug.ic(x, y)
        return a + b

    with caplog.at_level(logging.WARNING):
        assert int(step(tf.constant(1))) == 3
        assert int(step(tf.constant(2))) == 6
    assert ic_output == ["dbg| x * 2: 2", "dbg| x: 1, y: 2", "dbg| x * 2: 4", "dbg| x: 2, y: 4"]
    _, err = capfd.readouterr()
    assert "AutoGraph" not in err + caplog.text


def test_ic_in_a_dataset_map(ic_output):
    ds = tf.data.Dataset.range(3).map(lambda i: tfdebug.ic(i + 10))
    assert [int(v) for v in ds] == [10, 11, 12]
    assert ic_output == ["dbg| i + 10: 10", "dbg| i + 10: 11", "dbg| i + 10: 12"]
