import tensorflow as tf


@tf.function
def faulty_function(x):
    if x != 0:
        return x * 2
    return x


print(faulty_function(tf.constant(5)))
