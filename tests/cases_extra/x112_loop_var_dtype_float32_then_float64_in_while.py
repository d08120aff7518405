# case: x112_loop_var_dtype_float32_then_float64_in_while
# source: synthesised from TF AutoGraph reference (control_flow.md: loop variables must keep a consistent dtype); cf. https://github.com/tensorflow/tensorflow/issues/40023
# category: loop-var-shape|dtype-mismatch
# expect: error
# raises on TF 2.21: TypeError
# line: 18
# also: 15,17
# fix: The loop variable starts as float32 and becomes float64 in the body; keep one dtype (start with tf.constant(1.0, tf.float64) or drop the cast).

import tensorflow as tf


@tf.function
def newton_sqrt(target):
    estimate = tf.constant(1.0)
    step = tf.constant(0)
    while step < 20:
        estimate = 0.5 * (estimate + tf.cast(target, tf.float64) / estimate)
        step += 1
    return estimate


print(newton_sqrt(tf.constant(2.0)))
