# case: x111_numpy_method_in_keras_layer_call
# source: https://github.com/tensorflow/tensorflow/issues/57195
# category: numpy-in-graph
# expect: error
# raises on TF 2.21: AttributeError
# line: 17
# also: -
# fix: Keras traces Layer.call symbolically; .numpy() exists only on eager tensors. Use tf.reduce_max(inputs) and keep the computation in TF ops.

import numpy as np
import tensorflow as tf
import keras


class MaxScale(keras.layers.Layer):
    def call(self, inputs):
        scale = float(np.max(inputs.numpy()))
        return inputs / scale


model = keras.Sequential([keras.Input((3,)), MaxScale(), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(np.ones((4, 3), "float32"), np.ones((4, 1), "float32"), epochs=1, verbose=0)
