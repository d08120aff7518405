# case: x621_variable_as_dict_key_in_step
# source: https://github.com/tensorflow/tensorflow/issues/34426
# category: unhashable-tensor
# expect: error
# raises on TF 2.21: TypeError
# line: 21
# also: -
# fix: Variables are unhashable; key the dict by v.ref() (or by v.name), or return a list of gradients aligned with the variable list.

import tensorflow as tf

w = tf.Variable(tf.ones([3, 1]), name="w")
b = tf.Variable(tf.zeros([1]), name="b")


@tf.function
def grads_per_variable(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    grads = tape.gradient(loss, [w, b])
    return {v: g for v, g in zip([w, b], grads)}


print(grads_per_variable(tf.ones([2, 3]), tf.ones([2, 1])))
