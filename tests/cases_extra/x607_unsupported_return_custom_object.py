# case: x607_unsupported_return_custom_object
# source: synthesised from https://www.tensorflow.org/guide/function#rules_of_tracing (outputs must be tensors or nests of tensors)
# category: unsupported-syntax
# expect: error
# raises on TF 2.21: TypeError
# line: 23
# also: 27
# fix: A tf.function can only return tensors (or tuples/dicts/namedtuples of them); return the loss and accuracy in a dict and build StepResult outside, or make it a tf.experimental.ExtensionType.

import tensorflow as tf


class StepResult:
    def __init__(self, loss, accuracy):
        self.loss = loss
        self.accuracy = accuracy


@tf.function
def evaluate(logits, labels):
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    accuracy = tf.reduce_mean(tf.cast(tf.argmax(logits, 1, output_type=tf.int32) == labels, tf.float32))
    return StepResult(loss, accuracy)


logits = tf.random.stateless_normal((4, 3), seed=(1, 2))
result = evaluate(logits, tf.constant([0, 1, 2, 1]))
print(float(result.loss))
