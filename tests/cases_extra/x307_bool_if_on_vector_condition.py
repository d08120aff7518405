# case: x307_bool_if_on_vector_condition
# source: synthesised from https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md (an if on a tensor needs a scalar bool condition)
# category: tensor-as-bool
# expect: error
# raises on TF 2.21: ValueError
# line: 15
# also: -
# fix: An `if` on a tensor becomes tf.cond, whose condition must be a scalar bool; reduce the comparison first: if tf.reduce_all(x > 0): ..., or use tf.where for an element-wise choice.

import tensorflow as tf


@tf.function
def relu_if_positive(x):
    if x > 0:
        return x
    return tf.zeros_like(x)


print(relu_if_positive(tf.constant([1.0, -2.0])))
