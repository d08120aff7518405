# case: x221_clean_py_function_and_numpy_function_bodies
# source: https://github.com/google-research/seed_rl/issues/52
# category: trace-time-side-effect
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: Python code wrapped in tf.py_function / tf.numpy_function runs on every call, so its list appends and NumPy randomness are per-call, as intended.

import numpy as np
import tensorflow as tf

seen = []


def log_value(v):
    seen.append(float(v))
    return v


@tf.function
def step(x):
    y = tf.py_function(log_value, [x], tf.float32)
    z = tf.numpy_function(lambda a: (a + np.random.rand()).astype(np.float32), [x], tf.float32)
    return y + z


for i in range(3):
    step(tf.constant(float(i)))
print(seen)
