# case: x407_tensor_as_bool_assert_in_keras_loss
# source: synthesised from https://keras.io/api/losses/ (Keras 3 traces custom losses; an assert needs a Python bool)
# category: tensor-as-bool
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 16
# also: -
# fix: Keras traces the loss without AutoGraph, so `assert` needs a Python bool; use tf.debugging.assert_non_negative(y_true).

import keras
import numpy as np
import tensorflow as tf


def safe_mse(y_true, y_pred):
    assert tf.reduce_min(y_true) >= 0
    return tf.reduce_mean(tf.square(y_true - y_pred))


model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss=safe_mse)
model.fit(np.ones((8, 2), "float32"), np.ones((8, 1), "float32"), verbose=0)
