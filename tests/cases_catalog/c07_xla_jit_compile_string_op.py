# case: c07_xla_jit_compile_string_op
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: string-format
# expect: error
# raises on TF 2.21: InvalidArgumentError
# line: 16
# fix: XLA cannot compile string ops; format the result outside the jit_compile function.


import tensorflow as tf


@tf.function(jit_compile=True)
def describe(x):
    total = tf.reduce_sum(x)
    return tf.strings.format("total={}", total)


print(describe(tf.constant([1.0, 2.0])))
