# case: h75_random_normal_of_static_shape_with_none_batch
# source: https://github.com/tensorflow/tensorflow/issues/36991
# category: unknown-length
# expect: error
# raises on TF 2.21: ValueError
# line: 17
# also: -
# fix: Use the dynamic shape, tf.random.normal(tf.shape(x)), because x.shape[0] (the batch size) is None while the layer is traced.

import numpy as np
import keras
import tensorflow as tf


class NoisySampling(keras.layers.Layer):
    def call(self, x):
        eps = tf.random.normal(x.shape)
        return x + 0.1 * eps


model = keras.Sequential([keras.Input(shape=(4,)), NoisySampling(), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(np.ones((8, 4), "float32"), np.ones((8, 1), "float32"), epochs=1, verbose=0)
print("trained")
