# case: x303_unknown_length_zeros_of_none_batch
# source: synthesised from https://www.tensorflow.org/guide/function#controlling_retracing (input_signature with a None dimension)
# category: unknown-length
# expect: error
# raises on TF 2.21: TypeError
# line: 15
# also: -
# fix: x.shape[0] is None when the batch dimension is unknown at trace time; use the dynamic size tf.shape(x)[0].

import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def with_bias_column(x):
    ones = tf.ones((x.shape[0], 1))
    return tf.concat([x, ones], axis=1)


print(with_bias_column(tf.zeros([2, 3])))
