import tensorflow as tf

ds = tf.data.Dataset.range(3).map(lambda x: x + tf.random.uniform([], 0, 100, tf.int64))
print(list(ds.as_numpy_iterator()))
print(list(ds.as_numpy_iterator()))
