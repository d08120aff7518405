# case: h71_serving_signature_str_of_tensor_parsed_later
# source: https://github.com/tensorflow/tensorflow/issues/58992
# category: string-format
# expect: error
# raises on TF 2.21: ValueError
# line: 27
# also: 26, 28
# fix: Parse the string tensors with tf.strings ops (tf.strings.split, tf.strings.to_number) instead of str(); inside the traced signature str(key) is the symbolic tensor's repr, not its value.

import tensorflow as tf
import keras


class FeatureServer(tf.Module):
    def __init__(self, model, feature_names):
        super().__init__()
        self.model = model
        self.feature_names = feature_names

    @tf.function(input_signature=[
        tf.TensorSpec(shape=[], dtype=tf.string, name="key"),
        tf.TensorSpec(shape=[], dtype=tf.string, name="value"),
    ])
    def infer(self, key, value):
        tf.print(key)
        names = str(key).split("#")
        values = str(value).split("#")
        features = {n: tf.constant(value=int(v), dtype=tf.float32, name=n)
                    for n, v in zip(names, values)}
        row = tf.stack([features.get(n, tf.constant(0.0)) for n in self.feature_names])
        return self.model(tf.expand_dims(row, 0))


model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
server = FeatureServer(model, ["age", "gender"])
print(server.infer(tf.constant("age#gender"), tf.constant("31#1")))
