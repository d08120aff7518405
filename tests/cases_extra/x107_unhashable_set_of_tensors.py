# case: x107_unhashable_set_of_tensors
# source: https://github.com/tensorflow/tensorflow/issues/35164
# category: unhashable-tensor
# expect: error
# raises on TF 2.21: TypeError
# line: 15
# also: -
# fix: Tensors are not hashable, so they cannot be set members or dict keys; use tf.unique(tf.stack([a, b, c])) (or t.ref() as the key).

import tensorflow as tf


@tf.function
def sum_of_distinct(a, b, c):
    distinct = {a, b, c}
    return tf.add_n(list(distinct))


print(sum_of_distinct(tf.constant(1), tf.constant(2), tf.constant(2)))
