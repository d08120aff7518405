# case: x126_loop_shape_invariant_no_longer_fails
# source: https://github.com/tensorflow/tensorflow/issues/38438
# category: loop-var-shape
# expect: none
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: No fix needed: a loop variable that grows is fine once its shape invariant is relaxed with tf.autograph.experimental.set_loop_options. A tool must NOT flag this.

import tensorflow as tf


@tf.function
def powers(n):
    out = tf.constant([1])
    for _ in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(out, tf.TensorShape([None]))])
        out = tf.concat([out, out[-1:] * 2], axis=0)
    return out


print(powers(tf.constant(4)))
