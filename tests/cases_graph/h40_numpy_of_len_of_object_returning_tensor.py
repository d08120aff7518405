# category: unknown-length
# line: 21
# mechanism: Python's len() refuses the tensor an object's __len__ returns, at a line that also
# calls NumPy: the refusing call is len (AutoGraph's fallback for non-tensors called it), not
# NumPy, so the line's NumPy call must not make it numpy-in-graph
import numpy as np
import tensorflow as tf


class Window:
    def __init__(self, values):
        self.values = values

    def __len__(self):
        return tf.shape(self.values)[0]


@tf.function
def padding(values):
    window = Window(values)
    return np.zeros(len(window))


print(padding(tf.ones([3])))
