"""The fixed twin of examples/side_effects.py: every effect runs on every call.

    tfdebug run examples/side_effects_fixed.py      # no side-effect warnings
"""
import os
import tempfile

import keras
import tensorflow as tf

LOG = os.path.join(tempfile.mkdtemp(), "steps.log")
history = []                                         # filled by the caller
steps = tf.Variable(0)                               # state in variables
calls = tf.Variable(0)
last_loss = tf.Variable(0.0)
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                          keras.layers.Dropout(0.5), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.01)


@tf.function
def train_step(x, y):
    noise = tf.random.uniform([])                    # a random op: new every call
    with tf.GradientTape() as tape:
        pred = model(x, training=True)               # explicit training flag
        loss = tf.reduce_mean((pred - y) ** 2) + noise
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    tf.print("loss:", loss)                          # prints every call
    steps.assign_add(1)
    calls.assign_add(1)
    last_loss.assign(loss)
    parts = []                                       # a local list used while tracing
    for i in range(2):
        parts.append(loss * i)
    return loss, tf.timestamp(), tf.add_n(parts)


x, y = tf.random.normal([8, 3]), tf.ones([8, 1])
for _ in range(3):
    loss, started, _ = train_step(x, y)
    history.append(float(loss))                      # collect values in the caller
    with open(LOG, "a") as fh:                       # I/O in eager code
        fh.write(f"step {float(loss):.3f}\n")
print("steps counted:", int(steps.numpy()), "history:", len(history), "calls:", int(calls.numpy()))
