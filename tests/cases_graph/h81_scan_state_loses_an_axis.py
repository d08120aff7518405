# case: h81_scan_state_loses_an_axis
# source: https://github.com/tensorflow/tensorflow/issues/7896
# category: loop-var-shape
# expect: error
# raises on TF 2.21: ValueError
# line: 16
# also: 22, 23
# fix: The scan step must return a value with exactly the initializer's shape: keep the trailing axis (keepdims=True / expand_dims) or give an initializer of shape (batch,).

import tensorflow as tf

BATCH = 4


def step(state, x_t):
    z = tf.reduce_sum(state + x_t, axis=1)
    return tf.tanh(z)


@tf.function
def run(xs):
    z0 = tf.zeros([BATCH, 1])
    return tf.scan(step, xs, initializer=z0)


print(run(tf.ones([3, BATCH, 1])).shape)
