# case: h74_generator_dataset_of_unknown_rank_fed_to_fit
# source: https://github.com/tensorflow/tensorflow/issues/37193
# category: unknown-shape
# expect: error
# raises on TF 2.21: ValueError
# line: 27
# also: 28
# fix: Give from_generator an output_signature with real shapes (e.g. TensorSpec((None, 20), tf.float32)) or call set_shape/ensure_shape in a map.

import numpy as np
import tensorflow as tf
from tensorflow import keras


class ImageBatches:
    def __init__(self, n_batches, batch_size):
        self.n_batches = n_batches
        self.batch_size = batch_size

    def __call__(self):
        for _ in range(self.n_batches):
            yield (np.random.rand(self.batch_size, 20).astype("float32"),
                   np.random.randint(0, 3, size=(self.batch_size,)).astype("int32"))


gen = ImageBatches(4, 8)
spec = (tf.TensorSpec(shape=None, dtype=tf.float32), tf.TensorSpec(shape=None, dtype=tf.int32))
train_ds = tf.data.Dataset.from_generator(gen, output_signature=spec)


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(32, activation="relu")
        self.out = keras.layers.Dense(3, activation="softmax")

    def call(self, x):
        return self.out(self.hidden(x))


model = Net()
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(train_ds, epochs=1, verbose=0)
print("trained")
