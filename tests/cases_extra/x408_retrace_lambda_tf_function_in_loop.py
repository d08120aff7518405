# case: x408_retrace_lambda_tf_function_in_loop
# source: synthesised from https://www.tensorflow.org/guide/function#controlling_retracing (tf.function created anew in a loop)
# category: retracing
# expect: warning
# raises on TF 2.21: nothing
# line: 16
# also: 17
# fix: A new tf.function is made on every epoch and traces every time; create it once outside the loop and pass scale as an argument.

import tensorflow as tf

x = tf.ones([4])
total = 0.0
for epoch in range(6):
    scale = tf.constant(float(epoch))
    step = tf.function(lambda v: tf.reduce_sum(v * scale))
    total += float(step(x))
print(total)
