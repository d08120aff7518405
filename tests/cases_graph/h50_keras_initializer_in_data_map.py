# category: generic:data-pipeline
# line: 12
# mechanism: the Keras refusal of h46 in a tf.data function (always traced): data-pipeline,
# not keras-misuse
import keras
import tensorflow as tf

init = keras.initializers.HeNormal(seed=0)


def add_noise(x):
    return x + tf.reduce_sum(init(shape=(tf.shape(x)[0], 2)))


print(list(tf.data.Dataset.from_tensor_slices(tf.ones([2, 3])).map(add_noise)))
