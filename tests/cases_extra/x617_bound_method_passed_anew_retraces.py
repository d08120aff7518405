# case: x617_bound_method_passed_anew_retraces
# source: https://github.com/tensorflow/tensorflow/issues/31175
# category: retracing
# expect: warning
# raises on TF 2.21: none
# line: 39
# also: 28,29
# fix: A bound method is a new Python object on every attribute access, so passing model.step into the tf.function retraces each call; bind it once (step_fn = model.step) or call self.step inside a tf.function method instead of passing it as an argument.

import numpy as np
import tensorflow as tf
import keras


class Regressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)

    def step(self, x, y):
        return tf.reduce_mean(tf.square(self(x) - y))


@tf.function
def run_epoch(step_fn, dataset):
    total = tf.constant(0.0)
    for x, y in dataset:
        total += step_fn(x, y)
    return total


model = Regressor()
data = tf.data.Dataset.from_tensor_slices(
    (np.random.rand(16, 3).astype("float32"), np.random.rand(16, 1).astype("float32"))).batch(4)
for epoch in range(5):
    loss = run_epoch(model.step, data)

print("traces:", run_epoch.experimental_get_tracing_count())
