import tensorflow as tf

vocab = tf.lookup.StaticHashTable(
    tf.lookup.KeyValueTensorInitializer(["cat", "dog"], [0, 1]), default_value=-1)
ds = tf.data.Dataset.from_tensor_slices(["cat", "dog", "cat"])
ds = ds.map(lambda word: vocab.lookup(word))
print(list(ds.as_numpy_iterator()))
