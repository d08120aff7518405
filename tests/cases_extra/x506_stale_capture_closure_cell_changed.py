# case: x506_stale_capture_closure_cell_changed
# source: synthesised from https://www.tensorflow.org/guide/function#depending_on_python_global_and_free_variables (a closure cell)
# category: stale-capture
# expect: warning
# raises on TF 2.21: nothing
# line: 18
# also: 29
# fix: The closure variable was read once, at trace time; keep the factor in a tf.Variable and assign it, or pass it as a tensor argument.

import tensorflow as tf


def make_scaler():
    factor = 1.0

    @tf.function
    def scale(x):
        return x * factor

    def set_factor(value):
        nonlocal factor
        factor = value

    return scale, set_factor


scale, set_factor = make_scaler()
print(float(scale(tf.constant(2.0))))
set_factor(3.0)
print(float(scale(tf.constant(2.0))))
