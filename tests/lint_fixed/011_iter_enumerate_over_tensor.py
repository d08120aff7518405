import tensorflow as tf


@tf.function
def weighted_sum(x):
    total = tf.constant(0.0)
    for i in tf.range(tf.shape(x)[0]):
        total += tf.cast(i, tf.float32) * x[i]
    return total


print(weighted_sum(tf.constant([1.0, 2.0, 3.0])))
