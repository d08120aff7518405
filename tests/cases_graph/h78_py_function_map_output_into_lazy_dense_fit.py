# case: h78_py_function_map_output_into_lazy_dense_fit
# source: https://github.com/alexissa32/DataScienceMusic/issues/1
# category: unknown-shape
# expect: error
# raises on TF 2.21: ValueError
# line: 21
# also: 27
# fix: tf.py_function returns tensors of unknown shape, so the Dense layer cannot size its kernel; restore the shape after the call (tf.ensure_shape(x, [4, 4]) / set_shape) or give the model an explicit keras.Input.

import numpy as np
import keras
import tensorflow as tf


def spectrogram(clip):
    # NumPy-only feature extraction
    return np.abs(np.fft.fft(clip.numpy(), axis=-1)).astype(np.float32)


def load(clip, label):
    feats = tf.py_function(spectrogram, [clip], tf.float32)
    return tf.reshape(feats, [-1]), label


clips = np.random.rand(8, 4, 4).astype("float32")
ds = tf.data.Dataset.from_tensor_slices((clips, np.ones(8, "float32"))).map(load).batch(4)
model = keras.Sequential([keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(ds, epochs=1, verbose=0)
