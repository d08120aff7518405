# category: branch-mismatch
# line: 9
# also: 8
import tensorflow as tf

@tf.function
def f(x):
    if x > 0:
        y = x * 2  # <-
    return y

f(tf.constant(1.0))
