# category: retracing
# line: 9
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def scale(x):
    return x * 2.0

scale(tf.constant([1.0, 2.0]), factor=3.0)  # <-
