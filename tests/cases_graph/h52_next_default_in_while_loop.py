# category: unsupported-syntax
# line: 14
# mechanism: h51's next(iterator, default) in a loop AutoGraph stages as tf.while_loop: the
# failing get-next op lives in the loop body's graph, nested in the tf.function's
import tensorflow as tf

batches = tf.data.Dataset.from_tensor_slices(tf.ones([3, 2])).batch(2)


@tf.function
def sum_batches(iterator, steps):
    total = tf.zeros([2])
    for _ in tf.range(steps):
        batch = next(iterator, tf.zeros([1, 2]))
        total += tf.reduce_sum(batch, axis=0)
    return total


print(sum_batches(iter(batches), tf.constant(4)))
