# case: c21_explicit_while_loop_shape_grows
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: loop-var-shape
# expect: error
# raises on TF 2.21: ValueError
# line: 18
# also: 16
# fix: The loop variable grows each iteration; pass shape_invariants with a None dimension.

import tensorflow as tf


@tf.function
def build(n):
    def body(i, acc):
        return i + 1, tf.concat([acc, [tf.cast(i, tf.float32)]], axis=0)

    return tf.while_loop(lambda i, acc: i < n, body, [tf.constant(0), tf.zeros([1])])


print(build(tf.constant(3)))
