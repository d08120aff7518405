# category: out-of-scope-tensor
# line: 23
# mechanism: the leaked tensor is the placeholder of an argument (no op of the function made
# it, its creation stack names only the call): blame the statement of the traced function
# that stores that parameter on an object the function did not make
import tensorflow as tf


class Monitor:
    def __init__(self):
        self.lengths = None

    def summary(self):
        return float(tf.reduce_mean(tf.cast(self.lengths, tf.float32)))


monitor = Monitor()


@tf.function
def train_step(tokens, lengths):
    mask = tf.sequence_mask(lengths, maxlen=tf.shape(tokens)[1])
    monitor.lengths = lengths
    return tf.reduce_sum(tf.where(mask, tokens, 0))


train_step(tf.ones([2, 4], tf.int32), tf.constant([2, 3]))
print("mean length", monitor.summary())
