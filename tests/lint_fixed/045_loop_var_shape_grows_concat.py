import tensorflow as tf


@tf.function
def f():
    v = tf.constant((0,))
    for i in tf.range(3):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
        v = tf.concat((v, [i]), 0)
    return v


print(f())
