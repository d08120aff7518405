# case: c24_unpack_symbolic_tensor
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: tensor-iteration
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 15
# fix: Unpacking iterates over the tensor; index it (x[0], x[1]) or use tf.unstack with a static size.


import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def first_two(x):
    a, b = x
    return a + b


print(first_two(tf.constant([1.0, 2.0])))
