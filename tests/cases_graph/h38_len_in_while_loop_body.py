# category: unknown-length
# line: 12
# mechanism: Python's len() meets a graph tensor in a tf.while_loop body and
# Tensor.__len__ refuses it whatever its static shape (here fully known): the operand's
# known shape must not veto the len() recipe
import tensorflow as tf


def relax(step, weights):
    # spread each weight's excess evenly
    excess = tf.reduce_sum(weights) - 1.0
    return step + 1, weights - excess / len(weights)


@tf.function
def normalise(weights):
    return tf.while_loop(lambda step, w: step < 3, relax, (tf.constant(0), weights))[1]


print(normalise(tf.constant([0.5, 0.5, 0.5])))
