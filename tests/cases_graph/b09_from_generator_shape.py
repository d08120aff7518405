# category: data-pipeline
# line: 7
import tensorflow as tf

def gen():
    for i in range(3):
        yield [i, i + 1]

ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((3,), tf.int32))
print(list(ds))
