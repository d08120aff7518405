# category: data-pipeline
# line: 13
# mechanism: a from_generator generator made in a flat_map function holds the traced element
# through a default argument: when the pipeline runs it, Python gets the graph tensor
import tensorflow as tf


def windows(record):
    width = tf.strings.length(record)

    def produce(width=width):
        # the int() of the graph tensor the default argument kept from the trace
        for start in range(int(width)):
            yield start

    return tf.data.Dataset.from_generator(produce, output_signature=tf.TensorSpec([], tf.int32))


dataset = tf.data.Dataset.from_tensor_slices(["abc", "de"]).flat_map(windows)
print(list(dataset.as_numpy_iterator()))
