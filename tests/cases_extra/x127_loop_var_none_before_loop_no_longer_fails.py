# case: x127_loop_var_none_before_loop_no_longer_fails
# source: https://github.com/tensorflow/tensorflow/issues/26293
# category: loop-var-shape
# expect: none
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: No fix needed: AutoGraph accepts a loop variable that is None before a tensor loop when the first iteration gives it a tensor value. A tool must NOT flag this.

import tensorflow as tf


@tf.function
def running_max(xs):
    best = None
    for i in tf.range(tf.shape(xs)[0]):
        best = xs[i] if best is None else tf.maximum(best, xs[i])
    return best


print(running_max(tf.constant([1.0, 5.0, 3.0])))
