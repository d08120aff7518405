# case: x508_side_effect_python_random_uniform_in_model_call
# source: synthesised from https://www.tensorflow.org/guide/function#executing_python_side_effects (Python random in a Keras call)
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: nothing
# line: 20
# also: -
# fix: random.uniform runs once per trace, so every step adds the same jitter; use tf.random.uniform([]) (or a keras.random.SeedGenerator).

import random

import keras
import numpy as np


class Jitter(keras.layers.Layer):
    def call(self, x, training=None):
        if not training:
            return x
        amount = random.uniform(0.0, 0.1)
        return x + amount


model = keras.Sequential([keras.Input((2,)), Jitter(), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(np.ones((32, 2), "float32"), np.ones((32, 1), "float32"), batch_size=8, epochs=2, verbose=0)
