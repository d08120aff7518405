# category: unknown-length
# line: 13
# also: 15
# mechanism: `x.get_shape()` is the static shape (Tensor.get_shape returns self.shape): in a
# loss Keras runs on batches of unknown size, its first dimension is None at trace time
import numpy as np
import tensorflow as tf


def spread_loss(y_true, y_pred):
    # Keras 3 runs this without AutoGraph: `range(count)` is Python's
    total = 0.0
    count = y_true.get_shape().as_list()[0]
    total = tf.reduce_mean(tf.square(y_true - y_pred))
    for i in range(1, count):
        total += tf.abs(y_pred[i, 0]) * 0.0
    return total


model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse", metrics=[spread_loss])
data = tf.data.Dataset.from_tensor_slices((np.ones((8, 2), "float32"), np.ones((8, 1), "float32")))
model.fit(data.batch(4), epochs=1, verbose=0)
