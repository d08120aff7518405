# case: x410_clean_while_loop_tensorarray_variable_counter
# source: synthesised from https://www.tensorflow.org/guide/function (TensorArray, tf.Variable and tf.print run on every call)
# category: trace-time-side-effect|out-of-scope-tensor|retracing|stale-capture
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: nothing to fix: a TensorArray, a tf.Variable counter and tf.print are correct in graph mode; input_signature keeps it at one trace.

import tensorflow as tf

steps = tf.Variable(0)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def cumulative(x):
    out = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
    acc = tf.constant(0.0)
    for i in tf.range(tf.shape(x)[0]):
        acc += x[i]
        out = out.write(i, acc)
    steps.assign_add(1)
    tf.print("step", steps)
    return out.stack()


for n in (2, 3, 5):
    cumulative(tf.ones([n]))
