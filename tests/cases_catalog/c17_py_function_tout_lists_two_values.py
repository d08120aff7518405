# case: c17_py_function_tout_lists_two_values
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: dtype-mismatch
# expect: error
# raises on TF 2.21: InvalidArgumentError
# line: 19
# fix: Tout lists two dtypes but the Python function returns one value; make them agree.


import tensorflow as tf


def stats(v):
    return tf.reduce_mean(v)


@tf.function
def summarise(x):
    return tf.py_function(stats, [x], Tout=[tf.float32, tf.float32])


print(summarise(tf.constant([1.0, 2.0, 3.0])))
