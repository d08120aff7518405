"""print_to_tfprint() retraces only the functions whose code (or what it calls) calls print,
read from their source; the others keep their traces inside the scope."""
import functools
import textwrap

import pytest
import tensorflow as tf

from tfdebug import print_to_tfprint

pytestmark = pytest.mark.smoke


def _helper_that_prints(x):
    print("helper", x)
    return x


def test_only_functions_that_print_trace_afresh(capfd):
    @tf.function
    def quiet(x):
        return tf.reduce_sum(x * 2)

    @tf.function
    def loud(x):
        print("loud", x)
        return x + 1

    @tf.function
    def through_helper(x):
        return _helper_that_prints(x) * 3

    x = tf.constant(2.0)
    for fn in (quiet, loud, through_helper):
        fn(x)
    counts = {fn: fn.experimental_get_tracing_count() for fn in (quiet, loud, through_helper)}
    capfd.readouterr()
    with print_to_tfprint():
        for _ in range(2):
            for fn in (quiet, loud, through_helper):
                fn(x)
    out = capfd.readouterr().out
    assert quiet.experimental_get_tracing_count() == counts[quiet]  # kept its trace
    assert out.count("loud 2") == 2 and out.count("helper 2") == 2   # runtime values, per call


def test_a_function_whose_source_cannot_be_read_still_traces_afresh(capfd):
    namespace = {"tf": tf}
    exec(textwrap.dedent("""
        def hidden(x):
            print("hidden", x)
            return x + 1
    """), namespace)
    hidden = tf.function(namespace["hidden"])
    partial = tf.function(functools.partial(_helper_that_prints))
    x = tf.constant(5)
    hidden(x)
    partial(x)
    capfd.readouterr()
    with print_to_tfprint():
        hidden(x)
        partial(x)
    out = capfd.readouterr().out
    assert "hidden 5" in out and "helper 5" in out


def test_with_shape_probe_a_function_that_does_not_print_is_not_retraced():
    import tfdebug

    @tf.function
    def quiet(x):
        return tf.reduce_sum(x * 2)

    x = tf.constant([1.0, 2.0])
    quiet(x)
    count = quiet.experimental_get_tracing_count()
    with tfdebug.shape_probe(), print_to_tfprint():
        for _ in range(3):
            quiet(x)
    with print_to_tfprint(), tfdebug.shape_probe():
        quiet(x)
    assert quiet.experimental_get_tracing_count() == count  # neither scope made it trace
