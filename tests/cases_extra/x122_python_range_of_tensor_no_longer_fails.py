# case: x122_python_range_of_tensor_no_longer_fails
# source: synthesised from TF AutoGraph reference (control_flow.md: `for i in range(n)` with a tensor n becomes a tf.while_loop); cf. https://github.com/tensorflow/tensorflow/issues/33308
# category: tensor-iteration
# expect: none
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: No fix needed: range() over a tensor bound is converted to tf.range inside a tf.function. A tool must NOT flag this.

import tensorflow as tf


@tf.function
def triangular(n):
    total = tf.constant(0)
    for i in range(n):
        total += i
    return total


print(triangular(tf.constant(5)))
