# case: c02_tf_cond_branch_without_return
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: branch-mismatch
# expect: error
# raises on TF 2.21: ValueError
# line: 18
# fix: Both tf.cond branches must return the same structure; return a value from the logging branch too.


import tensorflow as tf


@tf.function
def safe_log(x):
    def warn():
        tf.print("non-positive input", x)

    return tf.cond(x > 0, lambda: tf.math.log(x), warn)


print(safe_log(tf.constant(2.0)))
