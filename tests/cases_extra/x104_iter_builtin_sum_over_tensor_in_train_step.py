# case: x104_iter_builtin_sum_over_tensor_in_train_step
# source: https://github.com/tensorflow/tensorflow/issues/33308
# category: tensor-iteration
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 19
# also: -
# fix: Python's sum() iterates over its argument; a symbolic tensor cannot be iterated. Use tf.reduce_sum(per_example).

import tensorflow as tf

w = tf.Variable([[0.5], [0.5]])


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        per_example = tf.square(tf.matmul(x, w) - y)[:, 0]
        total = sum(per_example) / 4.0
    w.assign_sub(0.1 * tape.gradient(total, w))
    return total


print(train_step(tf.ones((4, 2)), tf.zeros((4, 1))))
