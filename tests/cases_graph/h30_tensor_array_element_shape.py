# category: generic:-
# line: 9
import tensorflow as tf

@tf.function
def f(n):
    ta = tf.TensorArray(tf.float32, size=n, element_shape=[2])
    for i in tf.range(n):
        ta = ta.write(i, tf.zeros([3]))  # <-
    return ta.stack()

f(tf.constant(2))
