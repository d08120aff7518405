"""A small custom training loop with the bugs tf.function users hit every day.

Run it under tfdebug to see each one explained at the line that causes it:

    tfdebug run examples/train_broken.py

What is wrong (all silent but the last one):
- the model has Dropout and BatchNormalization but is called without `training=`;
- the step prints with Python's print (runs once per trace, not per step);
- the learning-rate decay passes a Python float, so every step retraces;
- the "best loss" bookkeeping accumulates tensors in a Python list inside a tensor loop,
  which fails when the evaluation function is traced.
"""
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
model = keras.Sequential([
    keras.Input((8,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.BatchNormalization(),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.SGD(0.01)


@tf.function
def train_step(x, y, lr):
    with tf.GradientTape() as tape:
        pred = model(x)
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.learning_rate.assign(lr)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print("loss:", loss)
    return loss


@tf.function
def evaluate(xs, ys, n_batches):
    losses = []
    for i in tf.range(n_batches):
        pred = model(xs[i], training=False)
        losses.append(tf.reduce_mean(tf.square(pred - ys[i])))
    return tf.reduce_min(tf.stack(losses))


rng = np.random.default_rng(0)
x = rng.normal(size=(64, 8)).astype("float32")
y = x.sum(axis=1, keepdims=True).astype("float32")

lr = 0.1
for epoch in range(6):
    loss = train_step(x, y, lr)
    lr *= 0.9                       # a new Python float every epoch

xs, ys = x.reshape(4, 16, 8), y.reshape(4, 16, 1)
print("best batch loss:", float(evaluate(xs, ys, tf.constant(4))))
