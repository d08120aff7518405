# case: x608_unhashable_list_indexed_by_label_in_map
# source: synthesised from https://www.tensorflow.org/guide/data (dataset functions see symbolic tensors)
# category: unhashable-tensor
# expect: error
# raises on TF 2.21: TypeError
# line: 16
# also: -
# fix: A Python list cannot be indexed with a symbolic tensor; make it a tensor and gather: tf.gather(tf.constant(CLASS_NAMES), label).

import tensorflow as tf

CLASS_NAMES = ["cat", "dog", "bird"]


def with_name(image, label):
    return image, CLASS_NAMES[label]


ds = tf.data.Dataset.from_tensor_slices((tf.zeros([3, 2, 2]), tf.constant([0, 2, 1]))).map(with_name)
for image, name in ds:
    print(name.numpy())
