# case: x108_unknown_length_shape_none_arithmetic
# source: https://github.com/secondmind-labs/trieste/pull/691
# category: unknown-length
# expect: error
# raises on TF 2.21: TypeError
# line: 15
# also: -
# fix: With input_signature shape [None, 4] the static x.shape[0] is None at trace time; use the dynamic tf.shape(x)[0].

import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
def pair_rows(x):
    pairs = tf.reshape(x, [x.shape[0] // 2, 2, -1])
    return tf.reduce_mean(pairs, axis=1)


print(pair_rows(tf.ones((6, 4))))
