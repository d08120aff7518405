# category: branch-mismatch
# line: 18
# mechanism: tf.cond's bare assert on the branches' output counts, raised in a metric inside
# model.fit, whose traceback filter keeps only the user's frames: the call at the raising
# instruction (its co_positions) names tf.cond
import numpy as np
import tensorflow as tf


def gated_error(y_true, y_pred):
    error = tf.reduce_mean(tf.abs(y_true - y_pred))

    def both():
        return error, tf.reduce_max(y_pred)

    def only_error():
        return error
    value, _ = tf.cond(error > 1.0, both, only_error)
    return value


model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse", metrics=[gated_error])
model.fit(np.ones((8, 3)), np.ones((8, 1)), epochs=1, verbose=0)
