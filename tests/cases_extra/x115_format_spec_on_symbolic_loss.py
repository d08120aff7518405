# case: x115_format_spec_on_symbolic_loss
# source: https://github.com/tensorflow/tensorflow/issues/18230
# category: string-format
# expect: error
# raises on TF 2.21: TypeError
# line: 16
# also: -
# fix: A symbolic tensor has no value to format at trace time; log with tf.print("loss=", loss) or tf.strings.as_string(loss, precision=4).

import tensorflow as tf


@tf.function
def evaluate(pred, target):
    loss = tf.reduce_mean(tf.square(pred - target))
    message = "loss={:.4f}".format(loss)
    tf.print(message)
    return loss


evaluate(tf.constant([1.0, 2.0]), tf.constant([1.5, 2.5]))
