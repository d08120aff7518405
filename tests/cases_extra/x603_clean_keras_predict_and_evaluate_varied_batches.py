# case: x603_clean_keras_predict_and_evaluate_varied_batches
# source: synthesised from https://www.tensorflow.org/guide/function#rules_of_tracing (patterns that trace a bounded number of times or are correct in graph mode)
# category: retracing|keras-training-flag|trace-time-side-effect
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: nothing to fix: a Python bool flag gives two traces by design, constants read at trace time never change, and Keras' own predict/evaluate handle varying batch sizes.

import keras
import numpy as np

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dropout(0.1),
                          keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
for n in (10, 17, 33, 5, 64, 9):
    x = np.random.default_rng(n).normal(size=(n, 3)).astype("float32")
    model.predict(x, batch_size=8, verbose=0)
    model.evaluate(x, x[:, :1], batch_size=8, verbose=0)
