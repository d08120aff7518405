# case: c15_if_leaves_variable_none
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: branch-mismatch
# expect: error
# raises on TF 2.21: ValueError
# line: 17
# also: 16
# fix: found is None on the path where the if is not taken; give it a tensor value before the if (e.g. tf.constant(float("nan"))).


import tensorflow as tf


@tf.function
def first_positive(x):
    found = None
    if tf.reduce_any(x > 0):
        found = tf.boolean_mask(x, x > 0)[0]
    return found


print(first_positive(tf.constant([-1.0, 3.0])))
