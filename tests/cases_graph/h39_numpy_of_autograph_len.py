# category: generic:numpy-in-graph
# line: 13
# mechanism: AutoGraph turns len() of a tensor with an unknown first dimension into a
# tensor; NumPy then refuses it, and its message shows the graph tensor's repr, not the
# class name
import numpy as np
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
def positions(batch):
    # one weight per row
    weights = np.ones(len(batch), np.float32)
    return batch * weights[:, None]


print(positions(tf.ones([3, 2])))
