import tensorflow as tf


def relu(x):
    return x if x > 0 else 0.0 * x


f = tf.function(relu)
print(f(tf.constant(2.0)))
