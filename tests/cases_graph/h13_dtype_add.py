# category: dtype-mismatch
# line: 7
import tensorflow as tf

@tf.function
def f(a, b):
    return a + b  # <-

f(tf.constant(1), tf.constant(2.0))
