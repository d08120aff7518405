# category: generic:data-pipeline
# line: 6
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]])
ds = ds.filter(lambda x: x > 1)
print(list(ds))
