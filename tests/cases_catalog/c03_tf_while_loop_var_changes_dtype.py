# case: c03_tf_while_loop_var_changes_dtype
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: loop-var-shape
# expect: error
# raises on TF 2.21: TypeError
# line: 19
# also: 17
# fix: Keep the loop variable's dtype: do not cast it to float32 in the body.


import tensorflow as tf


@tf.function
def halve_until_small(x):
    def body(v):
        return tf.cast(v // 2, tf.float32)

    return tf.while_loop(lambda v: v > 1, body, [x])


print(halve_until_small(tf.constant(40)))
