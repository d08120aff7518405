# case: h70_branch_literal_int_against_float_loss
# source: https://github.com/tensorflow/tensorflow/issues/6766
# category: branch-mismatch
# expect: error
# raises on TF 2.21: TypeError
# line: 23
# also: 20
# fix: AutoGraph turns the tensor-dependent if into tf.cond, whose branches must produce the same dtype; return a float zero (tf.constant(0.0) / tf.zeros([])) in the empty-batch branch instead of the Python int 0.

import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
optimizer = tf.keras.optimizers.Adam(1e-3)
loss_object = tf.keras.losses.CategoricalCrossentropy(from_logits=True)


def masked_loss(y_true, y_pred, mask):
    y_true = tf.boolean_mask(y_true, mask)
    if tf.size(y_true) > 0:
        loss = loss_object(y_true, tf.boolean_mask(y_pred, mask))
    else:
        loss = 0
    return loss


@tf.function
def train_step(x, y, mask):
    with tf.GradientTape() as tape:
        loss = masked_loss(y, model(x, training=True), mask)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


x = np.random.rand(4, 5).astype("float32")
y = np.eye(3, dtype="float32")[[0, 1, 2, 0]]
mask = np.array([True, False, True, False])
print(float(train_step(x, y, mask)))
