# category: generic:-
# line: 14
# mechanism: near miss of h51: next(iterator) without a default running past the end is a
# real end of the data, not a default the graph dropped
import tensorflow as tf

dataset = tf.data.Dataset.range(3)


@tf.function
def total_of_five(iterator):
    total = tf.constant(0, tf.int64)
    for _ in range(5):
        total += next(iterator)
    return total


print(total_of_five(iter(dataset)))
