# case: c20_tf_cond_branches_return_different_dtypes
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: branch-mismatch|dtype-mismatch
# expect: error
# raises on TF 2.21: TypeError|ValueError
# line: 15
# fix: Both tf.cond branches must return the same dtype; return 0.0 rather than 0.


import tensorflow as tf


@tf.function
def hinge(margin):
    return tf.cond(margin > 0, lambda: margin, lambda: tf.constant(0))


print(hinge(tf.constant(0.5)))
