# case: x308_out_of_scope_global_cache_across_functions
# source: synthesised from https://www.tensorflow.org/guide/function (a graph tensor kept in a Python global dict)
# category: out-of-scope-tensor
# expect: error
# raises on TF 2.21: TypeError
# line: 17
# also: 23
# fix: A tensor made inside one tf.function belongs to its graph; keep the value in a tf.Variable (assign it) or return it and pass it in.

import tensorflow as tf

cache = {}


@tf.function
def fit_scale(x):
    cache["scale"] = tf.reduce_max(tf.abs(x))
    return cache["scale"]


@tf.function
def apply_scale(x):
    return x / cache["scale"]


fit_scale(tf.constant([1.0, -4.0]))
print(apply_scale(tf.constant([2.0])))
