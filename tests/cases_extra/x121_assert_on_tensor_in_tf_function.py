# case: x121_assert_on_tensor_in_tf_function
# source: synthesised from TF AutoGraph reference (DESIGN construct table: `assert` on a tensor is not converted); cf. https://github.com/tensorflow/tensorflow/issues/40916
# category: tensor-as-bool
# expect: error
# raises on TF 2.21: OperatorNotAllowedInGraphError
# line: 15
# also: -
# fix: A Python assert needs a real bool; inside a tf.function use tf.debugging.assert_non_negative(x, message="negative input").

import tensorflow as tf


@tf.function
def checked_sqrt(x):
    assert tf.reduce_min(x) >= 0.0, "negative input"
    return tf.sqrt(x)


print(checked_sqrt(tf.constant([4.0, 9.0])))
