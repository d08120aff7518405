# case: c14_numpy_method_on_symbolic_tensor
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: numpy-in-graph
# expect: error
# raises on TF 2.21: AttributeError
# line: 15
# fix: tf.Tensor has no NumPy methods; use tf.cast instead of .astype().


import tensorflow as tf


@tf.function
def to_int(x):
    return x.astype("int32")


print(to_int(tf.constant([1.5, 2.5])))
