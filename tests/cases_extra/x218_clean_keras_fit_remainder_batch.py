# case: x218_clean_keras_fit_remainder_batch
# source: https://github.com/google-parfait/tensorflow-federated/issues/2794
# category: retracing
# expect: clean
# raises on TF 2.21: nothing
# line: -
# also: -
# fix: Nothing to fix: the smaller last batch of an epoch and the separate evaluate/predict functions are expected traces, not a retracing storm.

import numpy as np
import keras

x = np.random.rand(10, 3).astype("float32")
y = np.random.rand(10, 1).astype("float32")
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                          keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
model.fit(x, y, batch_size=4, epochs=3, verbose=0)
model.evaluate(x, y, batch_size=4, verbose=0)
print(model.predict(x, batch_size=4, verbose=0).shape)
