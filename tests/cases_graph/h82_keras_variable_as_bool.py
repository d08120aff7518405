# category: generic:tensor-as-bool
# line: 28
# mechanism: Keras' Variable refuses to be a Python bool (its __bool__ raises, traced or
# not): the raise site tells tensor-as-bool; no recipe has its words

import numpy as np
import tensorflow as tf
import keras


class DepthwiseDense(keras.layers.Layer):
    def __init__(self, multiplier=2, use_bias=True, **kwargs):
        super().__init__(**kwargs)
        self.multiplier = multiplier
        self.use_bias = use_bias
        self.bias = None

    def build(self, input_shape):
        channels = input_shape[-1]
        self.kernel = self.add_weight(shape=(channels, self.multiplier),
                                      initializer="glorot_uniform")
        if self.use_bias:
            self.bias = self.add_weight(shape=(channels * self.multiplier,),
                                        initializer="ones")

    def call(self, inputs):
        out = tf.reshape(inputs[..., None] * self.kernel, (-1, inputs.shape[-1] * self.multiplier))
        if self.bias:
            out = out + self.bias
        return out


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.dw = DepthwiseDense()
        self.head = keras.layers.Dense(1)

    def call(self, x):
        return self.head(self.dw(x))


model = Net()
model.compile(optimizer="sgd", loss="mse")
x = np.random.rand(32, 4).astype("float32")
y = np.random.rand(32, 1).astype("float32")
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
