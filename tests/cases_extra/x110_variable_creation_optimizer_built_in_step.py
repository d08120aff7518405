# case: x110_variable_creation_optimizer_built_in_step
# source: https://github.com/ageron/handson-ml2/issues/440
# category: variable-creation
# expect: error
# raises on TF 2.21: ValueError
# line: 18
# also: 22
# fix: A Keras optimizer creates variables when it first applies gradients; constructing it inside the tf.function makes new variables on every trace. Create the optimizer once, outside.

import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])


@tf.function
def train_step(x, y):
    optimizer = keras.optimizers.SGD(0.1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(train_step(tf.ones((2, 3)), tf.zeros((2, 1))))
