# category: generic:-
# line: 13
# mechanism: the same run-time reshape failure with a size from the module's constants: no
# value was drawn at trace time, so nothing is blamed on tracing
import tensorflow as tf

GROUPS = 2


@tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32)])
def run(x):
    groups = GROUPS
    return tf.reshape(x, [groups, -1])


print(run(tf.ones([4, 5])).shape)
print(run(tf.ones([3, 5])).shape)
