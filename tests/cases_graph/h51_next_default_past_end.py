# category: unsupported-syntax
# line: 16
# mechanism: next(iterator, default) in a tf.function: AutoGraph leaves `next` to Python
# (py_builtins.overload_of(next) is next), so the tf.data iterator's __next__ makes a get-next
# op at trace time and the default never reaches the graph; the op runs past the end at run
# time (OutOfRangeError), its creation stack names the next(...) line
import tensorflow as tf

dataset = tf.data.Dataset.range(3)


@tf.function
def total_of_five(iterator):
    total = tf.constant(0, tf.int64)
    for _ in range(5):
        total += next(iterator, tf.constant(0, tf.int64))
    return total


print(total_of_five(iter(dataset)))
