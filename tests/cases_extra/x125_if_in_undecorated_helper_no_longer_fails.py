# case: x125_if_in_undecorated_helper_no_longer_fails
# source: https://github.com/apple/tensorflow_macos/issues/190
# category: tensor-as-bool
# expect: none
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: No fix needed: AutoGraph converts helpers called from a tf.function recursively, so their tensor `if` works. A tool must NOT flag this.

import tensorflow as tf


def clip_grad(g, limit):
    if tf.norm(g) > limit:
        g = g * (limit / tf.norm(g))
    return g


@tf.function
def step(g):
    return clip_grad(g, 1.0)


print(step(tf.constant([3.0, 4.0])))
print(step(tf.constant([0.3, 0.4])))
