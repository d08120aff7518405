# case: c13_function_appends_to_list_argument
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: trace-time-side-effect
# expect: error
# raises on TF 2.21: ValueError
# line: 16
# fix: Do not append to a list argument inside a tf.function; return the new values instead.


import tensorflow as tf


@tf.function
def train_step(x, losses):
    loss = tf.reduce_mean(x * x)
    losses.append(loss)
    return loss


history = []
train_step(tf.constant([1.0, 2.0]), history)
