import tensorflow as tf


@tf.function
def safe_log(x):
    y = tf.math.log(x)
    return tf.where(tf.math.is_finite(y), y, tf.zeros_like(y))


print(safe_log(tf.constant([-1.0])))
