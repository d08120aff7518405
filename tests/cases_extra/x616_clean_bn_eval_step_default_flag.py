# case: x616_clean_bn_eval_step_default_flag
# source: https://github.com/tensorflow/tensorflow/issues/32864
# category: keras-training-flag
# expect: clean
# raises on TF 2.21: none
# line: 43
# also: 35
# fix: Nothing to fix: the training step passes training=True, and the evaluation step relies on the Keras default (inference mode), which is what evaluation needs.

import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(10,)),
    keras.layers.Dense(32),
    keras.layers.BatchNormalization(),
    keras.layers.ReLU(),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(3),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-3)
val_acc = keras.metrics.SparseCategoricalAccuracy()

x = np.random.rand(60, 10).astype("float32")
y = np.random.randint(0, 3, 60)
train_ds = tf.data.Dataset.from_tensor_slices((x[:48], y[:48])).batch(12)
val_ds = tf.data.Dataset.from_tensor_slices((x[48:], y[48:])).batch(12)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        loss = loss_fn(labels, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def eval_step(features, labels):
    val_acc.update_state(labels, model(features))


for epoch in range(2):
    for features, labels in train_ds:
        train_step(features, labels)
    val_acc.reset_state()
    for features, labels in val_ds:
        eval_step(features, labels)
    print(epoch, float(val_acc.result()))
