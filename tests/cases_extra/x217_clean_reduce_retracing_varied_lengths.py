# case: x217_clean_reduce_retracing_varied_lengths
# source: https://github.com/tensorflow/tensorflow/issues/38561
# category: retracing
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: reduce_retracing=True generalises the shape after the second length, so the function traces twice and then reuses the relaxed trace.

import tensorflow as tf


@tf.function(reduce_retracing=True)
def pool(seq):
    return tf.reduce_max(seq, axis=0)


for n in range(1, 9):
    pool(tf.ones([n, 3]))
print(pool.experimental_get_tracing_count())
