# category: out-of-scope-tensor
# line: 18
# mechanism: the leaked tensor was made in a helper (its creation stack's innermost user line
# returns it); the caller in the traced function stores it on self: blame that store
import tensorflow as tf


class Tracker:
    def __init__(self):
        self.last = None

    def features(self, x):
        return tf.nn.relu(x * 2.0)

    @tf.function
    def step(self, x):
        feats = self.features(x)
        self.last = feats
        return tf.reduce_sum(feats)


tracker = Tracker()
tracker.step(tf.ones([2]))
print(tf.reduce_mean(tracker.last))
