# category: unknown-shape
# line: 14
# also: -
# mechanism: XLA needs tf.range's limit at compile time; the bound is the loop counter of a
# tf.while_loop inside the compiled function (the error's first op stack is the range in the
# helper, the later ones the enclosing while and the function)
import tensorflow as tf

WINDOW = 3


def prefix_energy(signal, end):
    # the running energy of the first `end` samples
    return tf.reduce_sum(tf.square(tf.gather(signal, tf.range(end))))


def body(i, signal, acc):
    acc = acc.write(i, prefix_energy(signal, i + 1))
    return i + 1, signal, acc


@tf.function(jit_compile=True)
def energies(signal):
    acc = tf.TensorArray(tf.float32, size=WINDOW)
    _, _, acc = tf.while_loop(lambda i, s, a: i < WINDOW, body, (0, signal, acc))
    return acc.stack()


print(energies(tf.constant([1.0, 2.0, 3.0, 4.0])))
