# category: keras-misuse
# line: 7
import keras
import tensorflow as tf

inputs = keras.Input((5,), dtype="int32")
encoded = tf.one_hot(inputs, depth=4)  # <-
model = keras.Model(inputs, encoded)
