# category: trace-time-side-effect
# line: 15
# also: 16
# mechanism: a layer draws a reshape size with Python's random while traced; the draw is a
# constant of the graph, and the reshape fails when a later call's batch does not fit it
import random

import tensorflow as tf

random.seed(3)


class Tiles(tf.keras.layers.Layer):
    def call(self, x):
        groups = random.randint(2, 4)
        return tf.reshape(x, [groups, -1])


tiles = Tiles()


@tf.function(input_signature=[tf.TensorSpec([None, 5], tf.float32)])
def run(x):
    return tiles(x)


print(run(tf.ones([4, 5])).shape)
print(run(tf.ones([3, 5])).shape)
