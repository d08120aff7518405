# case: x306_keras_predict_inside_tf_function
# source: synthesised from https://keras.io/guides/customizing_what_happens_in_fit/ (predict is a loop of its own, not an op)
# category: keras-misuse
# expect: error
# raises on TF 2.21: AttributeError
# line: 18
# also: -
# fix: model.predict() runs its own loop and cannot be called inside a tf.function; call the model directly: model(x, training=False).

import keras
import tensorflow as tf

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])


@tf.function
def scores(x):
    return model.predict(x, verbose=0)


print(scores(tf.ones([2, 3])))
