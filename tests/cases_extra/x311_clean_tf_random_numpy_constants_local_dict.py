# case: x311_clean_tf_random_numpy_constants_local_dict
# source: synthesised from https://www.tensorflow.org/guide/function (patterns that are correct in graph mode)
# category: trace-time-side-effect|stale-capture|retracing|numpy-in-graph
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: nothing to fix: tf.random ops run per call, NumPy on Python constants is a trace-time constant on purpose, and a dict built inside the function is local.

import numpy as np
import tensorflow as tf

SCALE = np.sqrt(2.0)


@tf.function
def augment(x):
    parts = {}
    parts["noise"] = tf.random.uniform(tf.shape(x), maxval=0.1)
    parts["scaled"] = x * SCALE
    gain = np.float32(0.5) * np.pi
    return parts["scaled"] + parts["noise"] * gain


for _ in range(4):
    out = augment(tf.ones([3]))
print(out.shape)
