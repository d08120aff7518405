# case: c09_kerastensor_in_python_if
# source: written from tools/tf_errors.json (a row of TensorFlow's graph-mode error catalogue), not from an existing case
# category: keras-misuse
# expect: error
# raises on TF 2.21: TypeError
# line: 14
# fix: A KerasTensor has no value while the model is defined; use keras.ops.where.


import keras

inputs = keras.Input(shape=(4,))
hidden = keras.layers.Dense(4)(inputs)
if keras.ops.mean(hidden) > 0:
    hidden = keras.layers.ReLU()(hidden)
model = keras.Model(inputs, hidden)
