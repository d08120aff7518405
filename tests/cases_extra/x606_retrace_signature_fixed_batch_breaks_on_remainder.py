# case: x606_retrace_signature_fixed_batch_breaks_on_remainder
# source: synthesised from https://www.tensorflow.org/guide/function#controlling_retracing (an input_signature written for one batch size)
# category: retracing
# expect: error
# raises on TF 2.21: TypeError
# line: 23
# also: 15
# fix: The signature fixes the batch at 32 and the last batch has 8 rows; declare tf.TensorSpec([None, 4], tf.float32) (or drop_remainder=True in batch()).

import tensorflow as tf

w = tf.Variable(tf.ones([4, 1]))


@tf.function(input_signature=[tf.TensorSpec([32, 4], tf.float32)])
def predict(x):
    return x @ w


ds = tf.data.Dataset.from_tensor_slices(tf.ones([72, 4])).batch(32)
total = 0.0
for batch in ds:
    out = predict(batch)
    total += float(tf.reduce_sum(out))
print(total)
