# case: x225_stale_capture_keras_layer_attribute_between_fits
# source: https://github.com/tensorflow/tensorflow/issues/36936
# category: stale-capture
# expect: warning
# raises on TF 2.21: nothing
# line: 20
# also: 29
# fix: Keras traces the training step once and reuses it across fit() calls, so a plain Python attribute read in call() keeps its first value; store it in a non-trainable weight (self.add_weight) and assign() the new value, or recompile the model after changing it.

import numpy as np
import keras


class Temperature(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.temperature = 1.0

    def call(self, logits):
        return logits / self.temperature


temp = Temperature()
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), temp])
model.compile(optimizer="sgd", loss="mse")
x, y = np.ones((8, 4), "float32"), np.zeros((8, 3), "float32")
history = []
for stage, t in enumerate([1.0, 4.0]):
    temp.temperature = t
    history.append(model.fit(x, y, epochs=1, verbose=0).history["loss"][0])
print(history)
