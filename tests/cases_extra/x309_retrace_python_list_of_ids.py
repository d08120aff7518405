# case: x309_retrace_python_list_of_ids
# source: synthesised from https://www.tensorflow.org/guide/function#rules_of_tracing (Python containers are part of the trace key)
# category: retracing
# expect: warning
# raises on TF 2.21: nothing
# line: 23
# also: 15,16
# fix: A Python list argument is traced by value: every new list retraces. Pass tf.constant(ids) (a tensor), with input_signature=[tf.TensorSpec([None], tf.int32)] if its length varies.

import tensorflow as tf

table = tf.random.stateless_normal((100, 8), seed=(1, 2))


@tf.function
def lookup(ids):
    return tf.reduce_sum(tf.gather(table, ids))


total = 0.0
for step in range(6):
    ids = [step, step + 1, step + 2]
    total += float(lookup(ids))
print("total", round(total, 3))
