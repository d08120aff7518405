# case: h79_tf_print_inside_xla_function
# source: https://github.com/tensorflow/tensorflow/issues/126007
# category: string-format|trace-time-side-effect
# expect: error
# raises on TF 2.21: InvalidArgumentError
# line: 16
# also: 13
# fix: tf.print lowers to StringFormat/PrintV2 ops that XLA cannot compile; remove the tf.print from the jit_compile=True function (print the returned values outside it) or drop jit_compile while debugging.

import tensorflow as tf


@tf.function(jit_compile=True)
def step(w, x):
    y = tf.tanh(x @ w)
    tf.print("activation mean:", tf.reduce_mean(y))
    return tf.reduce_sum(y)


print(step(tf.ones([3, 2]), tf.ones([4, 3])))
