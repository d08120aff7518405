import numpy as np
import tensorflow as tf
import keras


def np_feature(x):
    return np.sqrt(x.numpy())


ds = tf.data.Dataset.from_tensor_slices(np.ones((4, 3), "float32"))
ds = ds.map(lambda x: tf.ensure_shape(tf.py_function(np_feature, [x], tf.float32), [3]))
ds = ds.map(lambda x: (x, tf.reduce_sum(x, -1, keepdims=True))).batch(2)
model = keras.Sequential([keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(ds, epochs=1, verbose=0)
