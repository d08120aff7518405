# case: x119_data_map_arity_mismatch_three_params
# source: https://github.com/tensorflow/tensorflow/pull/12631
# category: data-pipeline
# expect: error
# raises on TF 2.21: TypeError
# line: 19
# also: 14
# fix: Dataset.map unpacks each tuple element into positional arguments; the dataset yields (image, label), so the function must take two (or give the dataset a third component).

import numpy as np
import tensorflow as tf


def to_example(image, label, weight):
    return {"image": image / 255.0, "weight": weight}, label


ds = tf.data.Dataset.from_tensor_slices((np.zeros((4, 2, 2), "float32"), np.arange(4)))
ds = ds.map(to_example)
print(next(iter(ds)))
