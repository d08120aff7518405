import tensorflow as tf


def preprocess(mask):
    return tf.identity(mask)


ds = tf.data.Dataset.from_tensor_slices([1.0, -1.0]).map(preprocess)
print(list(ds))
