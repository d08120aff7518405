# case: x504_tensor_iteration_in_do_not_convert_helper
# source: synthesised from https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md (do_not_convert leaves Python loops over tensors unconverted)
# category: tensor-iteration|autograph-conversion
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 16
# also: 13
# fix: The helper is excluded from AutoGraph, so its for loop iterates the tensor in Python; drop the decorator or use tf.reduce_sum(values).

import tensorflow as tf


@tf.autograph.experimental.do_not_convert
def total(values):
    out = 0.0
    for v in values:
        out += v
    return out


@tf.function
def f(x):
    return total(x)


print(f(tf.constant([1.0, 2.0])))
