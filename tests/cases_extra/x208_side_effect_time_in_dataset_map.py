# case: x208_side_effect_time_in_dataset_map
# source: https://github.com/tensorflow/tensorflow/issues/60848
# category: trace-time-side-effect|data-pipeline
# expect: warning
# raises on TF 2.21: nothing
# line: 16
# also: -
# fix: The map function is traced once, so time.time() is read once and frozen into the pipeline; use tf.timestamp() for a per-element time.

import time

import tensorflow as tf


def stamp(x):
    t = time.time()
    return x, tf.constant(t, tf.float64)


ds = tf.data.Dataset.range(3).map(stamp)
stamps = [float(t) for _, t in ds]
print(len(set(stamps)), "distinct timestamps for", len(stamps), "elements")
