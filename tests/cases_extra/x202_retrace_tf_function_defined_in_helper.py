# case: x202_retrace_tf_function_defined_in_helper
# source: https://github.com/lshug/first-order-model-tf/issues/22
# category: retracing
# expect: warning
# raises on TF 2.21: nothing
# line: 18
# also: 14,15,23
# fix: The helper builds a new tf.function object on every call, and a new tf.function always traces; define the tf.function once at module level (or cache it) and call it from the helper.

import tensorflow as tf


def animate(frames):
    @tf.function
    def next_batch(x):
        return tf.reduce_mean(x, axis=0)

    return next_batch(frames)


results = []
for i in range(6):
    results.append(animate(tf.fill([4, 2], float(i))))
print([float(r[0]) for r in results])
