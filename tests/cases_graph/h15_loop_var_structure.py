# category: loop-var-shape
# line: 9
import tensorflow as tf

@tf.function
def f(n):
    state = (tf.constant(0), tf.constant(0))
    for i in tf.range(n):
        state = (i,)  # <-
    return state

f(tf.constant(3))
