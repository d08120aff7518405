# category: variable-creation
# line: 8
import tensorflow as tf

class Scaler(tf.Module):
    @tf.function
    def __call__(self, x):
        self.w = tf.Variable(2.0)  # <-
        return self.w * x

scaler = Scaler()
scaler(tf.constant(1.0))
scaler(tf.constant([1.0, 2.0]))
