# case: x212_stale_capture_attribute_step_size
# source: https://github.com/tensorflow/tensorflow/issues/42223
# category: stale-capture
# expect: warning
# raises on TF 2.21: nothing
# line: 19
# also: 27
# fix: self.alpha is read while tracing and baked into the graph; changing the attribute later has no effect. Keep it in a tf.Variable (self.alpha.assign(...)) or pass it as a tensor argument.

import tensorflow as tf


class Solver:
    def __init__(self, alpha):
        self.alpha = alpha

    @tf.function
    def step(self, x, a, b):
        return x + self.alpha * (b - a * x)


solver = Solver(0.1)
x = tf.constant(0.0)
a, b = tf.constant(2.0), tf.constant(1.0)
for i in range(6):
    if i == 3:
        solver.alpha = 0.4
    x = solver.step(x, a, b)
    print(i, float(x))
