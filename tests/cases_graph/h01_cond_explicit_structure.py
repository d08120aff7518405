# category: branch-mismatch
# line: 7
import tensorflow as tf

@tf.function
def f(x):
    return tf.cond(x > 0, lambda: (x, x), lambda: x)  # <-

f(tf.constant(1.0))
