# case: x402_branch_only_if_defines_name
# source: synthesised from https://www.tensorflow.org/guide/function#conditionals (a name set in only one branch of a tensor if)
# category: branch-mismatch
# expect: error
# raises on TF 2.21: ValueError
# line: 16
# also: 15,17
# fix: A tensor `if` becomes tf.cond and both branches must define `scale`; set it before the `if` or in an `else` branch.

import tensorflow as tf


@tf.function
def clip(x):
    if tf.reduce_sum(x) > 0:
        scale = 2.0 * x
    return x * scale


print(clip(tf.constant([1.0, -3.0])))
