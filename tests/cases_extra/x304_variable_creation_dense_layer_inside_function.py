# case: x304_variable_creation_dense_layer_inside_function
# source: synthesised from https://www.tensorflow.org/guide/function#creating_tfvariables (a Keras layer built inside the function)
# category: variable-creation
# expect: error
# raises on TF 2.21: ValueError
# line: 16
# also: -
# fix: A Keras layer made inside a tf.function creates new variables on every trace; create the layer once outside (in __init__ or at module level) and call it inside.

import keras
import tensorflow as tf


@tf.function
def project(x):
    layer = keras.layers.Dense(4)
    return layer(x)


print(project(tf.ones([2, 3])))
