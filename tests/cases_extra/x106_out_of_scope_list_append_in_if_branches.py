# case: x106_out_of_scope_list_append_in_if_branches
# source: https://github.com/tensorflow/tensorflow/issues/47139
# category: out-of-scope-tensor
# expect: error
# raises on TF 2.21: InaccessibleTensorError
# line: 17
# also: 19,20
# fix: A Python list appended to inside a tensor-dependent if collects tensors of the branch graphs; assign a value in each branch instead (`y = x * 2.0` / `y = x`).

import tensorflow as tf


@tf.function
def boost_positive(x):
    kept = []
    if tf.reduce_sum(x) > 0:
        kept.append(x * 2.0)
    else:
        kept.append(x)
    return tf.add_n(kept)


print(boost_positive(tf.constant([1.0, 2.0])))
