# case: x605_dtype_float64_tensor_into_float32_input_signature
# source: synthesised from https://www.tensorflow.org/api_docs/python/tf/function (input_signature converts NumPy arrays but never casts tensors; tf.constant keeps NumPy's float64)
# category: dtype-mismatch
# expect: error
# raises on TF 2.21: TypeError
# line: 21
# also: 19
# fix: tf.constant of a NumPy float64 array is a float64 tensor and the signature says float32; build it as float32 (.astype(np.float32), dtype=tf.float32) or tf.cast it before the call.

import numpy as np
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def normalise(batch):
    return (batch - tf.reduce_mean(batch, axis=0)) / (tf.math.reduce_std(batch, axis=0) + 1e-6)


features = tf.constant(np.random.default_rng(0).normal(size=(8, 3)))
print(normalise(tf.constant(np.ones((2, 3), np.float32))).shape)
print(normalise(features).shape)
