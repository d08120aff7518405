# case: x509_dtype_float64_numpy_assign_to_float32_variable
# source: synthesised from https://www.tensorflow.org/api_docs/python/tf/Variable#assign_add (a float64 NumPy array meets a float32 variable)
# category: dtype-mismatch
# expect: error
# raises on TF 2.21: ValueError
# line: 18
# also: -
# fix: np.ones gives float64 and the variable is float32; make the input float32 (np.ones(3, np.float32)) or tf.cast(delta, w.dtype).

import numpy as np
import tensorflow as tf

w = tf.Variable(tf.zeros([3]))


@tf.function
def update(delta):
    w.assign_add(delta * 0.5)
    return w


update(tf.constant(np.ones(3)))
