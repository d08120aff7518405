# case: x601_clean_bool_flag_two_traces
# source: synthesised from https://www.tensorflow.org/guide/function#rules_of_tracing (patterns that trace a bounded number of times or are correct in graph mode)
# category: retracing|stale-capture|trace-time-side-effect
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: nothing to fix: a Python bool flag gives two traces by design, constants read at trace time never change, and Keras' own predict/evaluate handle varying batch sizes.

import tensorflow as tf

w = tf.Variable(tf.ones([4, 1]))


@tf.function
def forward(x, training):
    y = x @ w
    if training:
        y = tf.nn.dropout(y, 0.1)
    return y


x = tf.ones([8, 4])
for step in range(10):
    forward(x, training=step % 2 == 0)
