import tensorflow as tf


@tf.function
def my_function(x):
    range_lim = tf.shape(x)[0]
    range_array = tf.range(range_lim)
    return x + tf.cast(range_array, x.dtype)


print(my_function(tf.zeros([4])))
