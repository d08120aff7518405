# category: loop-var-shape
# line: 11
# also: 10,12
import tensorflow as tf

@tf.function
def f():
    i0 = tf.constant(0)
    v0 = tf.constant([0])
    return tf.while_loop(lambda i, v: i < 3,
                         lambda i, v: (i + 1, tf.concat([v, [i]], 0)),
                         [i0, v0], shape_invariants=[i0.shape, tf.TensorShape([1])])

f()
