# category: generic:-
# line: 7
import tensorflow as tf

@tf.function
def f(x):
    return tf.map_fn(lambda e: (e, e * 2), x)  # <-

f(tf.constant([1.0, 2.0]))
