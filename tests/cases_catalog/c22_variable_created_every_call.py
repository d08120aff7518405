# case: c22_variable_created_every_call
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: variable-creation
# expect: error
# raises on TF 2.21: ValueError
# line: 15
# fix: Create the tf.Variable once outside the tf.function (or on the first call only).


import tensorflow as tf


@tf.function
def accumulate(x):
    total = tf.Variable(0.0)
    total.assign_add(tf.reduce_sum(x))
    return total


print(accumulate(tf.constant([1.0, 2.0])))
