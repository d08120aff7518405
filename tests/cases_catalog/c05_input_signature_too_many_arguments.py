# case: c05_input_signature_too_many_arguments
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: retracing
# expect: error
# raises on TF 2.21: TypeError
# line: 20
# fix: The call passes two tensors to a function whose input_signature declares one.


import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
def normalise(batch):
    return batch / tf.reduce_max(batch)


features = tf.random.uniform([8, 4])
weights = tf.ones([8, 4])
print(normalise(features, weights))
