# case: x409_keras_flag_dropout_in_eval_tf_function
# source: synthesised from https://keras.io/api/layers/regularization_layers/dropout/ (training= in custom loops)
# category: keras-training-flag
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: without `training=` the model runs in inference mode, which is what an evaluation step needs; no gradient is recorded, so nothing trains a different model than intended.

import keras
import tensorflow as tf

inputs = keras.Input((4,))
outputs = keras.layers.Dense(1)(keras.layers.Dropout(0.5)(inputs))
model = keras.Model(inputs, outputs)


@tf.function
def evaluate(x):
    return tf.reduce_mean(model(x))


print(float(evaluate(tf.ones([8, 4]))))
