# case: x103_iter_unpack_tf_shape_in_dataset_map
# source: https://github.com/tensorflow/tensorflow/issues/40541
# category: tensor-iteration
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 15
# also: -
# fix: Unpacking a symbolic tensor iterates over it, which graph mode forbids; index it instead: `shape = tf.shape(image); height, width = shape[0], shape[1]`.

import numpy as np
import tensorflow as tf


def pad_to_square(image):
    height, width = tf.shape(image)[:2]
    side = tf.maximum(height, width)
    return tf.image.pad_to_bounding_box(image, 0, 0, side, side)


images = tf.data.Dataset.from_tensor_slices(np.zeros((2, 4, 6, 3), "float32"))
for square in images.map(pad_to_square):
    print(square.shape)
