# category: generic:-
# line: 7
# also: 11
import tensorflow as tf

def first_unique(row):
    return tf.unique(row).y[0]  # <-

@tf.function
def f(x):
    return tf.vectorized_map(first_unique, x, fallback_to_while_loop=False)

f(tf.constant([[1.0, 1.0], [2.0, 3.0]]))
