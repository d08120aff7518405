# case: x213_keras_subclassed_model_dropout_no_training
# source: https://github.com/yusugomori/deeplearning-keras-tf2-torch/issues/2
# category: keras-training-flag
# expect: warning
# raises on TF 2.21: nothing
# line: 34
# also: 22
# fix: Call the model with training=True in the custom training step (and forward training to the Dropout layer in call); without it Dropout stays in inference mode while training.

import tensorflow as tf
import keras


class MLP(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.drop = keras.layers.Dropout(0.5)
        self.out = keras.layers.Dense(2)

    def call(self, x, training=None):
        h = self.drop(self.hidden(x), training=training)
        return self.out(h)


model = MLP()
opt = keras.optimizers.Adam(0.01)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        preds = model(x)
        loss = loss_fn(y, preds)
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for _ in range(3):
    train_step(tf.random.normal([8, 4]), tf.zeros([8], tf.int32))
