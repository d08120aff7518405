# case: c11_max_builtin_on_tensor
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: tensor-as-bool|unsupported-syntax
# expect: error
# raises on TF 2.21: ValueError
# line: 15
# fix: Python max() compares its arguments and needs a real bool (AutoGraph converts it only for scalars); use tf.maximum(x, 0.0).


import tensorflow as tf


@tf.function
def relu(x):
    return max(x, tf.zeros_like(x))


print(relu(tf.constant([-1.0, 2.0])))
