# case: x624_map_fn_conv2d_strides_from_elems
# source: https://github.com/tensorflow/tensorflow/issues/37460
# category: tensor-iteration
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 16
# also: 15
# fix: conv2d needs its strides as a Python list, but map_fn hands them in as a symbolic tensor that conv2d iterates; keep strides static (Python ints) or group the examples by stride outside the graph.

import tensorflow as tf


@tf.function
def g3(a, b, s):
    return tf.map_fn(
        lambda x: tf.nn.conv2d(tf.expand_dims(x[0], 0), x[1], x[2], "VALID", "NHWC"),
        [a, b, s],
        fn_output_signature=a.dtype,
    )


q = tf.random.uniform((4, 20, 20, 5))
r = tf.random.uniform((4, 5, 5, 5, 2))
stri = tf.tile(tf.constant([[2, 2]]), [4, 1])
print(g3(q, r, stri).shape)
