# category: dtype-mismatch
# line: 7
import tensorflow as tf

@tf.function
def f(x):
    return tf.map_fn(lambda e: tf.cast(e, tf.int64), x)  # <-

f(tf.constant([1.0, 2.0]))
