# case: h73_ragged_numpy_in_traced_helper
# source: https://github.com/tensorflow/tensorflow/issues/25731
# category: numpy-in-graph
# expect: error
# raises on TF 2.21: ValueError
# line: 19
# also: 22, 37
# fix: Compute the lengths and padding mask with tf ops (e.g. x.row_lengths() and tf.sequence_mask / x.to_tensor()) instead of calling .numpy() on a tensor inside the traced model function.

import numpy as np
import tensorflow as tf

conv = tf.keras.layers.Conv1D(4, 8, strides=2, padding="same", activation="relu")
dense = tf.keras.layers.Dense(2)


def conv_net(x_dict):
    x = x_dict["features"]  # RaggedTensor of variable-length signals
    lens = np.array([len(xi) for xi in x.numpy()])
    mask = np.arange(lens.max()) < lens[:, None]
    padded = np.zeros(mask.shape, dtype=np.float32)
    padded[mask] = np.hstack(x.numpy())
    x = tf.reshape(padded, shape=[-1, padded.shape[1], 1])
    h = conv(x)
    return dense(tf.reduce_max(h, axis=1))


signals = tf.ragged.constant([[0.1, 0.2, 0.3], [0.5, 0.1], [0.9, 0.8, 0.7, 0.6]])
labels = tf.constant([0, 1, 0])
optimizer = tf.keras.optimizers.SGD(0.1)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def model_fn(features, y):
    with tf.GradientTape() as tape:
        logits = conv_net({"features": features})
        loss = loss_fn(y, logits)
    variables = conv.trainable_variables + dense.trainable_variables
    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
    return loss


print(float(model_fn(signals, labels)))
