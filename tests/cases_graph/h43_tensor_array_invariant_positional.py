# category: loop-var-shape
# line: 20
# mechanism: while_v2 refuses the TensorArray's handle (a variant scalar) against the element
# shape the user declared for it in positional shape_invariants: the invariant is the cause
import tensorflow as tf


@tf.function
def running_sums(values):
    sums = tf.TensorArray(tf.float32, size=tf.shape(values)[0])

    def step(i, total, sums):
        total = total + values[i]
        return i + 1, total, sums.write(i, total)

    _, _, sums = tf.while_loop(
        lambda i, total, sums: i < tf.shape(values)[0],
        step,
        [tf.constant(0), tf.constant(0.0), sums],
        [tf.TensorShape([]), tf.TensorShape([]), tf.TensorShape([None])])
    return sums.stack()


print(running_sums(tf.constant([1.0, 2.0, 3.0])))
