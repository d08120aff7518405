# case: h67_loss_int_of_unknown_batch_dimension
# source: https://github.com/keras-team/keras/issues/11448
# category: unknown-length
# expect: error
# raises on TF 2.21: TypeError
# line: 15
# also: 20
# fix: The batch dimension of y_pred is None when Keras traces the train step; use tf.shape(y_pred)[0] (a dynamic tensor) instead of int(y_pred.shape[0]).

import numpy as np
import tensorflow as tf


def grid_size(y_pred):
    yp_size = [int(y_pred.shape[0]), int(y_pred.shape[1]), int(y_pred.shape[2])]
    return yp_size


def custom_loss(y_true, y_pred):
    yp_size = grid_size(y_pred)
    cell_x = tf.tile(tf.range(yp_size[1]), [yp_size[0]])
    weight = tf.reduce_mean(tf.cast(cell_x, tf.float32))
    return tf.reduce_mean(tf.square(y_true - y_pred)) * weight


input_image = tf.keras.Input(shape=(6, 6, 3))
features = tf.keras.layers.Conv2D(2, 3, padding="same")(input_image)
model = tf.keras.Model(input_image, features)
model.compile(loss=custom_loss, optimizer="adam")
x = np.random.rand(4, 6, 6, 3).astype("float32")
y = np.random.rand(4, 6, 6, 2).astype("float32")
train_ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
model.fit(train_ds, epochs=1, verbose=0)
print("done")
