# category: dtype-mismatch
# line: 11
# mechanism: an op's declared input dtypes (op_def) refuse the int32 tensor a helper builds:
# softmax takes a float
import tensorflow as tf


@tf.function
def attention(keys, query):
    scores = tf.reduce_sum(keys * query, axis=-1)
    return tf.nn.softmax(scores)


print(attention(tf.constant([[1, 2], [3, 4]]), tf.constant([1, 0])))
