# case: h77_do_not_convert_function_given_to_dataset_map
# source: https://github.com/tensorflow/tensorflow/issues/52055
# category: autograph-conversion
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 13
# also: 16
# fix: do_not_convert (added to silence the "could not transform" warning) turns AutoGraph off, so the tensor `if` is no longer converted; remove the decorator and fix the source-availability problem, or use tf.cond.

import tensorflow as tf


@tf.autograph.experimental.do_not_convert
def normalize_img(image, label):
    image = tf.cast(image, tf.float32)
    if tf.reduce_max(image) > 1.0:
        image = image / 255.0
    return image, tf.one_hot(label, depth=10)


images = tf.random.uniform((4, 8, 8, 1), maxval=255, dtype=tf.int32)
labels = tf.constant([1, 2, 3, 4])
ds = tf.data.Dataset.from_tensor_slices((images, labels)).map(normalize_img)
for image, label in ds.take(1):
    print(image.shape, label.shape)
