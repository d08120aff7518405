# case: x302_unhashable_lru_cache_helper
# source: synthesised from https://www.tensorflow.org/guide/function (tensors are not hashable; functools caches hash their arguments)
# category: unhashable-tensor
# expect: error
# raises on TF 2.21: TypeError
# line: 22
# also: 15
# fix: functools.lru_cache hashes its arguments and tensors are not hashable; cache on a Python value (an int, a shape tuple) instead of the tensor, or drop the cache.

import functools

import tensorflow as tf


@functools.lru_cache(maxsize=None)
def positional_table(length):
    return tf.range(length, dtype=tf.float32) / 10.0


@tf.function
def add_positions(x):
    return x + positional_table(tf.shape(x)[0])


print(add_positions(tf.zeros([4])))
