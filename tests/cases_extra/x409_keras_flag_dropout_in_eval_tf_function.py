# case: x409_keras_flag_dropout_in_eval_tf_function
# source: synthesised from https://keras.io/api/layers/regularization_layers/dropout/ (training= in custom loops)
# category: keras-training-flag
# expect: warning
# raises on TF 2.21: nothing
# line: 20
# also: -
# fix: Pass training=False explicitly when calling the model in an evaluation tf.function, so Dropout/BatchNormalization are in inference mode by intent.

import keras
import tensorflow as tf

inputs = keras.Input((4,))
outputs = keras.layers.Dense(1)(keras.layers.Dropout(0.5)(inputs))
model = keras.Model(inputs, outputs)


@tf.function
def evaluate(x):
    return tf.reduce_mean(model(x))


print(float(evaluate(tf.ones([8, 4]))))
