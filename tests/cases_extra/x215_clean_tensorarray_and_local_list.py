# case: x215_clean_tensorarray_and_local_list
# source: https://github.com/tensorflow/tensorflow/issues/38555
# category: trace-time-side-effect
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: a list built and consumed inside one trace (tf.stack) and a TensorArray written in a tf.range loop are graph-correct.

import tensorflow as tf


def features(x):
    parts = []
    for k in (1, 2, 3):
        parts.append(tf.pow(x, k))
    return tf.stack(parts, axis=-1)


@tf.function
def cumulative(x):
    ta = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
    acc = tf.constant(0.0)
    for i in tf.range(tf.shape(x)[0]):
        acc += x[i]
        ta = ta.write(i, acc)
    cache = {}
    cache["feats"] = features(x)
    return ta.stack(), cache["feats"]


for n in (3, 3, 3):
    sums, feats = cumulative(tf.range(float(n)))
print(sums.numpy(), feats.shape)
