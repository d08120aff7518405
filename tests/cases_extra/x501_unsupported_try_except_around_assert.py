# case: x501_unsupported_try_except_around_assert
# source: synthesised from https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md (try/except is not converted: it only sees trace-time errors)
# category: unsupported-syntax
# expect: error
# raises on TF 2.21: InvalidArgumentError
# line: 16
# also: 15,17
# fix: try/except in a tf.function only catches errors raised while tracing; the assert fails at run time. Branch on the condition instead: tf.where(x >= 0, tf.sqrt(x), 0.0), or check with tf.cond.

import tensorflow as tf


@tf.function
def checked_sqrt(x):
    try:
        tf.debugging.assert_non_negative(x)
    except tf.errors.InvalidArgumentError:
        return tf.zeros_like(x)
    return tf.sqrt(x)


print(checked_sqrt(tf.constant([-1.0])))
