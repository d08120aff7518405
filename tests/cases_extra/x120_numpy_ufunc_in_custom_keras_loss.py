# case: x120_numpy_ufunc_in_custom_keras_loss
# source: https://github.com/tensorflow/tensorflow/issues/40537
# category: numpy-in-graph
# expect: error
# raises on TF 2.21: NotImplementedError
# line: 16
# also: -
# fix: Keras traces losses symbolically; NumPy cannot consume a symbolic tensor. Use tf/keras.ops equivalents: tf.reduce_mean(tf.math.log1p(tf.abs(y_true - y_pred))).

import numpy as np
import tensorflow as tf
import keras


def log_cosh_like(y_true, y_pred):
    return np.mean(np.log1p(np.abs(y_true - y_pred)))


model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss=log_cosh_like)
model.fit(np.ones((4, 2), "float32"), np.ones((4, 1), "float32"), epochs=1, verbose=0)
