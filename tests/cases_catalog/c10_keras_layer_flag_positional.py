# case: c10_keras_layer_flag_positional
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: keras-misuse
# expect: error
# raises on TF 2.21: ValueError
# line: 20
# fix: Pass non-tensor layer arguments by keyword: layer(x, temperature=0.5).


import keras
import numpy as np


class Softmax(keras.layers.Layer):
    def call(self, logits, temperature):
        return keras.ops.softmax(logits / temperature)


layer = Softmax()
print(layer(np.ones((2, 3), "float32"), 0.5))
