# category: generic:loop-var-shape
# line: 9
import tensorflow as tf

@tf.function
def f(n):
    total = tf.constant(0)
    for i in tf.range(n):
        total = tf.cast(i, tf.float32) * 0.5  # <-
    return total

f(tf.constant(3))
