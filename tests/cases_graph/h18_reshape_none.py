# category: unknown-length|unknown-shape
# line: 7
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def f(x):
    return tf.zeros([x.shape[0], 3])  # <-

f(tf.ones([2, 2]))
