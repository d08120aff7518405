# case: x129_loop_shape_grows_explicit_while_loop
# source: https://github.com/tensorflow/tensorflow/issues/38438
# category: loop-var-shape
# expect: error
# raises on TF 2.21: ValueError
# line: 14
# also: 19
# fix: A tf.while_loop variable whose shape grows needs shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])] (or a TensorArray).

import tensorflow as tf


def body(i, acc):
    return i + 1, tf.concat([acc, acc[-1:] + 1], axis=0)


@tf.function
def count_up(n):
    _, out = tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), tf.constant([0])])
    return out


print(count_up(tf.constant(3)))
