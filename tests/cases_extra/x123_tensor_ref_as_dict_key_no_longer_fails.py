# case: x123_tensor_ref_as_dict_key_no_longer_fails
# source: https://github.com/tensorflow/tensorflow/issues/35127
# category: unhashable-tensor
# expect: none
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: No fix needed: tensor.ref() is hashable and is the documented way to key a dict by tensor. A tool must NOT flag this.

import tensorflow as tf


@tf.function
def weighted(a, b):
    weights = {a.ref(): 0.25, b.ref(): 0.75}
    return sum(weights[t.ref()] * t for t in (a, b))


print(weighted(tf.constant(2.0), tf.constant(4.0)))
