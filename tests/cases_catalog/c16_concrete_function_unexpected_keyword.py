# case: c16_concrete_function_unexpected_keyword
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: retracing
# expect: error
# raises on TF 2.21: TypeError
# line: 19
# fix: A concrete function accepts only the arguments it was traced with; scale is not one: add it to the function and trace again.


import tensorflow as tf


@tf.function
def total(x):
    return tf.reduce_sum(x)


fixed = total.get_concrete_function(tf.TensorSpec([3], tf.float32))
print(fixed(tf.constant([1.0, 2.0, 3.0]), scale=2.0))
