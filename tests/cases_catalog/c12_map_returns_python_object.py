# case: c12_map_returns_python_object
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: data-pipeline
# expect: error
# raises on TF 2.21: TypeError
# line: 19
# fix: A Dataset.map function must return tensors (or tuples/dicts of them), not a Python object.


import tensorflow as tf


class Example:
    def __init__(self, image, label):
        self.image, self.label = image, label


def parse(x):
    return Example(tf.cast(x, tf.float32), x % 2)


ds = tf.data.Dataset.range(4).map(parse)
print(list(ds))
