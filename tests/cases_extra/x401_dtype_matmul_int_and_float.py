# case: x401_dtype_matmul_int_and_float
# source: synthesised from https://www.tensorflow.org/guide/function (TensorFlow does not promote int32 to float32)
# category: dtype-mismatch
# expect: error
# raises on TF 2.21: TypeError
# line: 15
# also: -
# fix: tf.matmul needs one dtype on both sides; tf.cast the integer ids to float32 first (or look them up with tf.gather).

import tensorflow as tf


@tf.function
def score(ids, weights):
    return tf.matmul(ids, weights)


print(score(tf.constant([[1, 2]]), tf.constant([[0.5], [0.25]])))
