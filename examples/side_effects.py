"""Trace-time side effects: each one below runs once per trace, not once per call.

Run it under the guard to see every one reported with its line and fix:

    tfdebug run examples/side_effects.py

The fixed twin is examples/side_effects_fixed.py.
"""
import datetime
import os
import random
import tempfile

import keras
import numpy as np
import tensorflow as tf

LOG = os.path.join(tempfile.mkdtemp(), "steps.log")
history = []          # filled by the training step
steps = 0             # counted by the training step
stats = {"calls": 0}


class Tracker:
    def __init__(self):
        self.last_loss = None


tracker = Tracker()
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                          keras.layers.Dropout(0.5), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.01)


def log_step(loss):
    with open(LOG, "a") as fh:                       # file I/O: written once
        fh.write("step\n")


@tf.function
def train_step(x, y):
    global steps
    noise = random.random()                          # Python random: frozen
    with tf.GradientTape() as tape:
        pred = model(x)                              # Dropout without training=
        loss = tf.reduce_mean((pred - y) ** 2) + noise
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print(f"loss: {loss}")                           # print: once, a placeholder
    steps += 1                                       # global: counts traces
    history.append(loss)                             # captured list: one placeholder
    stats["calls"] += 1                              # captured dict: counts traces
    tracker.last_loss = loss                         # captured object: a placeholder
    started = datetime.datetime.now()                # clock: frozen
    seed = np.random.randint(0, 100)                 # NumPy random: frozen
    log_step(loss)
    return loss, started.second + seed


x, y = tf.random.normal([8, 3]), tf.ones([8, 1])
for _ in range(3):
    train_step(x, y)
print("steps counted:", steps, "history:", len(history), "calls:", stats["calls"])
