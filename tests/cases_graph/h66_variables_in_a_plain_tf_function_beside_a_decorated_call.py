# category: variable-creation
# line: 22
# mechanism: near miss of h65: the model holds a layer whose `call` is a tf.function, but the
# variables refused on a non-first call are created by another tf.function (not the layer's
# call, which TensorFlow's frames of the failed call do not hold): variable-creation
import tensorflow as tf


class Scale(tf.keras.layers.Layer):
    @tf.function
    def call(self, x):
        return 2.0 * x


inputs = tf.keras.Input((2,))
model = tf.keras.Model(inputs, Scale()(inputs))
counters = []


@tf.function
def count(x):
    counters.append(tf.Variable(0.0))
    return x + counters[-1]


count(tf.constant(1.0))
count(tf.constant(2.0))
