# category: variable-creation
# line: 7
import tensorflow as tf

@tf.function
def f(x):
    v = tf.Variable(1.0)  # <-
    return v * x

f(tf.constant(1.0))
f(tf.constant([1.0, 2.0]))
