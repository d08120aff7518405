# case: x219_clean_keras_layer_build_and_metric_state
# source: https://github.com/tensorflow/tensorflow/issues/31362
# category: trace-time-side-effect|keras-training-flag
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: a layer creating its weights in build(), a metric updating its state variables and model(x, training=True) in the training step are all graph-correct.

import tensorflow as tf
import keras


class Scale(keras.layers.Layer):
    def build(self, input_shape):
        self.gamma = self.add_weight(shape=(input_shape[-1],), initializer="ones")
        self.seen = self.add_weight(shape=(), initializer="zeros", trainable=False)

    def call(self, x):
        self.seen.assign_add(tf.cast(tf.shape(x)[0], self.seen.dtype))
        return x * self.gamma


model = keras.Sequential([keras.Input((3,)), Scale(), keras.layers.Dropout(0.2),
                          keras.layers.Dense(1)])
opt = keras.optimizers.SGD(0.01)
mae = keras.metrics.MeanAbsoluteError()


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    mae.update_state(y, pred)
    return loss


for _ in range(3):
    train_step(tf.ones([4, 3]), tf.zeros([4, 1]))
print(float(mae.result()), float(model.layers[0].seen))
