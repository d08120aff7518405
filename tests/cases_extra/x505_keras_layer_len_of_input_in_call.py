# case: x505_keras_layer_len_of_input_in_call
# source: synthesised from https://keras.io/guides/making_new_layers_and_models_via_subclassing/ (Keras 3 traces call() symbolically)
# category: unknown-length
# expect: error
# raises on TF 2.21: TypeError
# line: 17
# also: -
# fix: len(x) of a symbolic batch is undefined; use tf.shape(x)[0] (cast it to the dtype you divide).

import keras
import numpy as np
import tensorflow as tf


class MeanPool(keras.layers.Layer):
    def call(self, x):
        n = len(x)
        return tf.reduce_sum(x, axis=0, keepdims=True) / n


model = keras.Sequential([keras.Input((3,)), MeanPool()])
model.compile(loss="mse")
model.fit(np.ones((8, 3), "float32"), np.ones((1, 3), "float32"), batch_size=8, verbose=0)
