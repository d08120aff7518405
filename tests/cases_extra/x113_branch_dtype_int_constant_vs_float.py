# case: x113_branch_dtype_int_constant_vs_float
# source: synthesised from TF AutoGraph reference (control_flow.md: both branches of a tensor if must give each variable the same dtype); cf. https://github.com/tensorflow/tensorflow/issues/40916
# category: branch-mismatch
# expect: error
# raises on TF 2.21: TypeError
# line: 18
# also: 16,15
# fix: The Python int 0 becomes an int32 tensor while the other branch gives float32; write `penalty = 0.0` (or tf.zeros_like).

import tensorflow as tf


@tf.function
def weight_penalty(w):
    if tf.reduce_max(tf.abs(w)) > 1.0:
        penalty = tf.reduce_sum(tf.square(w))
    else:
        penalty = 0
    return penalty


print(weight_penalty(tf.constant([0.5, 2.0])))
