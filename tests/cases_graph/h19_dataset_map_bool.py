# category: tensor-as-bool|data-pipeline
# line: 6
import tensorflow as tf

def keep(x):
    return bool(x > 1)  # <-

ds = tf.data.Dataset.range(3).map(keep)
