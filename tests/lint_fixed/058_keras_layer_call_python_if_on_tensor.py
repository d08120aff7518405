import numpy as np
import tensorflow as tf
import keras


class ScaleIfPositive(keras.layers.Layer):
    def call(self, x):
        return tf.where(tf.reduce_sum(x) > 0, x * 2.0, x)


model = keras.Sequential([keras.Input((4,)), ScaleIfPositive(), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(np.random.rand(8, 4), np.random.rand(8, 1), epochs=1, verbose=0)
