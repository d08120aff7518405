"""Why does Dense complain about an unknown last dimension? Look at the shapes.

A tf.data pipeline parses features with NumPy through tf.numpy_function; the static shape of
its output is unknown while the training step is traced, though every batch has a definite
shape. shape_probe() shows both, per layer and per probe point, and flags the unknown rank.
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import tfdebug  # noqa: E402


def parse(row):
    return np.stack([row, row ** 2, np.sqrt(np.abs(row))], axis=-1).astype(np.float32)


def features(row):
    out = tf.numpy_function(parse, [row], tf.float32)
    return tfdebug.probe(out, "parsed")


model = keras.Sequential([keras.Input((4, 3)), keras.layers.Flatten(),
                          keras.layers.Dense(8, name="hidden"), keras.layers.Dense(1, name="out")])


@tf.function
def predict(batch):
    x = tf.ensure_shape(batch, [None, 4, 3])   # the fix TFD400 suggests, for the model input
    return model(x)


rows = tf.data.Dataset.from_tensor_slices(np.arange(24, dtype=np.float32).reshape(6, 4))
with tfdebug.shape_probe() as shapes:
    for batch in rows.map(features).batch(4):
        predict(batch)

print(shapes.table())
for finding in shapes.findings:
    print(f"{finding.recipe} {finding.category}: line {finding.line}: {finding.message}")
