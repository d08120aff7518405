# case: x109_return_inside_tensor_loop
# source: synthesised from TF AutoGraph reference (control_flow.md: `return` inside a TensorFlow loop is not supported); cf. https://github.com/tensorflow/tensorflow/issues/26293
# category: unsupported-syntax
# expect: error
# raises on TF 2.21: NotImplementedError
# line: 17
# also: 15
# fix: AutoGraph cannot return from inside a tf.range loop; compute the index with ops: `tf.argmax(tf.cast(x < 0, tf.int32))` (or set a result variable and break).

import tensorflow as tf


@tf.function
def first_negative(x):
    for i in tf.range(tf.size(x)):
        if x[i] < 0:
            return i
    return -1


print(first_negative(tf.constant([3.0, -1.0, 2.0])))
