import tensorflow as tf


@tf.function
def tf_function_with_loop(num_iter):
    digits = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(num_iter):
        digits = digits.write(i, i)
    return tf.reduce_sum(digits.stack())


print(tf_function_with_loop(5))
