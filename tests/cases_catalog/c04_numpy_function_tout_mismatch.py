# case: c04_numpy_function_tout_mismatch
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: dtype-mismatch
# expect: error
# raises on TF 2.21: InvalidArgumentError
# line: 20
# fix: numpy_function's Tout must match what the Python function returns (float64 here); cast in Python or declare tf.float64.


import numpy as np
import tensorflow as tf


def smooth(v):
    return np.convolve(v, np.ones(3) / 3, mode="same")


@tf.function
def preprocess(x):
    return tf.numpy_function(smooth, [x], tf.float32)


print(preprocess(tf.constant([1.0, 2.0, 3.0, 4.0])))
