# case: h76_fstring_of_string_tensor_in_keras_layer
# source: https://github.com/tensorflow/tensorflow/issues/59035
# category: string-format
# expect: error
# raises on TF 2.21: InvalidArgumentError
# line: 16
# also: -
# fix: Inside the traced layer `inputs` is a symbolic string tensor, so f"{inputs}" is its repr ("Tensor(...)"), not the text; use tf.strings.regex_replace(inputs, ",", "") before tf.strings.to_number.

import tensorflow as tf
import keras


class CleanNumber(keras.layers.Layer):
    def call(self, inputs):
        cleaned = f"{inputs}".replace(",", "")
        return tf.strings.to_number(cleaned, out_type=tf.float32)


inp = keras.Input(shape=(), dtype="string")
model = keras.Model(inp, CleanNumber()(inp))
print(model.predict(tf.constant(["1,234", "56"]), verbose=0))
