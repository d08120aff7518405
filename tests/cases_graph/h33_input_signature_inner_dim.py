# category: retracing|dtype-mismatch
# line: 9
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def normalize(x):
    return x / tf.reduce_sum(x, axis=1, keepdims=True)

normalize(tf.ones([4, 2]))  # <-
