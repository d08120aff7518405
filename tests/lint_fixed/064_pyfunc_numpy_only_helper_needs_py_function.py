import tensorflow as tf


def check_state(state):
    return tf.math.is_finite(state)


@tf.function
def all_finite(state):
    ok = check_state(state)
    return tf.reduce_all(ok)


print(all_finite(tf.constant([1.0, 2.0])))
