# case: x507_retrace_varying_sequence_lengths
# source: synthesised from https://www.tensorflow.org/guide/function#controlling_retracing (tensors of new shapes retrace)
# category: retracing
# expect: warning
# raises on TF 2.21: nothing
# line: 21
# also: 13,14
# fix: Each new sequence length traces again; add input_signature=[tf.TensorSpec([None], tf.int32)] or reduce_retracing=True.

import tensorflow as tf


@tf.function
def encode(tokens):
    return tf.reduce_mean(tf.one_hot(tokens, 16), axis=0)


sentences = [[1, 2], [3, 4, 5], [6], [7, 8, 9, 10], [1, 1, 1, 1, 1], [2] * 6]
for s in sentences:
    tokens = tf.constant(s)
    encode(tokens)
