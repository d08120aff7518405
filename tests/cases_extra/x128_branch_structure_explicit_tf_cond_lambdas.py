# case: x128_branch_structure_explicit_tf_cond_lambdas
# source: https://github.com/tensorflow/tensorflow/issues/40916
# category: branch-mismatch
# expect: error
# raises on TF 2.21: AssertionError
# line: 17
# also: 18,15
# fix: Both callables of tf.cond must return the same structure (a pair here, a single tensor there); return (x, tf.ones_like(x)) from the false branch too.

import tensorflow as tf


@tf.function
def split_or_pass(x):
    return tf.cond(
        tf.reduce_sum(x) > 0,
        lambda: (x, tf.zeros_like(x)),
        lambda: x,
    )


print(split_or_pass(tf.constant([1.0, 2.0])))
