import tensorflow as tf


@tf.function
def batches(x):
    return tf.stack([x * i for i in range(3)])


for b in batches(tf.constant(1.0)):
    print(b)
