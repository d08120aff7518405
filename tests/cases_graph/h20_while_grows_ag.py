# category: loop-var-shape
# line: 10
import tensorflow as tf

@tf.function
def f(n):
    x = tf.zeros([1])
    i = 0
    while i < n:
        x = tf.concat([x, [1.0]], 0)  # <-
        i += 1
    return x

f(tf.constant(3))
