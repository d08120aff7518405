# case: c19_kerastensor_int_for_units
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: keras-misuse
# expect: error
# raises on TF 2.21: ValueError
# line: 13
# fix: A KerasTensor has no value: read the static size from inputs.shape[-1].


import keras

inputs = keras.Input(shape=(8,))
width = int(keras.ops.shape(inputs)[-1] / keras.ops.sum(inputs))
outputs = keras.layers.Dense(width)(inputs)
