# case: x305_string_format_percent_of_tensor_step
# source: synthesised from https://www.tensorflow.org/guide/function (%-formatting of a symbolic tensor while tracing)
# category: string-format
# expect: error
# raises on TF 2.21: TypeError
# line: 15
# also: -
# fix: Python's %-formatting needs a concrete number; a symbolic tensor has none while tracing. Use tf.print("step %d" , step) or tf.strings.format("step {}", step).

import tensorflow as tf


@tf.function
def log_step(step):
    message = "step %d done" % step
    tf.print(message)
    return step + 1


log_step(tf.constant(3))
