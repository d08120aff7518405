# category: dtype-mismatch
# line: 8
import tensorflow as tf

@tf.function
def f():
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.write(0, tf.constant(1))  # <-
    return ta.stack()

f()
