# category: retracing|dtype-mismatch
# line: 9
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def f(x):
    return x * 2

f(tf.constant([[1.0, 2.0]]))  # <-
