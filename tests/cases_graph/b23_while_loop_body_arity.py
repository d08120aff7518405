# category: generic:loop-var-shape
# line: 9
import tensorflow as tf

@tf.function
def count(n):
    i = tf.constant(0)
    total = tf.constant(0)
    i, total = tf.while_loop(lambda i, t: i < n, lambda i, t: (i + 1,), [i, total])
    return total

print(count(tf.constant(3)))
