# case: x310_side_effect_history_append_in_keras_train_step
# source: synthesised from https://keras.io/guides/customizing_what_happens_in_fit/ (train_step is traced once)
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: nothing
# line: 28
# also: -
# fix: train_step is traced once; a Python list appended to there records one symbolic tensor per trace, not one loss per step. Keep a keras.metrics.Mean (or a tf.Variable) and read it after fit().

import keras
import numpy as np
import tensorflow as tf


class Regressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)
        self.loss_history = []

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
        self.loss_history.append(loss)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


model = Regressor()
model.compile(optimizer="sgd")
x = np.random.default_rng(0).normal(size=(64, 3)).astype("float32")
model.fit(x, x[:, :1], batch_size=16, epochs=2, verbose=0)
print("losses recorded:", len(model.loss_history), "for 8 steps")
