# case: x224_clean_print_guarded_by_executing_eagerly
# source: https://github.com/tensorflow/tensorflow/issues/38555
# category: trace-time-side-effect
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: the print and the list append only run when the function runs eagerly (tf.executing_eagerly() is False while tracing); tf.print covers graph mode.

import tensorflow as tf

debug_values = []


@tf.function
def step(x):
    y = x * 2.0
    if tf.executing_eagerly():
        print("eager value", y.numpy())
        debug_values.append(y.numpy())
    else:
        tf.print("graph value", y)
    return y


for i in range(3):
    step(tf.constant(float(i)))
print(len(debug_values))
