# case: x118_keras_tensor_into_tf_op_in_functional_model
# source: https://github.com/keras-team/keras/issues/20124
# category: keras-misuse
# expect: error
# raises on TF 2.21: ValueError
# line: 14
# also: -
# fix: Keras 3 functional inputs are KerasTensors, not tf.Tensors; use keras.ops.expand_dims (or wrap the TF code in a Layer).

import tensorflow as tf
import keras

inputs = keras.Input((10,))
x = tf.expand_dims(inputs, axis=-1)
x = keras.layers.Conv1D(4, 3)(x)
model = keras.Model(inputs, keras.layers.GlobalAveragePooling1D()(x))
model.summary()
