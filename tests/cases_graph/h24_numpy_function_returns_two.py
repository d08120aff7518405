# category: dtype-mismatch
# line: 12
# also: 8
import numpy as np
import tensorflow as tf

def pair(v):
    return v, v * np.float32(2)

@tf.function
def f(x):
    return tf.numpy_function(pair, [x], Tout=[tf.float32])  # <-

f(tf.constant(1.0))
