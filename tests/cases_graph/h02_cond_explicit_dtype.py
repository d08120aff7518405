# category: branch-mismatch
# line: 7
import tensorflow as tf

@tf.function
def f(x):
    return tf.cond(x > 0, lambda: tf.constant(1), lambda: tf.constant(1.0))  # <-

f(tf.constant(1.0))
