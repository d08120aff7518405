# case: c06_input_signature_wrong_dtype
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: dtype-mismatch
# expect: error
# raises on TF 2.21: TypeError
# line: 18
# fix: input_signature says float32; the call passes int32 tensors: cast before calling.


import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def mean_score(scores):
    return tf.reduce_mean(scores)


print(mean_score(tf.constant([3, 4, 5])))
