# category: unknown-length
# line: 10
# also: 11
import numpy as np
import tensorflow as tf
import keras

class Tile(keras.layers.Layer):
    def call(self, x):
        reps = x.shape[0]
        return tf.tile(x, [reps, 1])

model = keras.Sequential([keras.Input((2,)), Tile()])
model.compile("sgd", "mse")
model.fit(np.ones((4, 2), "float32"), np.ones((16, 2), "float32"), batch_size=4, epochs=1, verbose=0)
