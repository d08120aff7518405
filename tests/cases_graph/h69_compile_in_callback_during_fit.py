# case: h69_compile_in_callback_during_fit
# source: https://github.com/keras-team/keras/issues/16234
# category: keras-misuse
# expect: error
# raises on TF 2.21: TypeError
# line: 26
# also: 24
# fix: compile() during fit() drops the compiled train function that fit() is still using; stop after the warm-up epochs, change trainable, compile, and call fit() again (with initial_epoch) instead of recompiling from a callback.

import numpy as np
import tensorflow as tf
from tensorflow import keras


class UnFreezeCallback(keras.callbacks.Callback):
    def __init__(self, n_epochs, unfreeze_from):
        super().__init__()
        self.n_epochs = n_epochs
        self.unfreeze_from = unfreeze_from

    def on_epoch_end(self, epoch, logs=None):
        if epoch == self.n_epochs - 1:
            for layer in self.model.layers[self.unfreeze_from:]:
                layer.trainable = True
            # must re-compile after changing trainable
            self.model.compile(optimizer=keras.optimizers.Adam(1e-4), loss="mse")


def get_model():
    model = keras.Sequential([
        keras.Input(shape=(8,)),
        keras.layers.Dense(4, activation="relu", trainable=False),
        keras.layers.Dense(1),
    ])
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
    return model


x = np.random.rand(32, 8).astype("float32")
y = np.random.rand(32, 1).astype("float32")
model = get_model()
model.fit(x, y, epochs=3, batch_size=8, verbose=0,
          callbacks=[UnFreezeCallback(n_epochs=1, unfreeze_from=0)])
print("done")
