# case: x207_side_effect_keras_layer_attribute_counter
# source: https://github.com/tensorflow/tensorflow/issues/31362
# category: trace-time-side-effect
# expect: warning
# raises on TF 2.21: nothing
# line: 21
# also: -
# fix: Python attributes of a Keras layer set in call() change only while tracing; keep the counter in a non-trainable weight (self.add_weight) and update it with assign_add.

import tensorflow as tf
import keras


class CountingDense(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.dense = keras.layers.Dense(units)
        self.calls = 0

    def call(self, x):
        self.calls += 1
        return self.dense(x)


layer = CountingDense(2)


@tf.function
def forward(x):
    return layer(x)


for _ in range(4):
    forward(tf.ones([1, 3]))
print("layer calls counted:", layer.calls)
