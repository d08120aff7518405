# category: generic:-
# line: 9
import tensorflow as tf

@tf.function
def f():
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, tf.constant([1.0, 2.0]))
    ta = ta.write(1, tf.constant([1.0, 2.0, 3.0]))  # <-
    return ta.stack()

f()
