# case: c23_if_only_branch_returns
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: branch-mismatch
# expect: error
# raises on TF 2.21: ValueError
# line: 15
# fix: Return a value on both paths of the tensor-dependent if.


import tensorflow as tf


@tf.function
def safe_inverse(x):
    if tf.abs(x) > 1e-6:
        return 1.0 / x


print(safe_inverse(tf.constant(2.0)))
