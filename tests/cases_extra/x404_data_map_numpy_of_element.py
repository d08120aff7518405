# case: x404_data_map_numpy_of_element
# source: synthesised from https://www.tensorflow.org/guide/data#applying_arbitrary_python_logic (.numpy() inside Dataset.map)
# category: data-pipeline|numpy-in-graph
# expect: error
# raises on TF 2.21: AttributeError
# line: 14
# also: -
# fix: Dataset.map traces its function as a graph even in eager mode; use tensor ops (tf.one_hot(x, 4) takes the tensor) or wrap the Python code in tf.py_function.

import tensorflow as tf


def to_label(x):
    label_index = int(x.numpy())
    return tf.one_hot(label_index, 4)


ds = tf.data.Dataset.range(3).map(to_label)
for item in ds:
    print(item)
