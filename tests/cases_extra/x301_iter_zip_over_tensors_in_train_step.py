# case: x301_iter_zip_over_tensors_in_train_step
# source: synthesised from the AutoGraph limitations reference (https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md): zip() is not converted
# category: tensor-iteration
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 16
# also: -
# fix: zip() over tensors iterates them in Python; stack them and loop with tf.range, or use tf.map_fn / vectorised ops.

import tensorflow as tf


@tf.function
def pairwise_loss(preds, targets):
    total = tf.constant(0.0)
    for p, t in zip(preds, targets):
        total += tf.square(p - t)
    return total


print(pairwise_loss(tf.constant([1.0, 2.0]), tf.constant([1.5, 2.5])))
