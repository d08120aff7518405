# category: keras-misuse
# line: 16
# mechanism: the same refusal inside a layer's call, behind Keras' traceback filter (which
# keeps only the user's frames): the Keras frames it dropped are read back, and the
# initializer is found through the layer's attribute
import keras
import tensorflow as tf


class Noisy(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.noise = keras.initializers.GlorotNormal(seed=0)

    def call(self, x):
        return x + self.noise(shape=(tf.shape(x)[0], 3))


layer = Noisy()
print(tf.function(lambda x: layer(x))(tf.ones([2, 3])))
