# case: b337_trace_time_loss_history
# source: https://www.tensorflow.org/guide/function#executing_python_side_effects
# category: trace-time-side-effect|out-of-scope-tensor
# expect: error
# raises on TF 2.21: NotImplementedError
# line: 25
# also: 31
# fix: Return the loss from the tf.function and append the returned (eager) value in the Python loop, instead of appending inside the traced function.

import numpy as np
import tensorflow as tf


class Fitter:
    def __init__(self):
        self.w = tf.Variable(0.0)
        self.opt = tf.optimizers.SGD(0.1)
        self.history = []

    @tf.function
    def step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((self.w * x - y) ** 2)
        self.opt.apply_gradients([(tape.gradient(loss, self.w), self.w)])
        self.history.append(loss)
        return loss

    def fit(self, x, y, epochs=5):
        for _ in range(epochs):
            self.step(x, y)
        return float(np.mean(self.history))


if __name__ == "__main__":
    x = tf.linspace(0.0, 1.0, 10)
    print(Fitter().fit(x, 3.0 * x))
