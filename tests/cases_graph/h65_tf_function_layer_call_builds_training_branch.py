# category: keras-misuse
# line: 16
# mechanism: the layer's `call` is a tf.function; Keras calls it to build the model, then
# with training=True inside fit, whose trace reaches a sublayer first: its weights are
# variables created on a non-first trace, refused by the tf.function on `call`
import numpy as np
import tensorflow as tf


class Denoise(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.noise_head = tf.keras.layers.Dense(4)
        self.proj = tf.keras.layers.Dense(4)

    @tf.function
    def call(self, x, training=None):
        if training:
            x = x + 0.1 * self.noise_head(x)
        return self.proj(x)


inputs = tf.keras.Input((4,))
model = tf.keras.Model(inputs, Denoise()(inputs))
model.compile("adam", "mse")
model.fit(np.ones((8, 4)), np.ones((8, 4)), epochs=1, verbose=0)
