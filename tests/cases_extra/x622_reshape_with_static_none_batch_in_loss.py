# case: x622_reshape_with_static_none_batch_in_loss
# source: https://github.com/keras-team/keras/issues/6016
# category: unknown-length
# expect: error
# raises on TF 2.21: TypeError
# line: 17
# also: 16, 20
# fix: The static batch dimension is None while tracing; use the dynamic size (tf.shape(x_hat)[0]) or simply reshape with -1.

import numpy as np
import tensorflow as tf
import keras


def custom_loss(x, x_hat):
    shape = x_hat.get_shape().as_list()
    batch_size = shape[0]
    image_size = int(np.prod(shape[1:]))

    x = tf.reshape(x, [batch_size, image_size])
    x_hat = tf.reshape(x_hat, [batch_size, image_size])
    background = tf.reduce_mean(tf.abs(x_hat - tf.reduce_mean(x_hat, axis=0)), axis=-1)
    return keras.losses.binary_crossentropy(x, x_hat) + background


inp = keras.Input((6, 6, 1))
h = keras.layers.Conv2D(4, 3, padding="same", activation="relu")(inp)
out = keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid")(h)
model = keras.Model(inp, out)
model.compile(optimizer="adam", loss=custom_loss)

frames = np.random.rand(10, 6, 6, 1).astype("float32")
model.fit(frames, frames, batch_size=4, epochs=1, verbose=0)
print("done")
