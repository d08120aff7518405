# case: x403_loop_var_shape_grows_in_for_over_tf_range
# source: synthesised from https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md (loop variables must keep their shape)
# category: loop-var-shape
# expect: error
# raises on TF 2.21: ValueError
# line: 17
# also: 15,16
# fix: The loop variable grows each iteration; accumulate in a tf.TensorArray, or declare the growth with tf.autograph.experimental.set_loop_options(shape_invariants=[(seq, tf.TensorShape([None]))]).

import tensorflow as tf


@tf.function
def grow(n):
    seq = tf.zeros([1])
    for i in tf.range(n):
        seq = tf.concat([seq, [tf.cast(i, tf.float32)]], axis=0)
    return seq


print(grow(tf.constant(3)))
