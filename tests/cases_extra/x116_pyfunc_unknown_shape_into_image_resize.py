# case: x116_pyfunc_unknown_shape_into_image_resize
# source: https://github.com/tensorflow/tensorflow/issues/35108
# category: unknown-shape
# expect: error
# raises on TF 2.21: ValueError
# line: 19
# also: 20
# fix: tf.py_function returns a tensor of unknown rank, and tf.image.resize needs the rank; call image.set_shape([None, None, 3]) (or tf.ensure_shape) after the py_function.

import numpy as np
import tensorflow as tf


def load_pixels(index):
    return np.full((16, 16, 3), float(index.numpy()), "float32")


def load(index):
    image = tf.py_function(load_pixels, [index], tf.float32)
    image = tf.image.resize(image, [8, 8])
    return image


for image in tf.data.Dataset.range(2).map(load):
    print(image.shape)
