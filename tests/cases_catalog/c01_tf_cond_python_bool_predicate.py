# case: c01_tf_cond_python_bool_predicate
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: tensor-as-bool
# expect: error
# raises on TF 2.21: TypeError
# line: 15
# fix: tf.cond needs a tensor predicate; for a Python bool use a Python if.


import tensorflow as tf


@tf.function
def maybe_square(x, enabled):
    return tf.cond(enabled, lambda: x * x, lambda: x)


print(maybe_square(tf.constant(3.0), False))
