# case: x503_unknown_shape_numpy_function_shape_index
# source: synthesised from https://www.tensorflow.org/api_docs/python/tf/numpy_function (its output has an unknown shape)
# category: unknown-shape|unknown-length
# expect: error
# raises on TF 2.21: TypeError
# line: 20
# also: 19
# fix: tf.numpy_function returns a tensor of unknown shape, so image.shape[0] is None; give it a shape with tf.ensure_shape(image, [4, 4, 3]) or use tf.shape(image).

import numpy as np
import tensorflow as tf


def load(i):
    return np.ones((4, 4, 3), np.float32) * i


def prepare(i):
    image = tf.numpy_function(load, [i], tf.float32)
    flat = tf.reshape(image, [image.shape[0] * image.shape[1], 3])
    return flat


ds = tf.data.Dataset.range(2).map(prepare)
print(next(iter(ds)).shape)
