# case: x102_bool_while_in_do_not_convert_helper
# source: https://github.com/Visual-Behavior/detr-tensorflow/issues/32
# category: tensor-as-bool|autograph-conversion
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 16
# also: -
# fix: The helper is excluded from AutoGraph (do_not_convert), so its `while` needs a Python bool; remove the decorator or write the loop with tf.while_loop.

import tensorflow as tf


@tf.autograph.experimental.do_not_convert
def count_halvings(x):
    steps = tf.constant(0)
    while x > 1.0:
        x = x / 2.0
        steps += 1
    return steps


@tf.function
def depth(x):
    return count_halvings(x) * 2


print(depth(tf.constant(40.0)))
