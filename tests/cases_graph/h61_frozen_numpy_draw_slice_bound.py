# category: trace-time-side-effect
# line: 12
# also: 13
# mechanism: a NumPy draw made while tracing is the size of a slice; the graph keeps that
# one size, and a later, shorter input cannot be sliced to it
import numpy as np
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def crop(signal):
    length = int(np.random.default_rng(0).integers(6, 9))
    return tf.slice(signal, [0], [length])


print(crop(tf.ones([10])).shape)
print(crop(tf.ones([4])).shape)
