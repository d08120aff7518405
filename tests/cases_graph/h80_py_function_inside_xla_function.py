# case: h80_py_function_inside_xla_function
# source: https://github.com/tensorflow/tensorflow/issues/51493
# category: numpy-in-graph
# expect: error
# raises on TF 2.21: InvalidArgumentError
# line: 25
# also: 21
# fix: jit_compile=True must compile the whole function with XLA, which cannot run a Python/NumPy callback; compute the loss with TF ops or drop jit_compile (or move the py_function out of the compiled function).

import numpy as np
import tensorflow as tf

w = tf.Variable(tf.random.normal((2, 4)))
b = tf.Variable(tf.zeros((4,)))


def compare(y_true, output):
    return np.square(y_true - output).astype(np.float32)


@tf.function(jit_compile=True)
def loss_fn(x):
    y_true = tf.ones((1, 4))
    output = tf.nn.relu(tf.matmul(x, w) + b)
    comp = tf.py_function(compare, [y_true, output], tf.float32)
    return tf.reduce_mean(comp)


print(loss_fn(tf.constant([[7.0, 3.0]])))
