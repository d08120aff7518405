# category: generic:-
# line: 10
import tensorflow as tf

@tf.function
def last(n):
    ta = tf.TensorArray(tf.float32, size=n)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32))
    return ta.read(n)  # <-

last(tf.constant(3))
